"""#17 Gathering Momentum in the West: whoever leads more Western states than the opponent gains 1
momentum and puts 1 state support in every Western state that has no support at all; on a tied count
nothing happens. Alaska and Hawaii count as Western states. Whoever plays it, the leader benefits."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

WEST = ["AK", "AZ", "CA", "CO", "HI", "ID", "KS", "MT", "NE", "NV", "NM", "ND", "OK", "OR", "SD"]
WEST += ["UT", "WA", "WY"]
MOMENTUM = {"kennedy": 2, "nixon": 2}


def test_the_leader_fills_every_empty_western_state_alaska_and_hawaii_too() -> None:
    board = {"CA": -1, "OR": -1, "WA": 3, "IL": 0, "TX": 0}
    g = played("kennedy", 17, clear_board=True, states=board, momentum=dict(MOMENTUM))
    assert g["momentum"] == {"kennedy": 2, "nixon": 3}
    assert g["states"]["AK"] == -1 and g["states"]["HI"] == -1
    assert all(g["states"][st] == -1 for st in WEST if st != "WA") and g["states"]["WA"] == 3
    assert g["states"]["IL"] == 0 and g["states"]["TX"] == 0, "other regions untouched"
    assert awaiting_action(g, "nixon") and 17 in g["removed"] and conserved(g)


def test_leading_alaska_and_hawaii_counts() -> None:
    """Kennedy leads AK and HI, Nixon only CA: 2 against 1, Kennedy benefits."""
    board = {"AK": 1, "HI": 1, "CA": -5}
    g = played("nixon", 17, clear_board=True, states=board, momentum=dict(MOMENTUM))
    assert g["momentum"] == {"kennedy": 3, "nixon": 2}
    assert all(g["states"][st] == 1 for st in WEST if st != "CA") and g["states"]["CA"] == -5
    assert g["log"][-1]["text"] == (  # it read 'leads more West states'
        "Kennedy leads more Western states and adds support in 15 empty states."
    )


def test_a_tied_count_does_nothing() -> None:
    board = {"AK": 1, "NV": -1}
    g = played("kennedy", 17, clear_board=True, states=board, momentum=dict(MOMENTUM))
    assert g["momentum"] == MOMENTUM
    assert {st: v for st, v in g["states"].items() if v} == board


def test_triggered_the_leader_still_benefits() -> None:
    g = triggered("kennedy", 17, clear_board=True, states={"HI": 1}, momentum=dict(MOMENTUM))
    assert g["momentum"] == {"kennedy": 2, "nixon": 2}  # -1 to trigger (R6.7), +1 from the event
    assert all(g["states"][st] == 1 for st in WEST)
