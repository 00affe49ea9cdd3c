"""#39 Lyndon Johnson: Kennedy gains 2 support in Texas, places up to 3 more in the South, max 2 per
state (ruling: Texas's 2 outside that cap), and an exhausted candidate card becomes active (R6.9)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_texas_then_three_southern_max_two_each() -> None:
    g = played(
        "kennedy", 39, clear_board=True, candidate={"kennedy": "exhausted", "nixon": "exhausted"}
    )
    assert g["states"]["TX"] == 2
    assert "support TX" in engine.legal_commands(g, "kennedy")
    assert "support OH" not in engine.legal_commands(g, "kennedy")
    g = play(g, "kennedy", "support TX", "support TX")
    assert "support TX" not in engine.legal_commands(g, "kennedy")
    g = play(g, "kennedy", "support GA")
    assert g["states"]["TX"] == 4 and g["states"]["GA"] == 1
    assert g["candidate"] == {"kennedy": "active", "nixon": "exhausted"}
    assert awaiting_action(g, "nixon") and conserved(g)


def test_texas_support_removes_nixon_cubes_first() -> None:
    g = played("kennedy", 39, clear_board=True, states={"TX": -3})
    assert g["states"]["TX"] == -1
    g = play(g, "kennedy", "done")
    assert g["candidate"]["kennedy"] == "active"


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 39, clear_board=True)
    assert g["states"]["TX"] == 2 and g["stack"][-1]["side"] == "kennedy"
