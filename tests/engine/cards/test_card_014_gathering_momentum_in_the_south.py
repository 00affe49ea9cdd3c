"""#14 Gathering Momentum in the South: whoever leads more Southern states than the opponent gains 1
momentum and puts 1 state support in every Southern state that has no support at all; on a tied count
nothing happens. Whoever plays it, the leader benefits. In the GMT edition an empty state where the
opponent's token stands needs a support check (R16.3)."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

SOUTH = ["AL", "AR", "FL", "GA", "LA", "MS", "NC", "SC", "TN", "TX", "VA"]
MOMENTUM = {"kennedy": 2, "nixon": 2}


def test_the_leader_fills_every_empty_southern_state() -> None:
    """Kennedy leads TX and GA, Nixon only AL: Kennedy benefits though Nixon plays the card."""
    board = {"TX": 2, "GA": 1, "AL": -3, "NY": 0, "OH": -1}
    g = played("nixon", 14, clear_board=True, states=board, momentum=dict(MOMENTUM))
    assert g["momentum"] == {"kennedy": 3, "nixon": 2}
    assert {st: g["states"][st] for st in ("TX", "GA", "AL")} == {"TX": 2, "GA": 1, "AL": -3}
    assert all(g["states"][st] == 1 for st in SOUTH if st not in ("TX", "GA", "AL"))
    assert g["states"]["NY"] == 0 and g["states"]["OH"] == -1, "other regions untouched"
    assert awaiting_action(g, "kennedy") and 14 in g["removed"] and conserved(g)


def test_nixon_leading_more_fills_for_nixon() -> None:
    g = played(
        "kennedy",
        14,
        clear_board=True,
        states={"VA": -1, "NC": -1, "FL": 3},
        momentum=dict(MOMENTUM),
    )
    assert g["momentum"] == {"kennedy": 2, "nixon": 3}
    assert sorted(st for st in SOUTH if g["states"][st] == -1) == sorted(
        st for st in SOUTH if st != "FL"
    )
    assert g["states"]["FL"] == 3


def test_a_tied_count_does_nothing() -> None:
    """Cube totals do not matter, only how many states each leads: 1 against 1."""
    board = {"TX": 4, "AL": -1}
    g = played("kennedy", 14, clear_board=True, states=board, momentum=dict(MOMENTUM))
    assert g["momentum"] == MOMENTUM
    assert {st: v for st, v in g["states"].items() if v} == board


def test_triggered_the_leader_still_benefits() -> None:
    g = triggered("nixon", 14, clear_board=True, states={"TX": 1}, momentum=dict(MOMENTUM))
    assert g["momentum"] == {"kennedy": 3, "nixon": 1}  # Nixon paid 1 to trigger (R6.7)
    assert all(g["states"][st] == 1 for st in SOUTH)


def test_gmt_empty_state_with_the_opponent_token_needs_a_check() -> None:
    """R16.3: Nixon's token stands in empty Florida; Kennedy's one check there draws a Nixon cube."""
    g = played(
        "kennedy",
        14,
        edition="gmt",
        clear_board=True,
        states={"TX": 1},
        token={"kennedy": "MA", "nixon": "FL"},
        bag={"kennedy": 0, "nixon": 4},
    )
    assert g["states"]["FL"] == 0 and g["bag"] == {"kennedy": 0, "nixon": 3}
    assert all(g["states"][st] == 1 for st in SOUTH if st != "FL")
