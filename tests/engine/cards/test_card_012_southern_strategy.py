"""#12 Southern Strategy: Nixon places up to 5 support in the South, max 2 per state; Kennedy then adds
one cube on Civil Rights (R1.4)."""

import engine
from engine.data import STATES_BY_REGION
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_southern_states_max_two_then_kennedy_civil_rights() -> None:
    g = played(
        "nixon", 12, clear_board=True, issues={"defense": 0, "economy": 0, "civil_rights": -1}
    )
    assert engine.legal_commands(g, "nixon") == [
        f"support {s}" for s in STATES_BY_REGION["south"]
    ] + ["done"]
    g = play(g, "nixon", "support TX", "support TX")
    assert "support TX" not in engine.legal_commands(g, "nixon")
    g = play(g, "nixon", "support GA", "support GA", "support FL")
    assert (g["states"]["TX"], g["states"]["GA"], g["states"]["FL"]) == (-2, -2, -1)
    assert g["issues"]["civil_rights"] == 0  # Kennedy's cube removes Nixon's (R1.4)
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_triggered_by_nixon_stops_early() -> None:
    g = triggered("nixon", 12, clear_board=True)
    g = play(g, "nixon", "support AL", "done")
    assert g["states"]["AL"] == -1 and g["issues"]["civil_rights"] == 1
