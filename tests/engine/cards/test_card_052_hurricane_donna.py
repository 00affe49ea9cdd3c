"""#52 Hurricane Donna: the player's token to Florida at no cost, +1 momentum, +1 support in Florida.
In the GMT edition, support in a state the opponent carries needs a check (R16.3)."""

from tests.engine.builders import play
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    played,
    position_with,
    triggered,
)


def test_nixon_plays_it() -> None:
    g = played("nixon", 52, clear_board=True)
    assert g["token"]["nixon"] == "FL" and g["momentum"]["nixon"] == 3
    assert g["states"]["FL"] == -1 and g["momentum"]["kennedy"] == 2
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_kennedy_plays_it_removing_a_nixon_cube() -> None:
    g = played("kennedy", 52, clear_board=True, states={"FL": -2})
    assert (
        g["token"]["kennedy"] == "FL" and g["states"]["FL"] == -1 and g["momentum"]["kennedy"] == 3
    )


def test_triggered_by_the_opponent_helps_the_triggering_player() -> None:
    g = triggered("kennedy", 52, clear_board=True)
    assert g["token"]["kennedy"] == "FL" and g["states"]["FL"] == 1
    assert g["momentum"]["kennedy"] == 2  # -1 to trigger (R6.7), +1 from the event


def test_gmt_support_in_a_carried_state_needs_a_check() -> None:
    """R16.3: Nixon carries Florida, so Kennedy's point there is a support check."""
    g = position_with(
        "kennedy",
        52,
        edition="gmt",
        clear_board=True,
        states={"FL": -4},
        bag={"kennedy": 0, "nixon": 5},
    )
    before = g
    g = play(g, "kennedy", "event 52")
    assert g["states"]["FL"] == -4 and g["bag"]["nixon"] == 4
    assert any("Florida (R16.3)" in t for t in new_log(before, g))
