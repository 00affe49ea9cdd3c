"""#3 Gallup Poll: the player rearranges the three issues in any order (R1.10, R6.3, R6.7)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, new_log, played, triggered

ORDERS = {
    "order defense economy civil_rights",
    "order defense civil_rights economy",
    "order economy defense civil_rights",
    "order economy civil_rights defense",
    "order civil_rights defense economy",
    "order civil_rights economy defense",
}


def test_player_chooses_any_of_the_six_orders() -> None:
    """R6.3: all six orders are offered (keeping the current one included); the card leaves the game."""
    g = played("kennedy", 3)
    assert set(engine.legal_commands(g, "kennedy")) == ORDERS
    assert engine.legal_commands(g, "nixon") == []
    g2 = play(g, "kennedy", "order civil rights economy defense")
    assert g2["issue_order"] == ["civil_rights", "economy", "defense"]
    assert "Kennedy rearranges the issue track: Civil Rights, Economy, Defense." in new_log(g, g2)
    assert 3 in g2["removed"] and 3 not in g2["discard"]
    assert awaiting_action(g2, "nixon") and conserved(g2)


def test_issue_support_travels_with_the_tiles() -> None:
    """Rearranging moves tiles only: support on each issue is unchanged (R1.3)."""
    issues = {"defense": 2, "economy": -1, "civil_rights": 0}
    g = played("nixon", 3, issues=dict(issues))
    g = play(g, "nixon", "order economy civil_rights defense")
    assert g["issues"] == issues
    assert g["issue_order"] == ["economy", "civil_rights", "defense"]


def test_triggered_by_the_opponent() -> None:
    """R6.7: Kennedy plays it for CP, Nixon pays 1 momentum and rearranges; rest cubes to Kennedy only (R6.2)."""
    g = triggered("nixon", 3)
    assert set(engine.legal_commands(g, "nixon")) == ORDERS
    assert engine.legal_commands(g, "kennedy") == []
    g = play(g, "nixon", "order economy defense civil_rights")
    assert g["issue_order"] == ["economy", "defense", "civil_rights"]
    assert g["momentum"] == {"kennedy": 2, "nixon": 1}
    assert g["rest"] == {"kennedy": 1, "nixon": 0}
    assert 3 in g["removed"] and conserved(g)
