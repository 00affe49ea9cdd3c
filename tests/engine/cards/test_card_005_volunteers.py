"""#5 Volunteers: the player gains 1 momentum (R6.3, R6.7)."""

from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    played,
    position_with,
    triggered,
)


def test_player_gains_one_momentum() -> None:
    g0 = position_with("nixon", 5)
    g = played("nixon", 5)
    assert g["momentum"] == {"kennedy": 2, "nixon": 3}
    assert "Nixon gains 1 momentum and now has 3." in new_log(g0, g)
    assert g["rest"]["nixon"] == 2 and 5 in g["removed"]
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_triggered_the_triggering_player_gains() -> None:
    """R6.7: Kennedy pays 1 and gains 1; Nixon, who played it for CP, gains nothing."""
    g = triggered("kennedy", 5)
    assert g["momentum"] == {"kennedy": 2, "nixon": 2}
    assert g["rest"] == {"kennedy": 0, "nixon": 2}
    assert 5 in g["removed"] and conserved(g)
