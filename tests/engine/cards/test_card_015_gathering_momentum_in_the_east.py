"""#15 Gathering Momentum in the East: whoever leads more Eastern states than the opponent gains 1
momentum and puts 1 state support in every Eastern state that has no support at all; on a tied count
nothing happens. Whoever plays it, the leader benefits."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

EAST = ["CT", "DE", "ME", "MD", "MA", "NH", "NJ", "NY", "PA", "RI", "VT", "WV"]
MOMENTUM = {"kennedy": 2, "nixon": 2}


def test_the_leader_fills_every_empty_eastern_state() -> None:
    """Nixon leads NY and PA, Kennedy only MA: Nixon benefits though Kennedy plays the card."""
    board = {"NY": -1, "PA": -2, "MA": 5, "VA": 0, "OH": 1}
    g = played("kennedy", 15, clear_board=True, states=board, momentum=dict(MOMENTUM))
    assert g["momentum"] == {"kennedy": 2, "nixon": 3}
    assert {st: g["states"][st] for st in ("NY", "PA", "MA")} == {"NY": -1, "PA": -2, "MA": 5}
    assert all(g["states"][st] == -1 for st in EAST if st not in ("PA", "MA"))
    assert g["states"]["VA"] == 0 and g["states"]["OH"] == 1, "other regions untouched"
    assert awaiting_action(g, "nixon") and 15 in g["removed"] and conserved(g)


def test_kennedy_leading_more_fills_for_kennedy() -> None:
    g = played(
        "nixon", 15, clear_board=True, states={"NJ": 1, "DE": 1, "WV": -1}, momentum=dict(MOMENTUM)
    )
    assert g["momentum"] == {"kennedy": 3, "nixon": 2}
    assert all(g["states"][st] == 1 for st in EAST if st != "WV") and g["states"]["WV"] == -1


def test_a_tied_count_does_nothing() -> None:
    board = {"NY": 2, "NJ": 1, "PA": -1, "CT": -1, "VA": 3}
    g = played("kennedy", 15, clear_board=True, states=board, momentum=dict(MOMENTUM))
    assert g["momentum"] == MOMENTUM
    assert {st: v for st, v in g["states"].items() if v} == board


def test_nobody_leads_any_state_does_nothing() -> None:
    g = played("kennedy", 15, clear_board=True, momentum=dict(MOMENTUM))
    assert g["momentum"] == MOMENTUM and not any(g["states"].values())


def test_triggered_the_leader_still_benefits() -> None:
    g = triggered("kennedy", 15, clear_board=True, states={"ME": -1}, momentum=dict(MOMENTUM))
    assert g["momentum"] == {"kennedy": 1, "nixon": 3}  # Kennedy paid 1 to trigger (R6.7)
    assert all(g["states"][st] == -1 for st in EAST)
