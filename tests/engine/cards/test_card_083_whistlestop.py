"""#83 Whistlestop (ruling): a normal 7-CP campaigning action (travel and R7.4 checks apply) with at
most 1 CP in any one state; no card, so nothing to trigger."""

import engine
from tests.engine.builders import play, top
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_seven_cp_one_per_state() -> None:
    g = played("kennedy", 83, clear_board=True)
    assert top(g)["step"] == "campaign" and top(g)["cp"] == 7 and top(g)["cap"] == 1
    g = play(g, "kennedy", "support MA")
    assert "support MA" not in engine.legal_commands(g, "kennedy")
    g = play(g, "kennedy", "support CT", "support NY", "support PA", "support OH")  # OH: 1 border
    assert top(g)["cp"] == 1
    g = play(g, "kennedy", "support IL")
    assert sum(g["states"].values()) == 6 and awaiting_action(g, "nixon") and conserved(g)
    assert 83 in g["removed"]


def test_checks_still_apply() -> None:
    g = played("nixon", 83, clear_board=True, states={"CA": 4})
    legal = engine.legal_commands(g, "nixon")
    assert "check CA 1" in legal and "check CA 2" not in legal and "support OR" in legal


def test_triggered() -> None:
    g = triggered("nixon", 83, clear_board=True)
    assert top(g)["side"] == "nixon" and top(g)["cp"] == 7
