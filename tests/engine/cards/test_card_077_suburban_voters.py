"""#77 Suburban Voters: Kennedy places up to 5 support, max 2 per state, in states of 20+ EV."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_choices_are_the_big_states() -> None:
    g = played("kennedy", 77)
    assert engine.legal_commands(g, "kennedy") == [
        "support CA",
        "support IL",
        "support MI",
        "support NY",
        "support OH",
        "support PA",
        "support TX",
        "done",
    ]


def test_cap_and_total() -> None:
    g = played("kennedy", 77, clear_board=True, states={"OH": -1})
    g = play(g, "kennedy", "support OH", "support OH")
    assert g["states"]["OH"] == 1 and "support OH" not in engine.legal_commands(g, "kennedy")
    g = play(g, "kennedy", "support CA", "support TX", "support TX")
    assert g["states"]["CA"] == 1 and g["states"]["TX"] == 2
    assert awaiting_action(g, "nixon") and conserved(g)


def test_triggered() -> None:
    g = triggered("kennedy", 77, clear_board=True)
    g = play(g, "kennedy", "support NY", "done")
    assert g["states"]["NY"] == 1
