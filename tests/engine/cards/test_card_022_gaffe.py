"""#22 Gaffe: the player's opponent loses 1 momentum, and 3 of the opponent's cubes are removed from the
state where the opponent's own token stands (fewer if fewer are there; losses are limited to what is on
the board, R6.6)."""

from tests.engine.builders import play
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    played,
    position_with,
    triggered,
)


def test_nixon_loses_momentum_and_three_cubes_where_his_token_stands() -> None:
    g = played(
        "kennedy",
        22,
        states={"OH": -5, "CA": -2, "MA": 2},
        token={"kennedy": "MA", "nixon": "OH"},
        momentum={"kennedy": 2, "nixon": 2},
    )
    assert g["momentum"] == {"kennedy": 2, "nixon": 1}
    assert g["states"]["OH"] == -2
    assert g["states"]["CA"] == -2 and g["states"]["MA"] == 2, "no other state changes"
    assert awaiting_action(g, "nixon") and 22 in g["removed"] and conserved(g)


def test_nixon_plays_it_against_kennedy() -> None:
    g = played(
        "nixon",
        22,
        states={"MA": 4, "CA": -3},
        token={"kennedy": "MA", "nixon": "CA"},
        momentum={"kennedy": 3, "nixon": 0},
    )
    assert g["momentum"] == {"kennedy": 2, "nixon": 0}
    assert g["states"]["MA"] == 1 and g["states"]["CA"] == -3


def test_fewer_cubes_and_no_momentum_lose_only_what_there_is() -> None:
    """R6.6: Nixon has 2 cubes there and no momentum: both end at 0, Kennedy gains nothing."""
    g0 = position_with(
        "kennedy",
        22,
        states={"TX": -2},
        token={"kennedy": "MA", "nixon": "TX"},
        momentum={"kennedy": 1, "nixon": 0},
    )
    g = play(g0, "kennedy", "event 22")
    assert g["states"]["TX"] == 0 and g["momentum"] == {"kennedy": 1, "nixon": 0}
    assert "Nixon loses 2 support in Texas, all there was (R6.6)." in new_log(g0, g)


def test_kennedy_cubes_where_nixon_stands_are_not_touched() -> None:
    g0 = position_with("kennedy", 22, states={"NY": 3}, token={"kennedy": "MA", "nixon": "NY"})
    g = play(g0, "kennedy", "event 22")
    assert g["states"]["NY"] == 3
    assert "Nixon has no support in New York to lose (R6.6)." in new_log(g0, g)


def test_triggered_by_nixon_hits_kennedy() -> None:
    g = triggered(
        "nixon",
        22,
        states={"IL": 3},
        token={"kennedy": "IL", "nixon": "CA"},
        momentum={"kennedy": 2, "nixon": 2},
    )
    assert g["momentum"] == {"kennedy": 1, "nixon": 1}  # Nixon paid 1 to trigger (R6.7)
    assert g["states"]["IL"] == 0
