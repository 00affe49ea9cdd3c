"""#43 Catholic Support: Kennedy places up to 7 support anywhere, max 2 per state."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_seven_max_two_per_state() -> None:
    g = played("kennedy", 43, clear_board=True)
    assert len(engine.legal_commands(g, "kennedy")) == 51
    g = play(g, "kennedy", "support NY", "support NY")
    assert "support NY" not in engine.legal_commands(g, "kennedy")
    g = play(g, "kennedy", "support PA 2", "support OH 2", "support IL")
    assert sum(g["states"].values()) == 7 and g["states"]["IL"] == 1
    assert awaiting_action(g, "nixon") and conserved(g)


def test_triggered_and_stopped_early() -> None:
    g = triggered("kennedy", 43, clear_board=True)
    g = play(g, "kennedy", "support TX", "done")
    assert sum(g["states"].values()) == 1
