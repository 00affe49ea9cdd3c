"""#59 Mid-Atlantic: Kennedy places up to 5 support among DE, MD, NJ, NY, PA, max 2 per state."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_choices_and_caps() -> None:
    g = played("kennedy", 59, clear_board=True, states={"PA": -1})
    assert engine.legal_commands(g, "kennedy") == [
        "support DE",
        "support MD",
        "support NJ",
        "support NY",
        "support PA",
        "done",
    ]
    g = play(g, "kennedy", "support PA", "support PA", "support NY", "support NY", "support DE")
    assert g["states"]["PA"] == 1 and g["states"]["NY"] == 2 and g["states"]["DE"] == 1
    assert awaiting_action(g, "nixon") and conserved(g)


def test_cap_of_two_removes_the_state_from_the_choices() -> None:
    g = played("kennedy", 59, clear_board=True)
    g = play(g, "kennedy", "support NJ", "support NJ")
    assert "support NJ" not in engine.legal_commands(g, "kennedy")


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 59, clear_board=True)
    g = play(g, "kennedy", "support MD", "done")
    assert g["states"]["MD"] == 1 and g["momentum"]["kennedy"] == 1
