"""#50 Industrial Midwest: Nixon places up to 5 support among IL, IN, MI, MN, OH, WI, max 2 per state."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_choices_are_the_six_states() -> None:
    g = played("nixon", 50)
    assert engine.legal_commands(g, "nixon") == [
        "support IL",
        "support IN",
        "support MI",
        "support MN",
        "support OH",
        "support WI",
        "done",
    ]


def test_kennedy_cubes_removed_first_and_cap_of_two() -> None:
    g = played("nixon", 50, clear_board=True, states={"IL": 1, "MI": 3})
    g = play(g, "nixon", "support IL", "support IL")
    assert g["states"]["IL"] == -1  # R1.4: the first point removed Kennedy's cube
    assert "support IL" not in engine.legal_commands(g, "nixon")
    g = play(g, "nixon", "support MI", "support MI", "support OH")
    assert g["states"]["MI"] == 1 and g["states"]["OH"] == -1
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_kennedy_playing_it_as_event_still_helps_nixon() -> None:
    g = played("kennedy", 50, clear_board=True)
    assert engine.active_sides(g) == {"nixon"}
    g = play(g, "nixon", "support WI", "done")
    assert g["states"]["WI"] == -1 and g["rest"]["kennedy"] == 1


def test_triggered_by_nixon() -> None:
    g = triggered("nixon", 50, clear_board=True)
    g = play(g, "nixon", "support IN", "done")
    assert g["states"]["IN"] == -1 and g["momentum"]["nixon"] == 1 and 50 in g["removed"]
