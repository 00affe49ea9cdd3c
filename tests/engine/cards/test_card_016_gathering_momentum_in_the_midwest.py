"""#16 Gathering Momentum in the Midwest: whoever leads more Midwestern states than the opponent gains 1
momentum and puts 1 state support in every Midwestern state that has no support at all; on a tied count
nothing happens. Whoever plays it, the leader benefits."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

MIDWEST = ["IL", "IN", "IA", "KY", "MI", "MN", "MO", "OH", "WI"]
MOMENTUM = {"kennedy": 2, "nixon": 2}


def test_the_leader_fills_every_empty_midwestern_state() -> None:
    """Kennedy leads IL, MI and MN, Nixon OH and IN: 3 against 2."""
    board = {"IL": 1, "MI": 1, "MN": 1, "OH": -4, "IN": -4, "PA": 0, "TX": -1}
    g = played("nixon", 16, clear_board=True, states=board, momentum=dict(MOMENTUM))
    assert g["momentum"] == {"kennedy": 3, "nixon": 2}
    assert g["states"]["OH"] == -4 and g["states"]["IN"] == -4
    assert all(g["states"][st] == 1 for st in MIDWEST if st not in ("OH", "IN"))
    assert g["states"]["PA"] == 0 and g["states"]["TX"] == -1, "other regions untouched"
    assert awaiting_action(g, "kennedy") and 16 in g["removed"] and conserved(g)


def test_nixon_leading_more_fills_for_nixon() -> None:
    g = played("nixon", 16, clear_board=True, states={"KY": -1}, momentum=dict(MOMENTUM))
    assert g["momentum"] == {"kennedy": 2, "nixon": 3}
    assert all(g["states"][st] == -1 for st in MIDWEST)


def test_a_tied_count_does_nothing() -> None:
    """Many Southern states for Kennedy do not count: in the Midwest it is 1 against 1."""
    board = {"WI": 1, "IA": -2, "TX": 1, "GA": 1}
    g = played("kennedy", 16, clear_board=True, states=board, momentum=dict(MOMENTUM))
    assert g["momentum"] == MOMENTUM
    assert {st: v for st, v in g["states"].items() if v} == board


def test_triggered_the_leader_still_benefits() -> None:
    g = triggered("nixon", 16, clear_board=True, states={"MO": 2}, momentum=dict(MOMENTUM))
    assert g["momentum"] == {"kennedy": 3, "nixon": 1}  # Nixon paid 1 to trigger (R6.7)
    assert all(g["states"][st] == 1 for st in MIDWEST if st != "MO")
