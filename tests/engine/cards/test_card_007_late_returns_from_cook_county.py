"""#7 Late Returns from Cook County: kept until Election Day (R6.4), when Kennedy makes 5 support checks
for Illinois (R13.4; the points follow R1.4, and the bag is no longer refilled, R3.4)."""

import engine
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered
from tests.engine.cards.part2_helpers import election_events


def test_played_it_waits_for_election_day() -> None:
    g = played("kennedy", 7, clear_board=True, momentum={"kennedy": 2, "nixon": 2})
    assert g["persistent"]["election_day"] == [7] and 7 not in g["removed"]
    assert not any(g["states"].values()), "nothing happens in Illinois yet"
    assert g["momentum"] == {"kennedy": 2, "nixon": 2}
    assert awaiting_action(g, "nixon") and conserved(g)


def test_nixon_playing_or_triggering_it_still_keeps_it_for_kennedy() -> None:
    assert played("nixon", 7)["persistent"]["election_day"] == [7]
    assert triggered("nixon", 7)["persistent"]["election_day"] == [7]


def test_five_checks_for_illinois_on_election_day() -> None:
    g = election_events([7], bag={"kennedy": 7, "nixon": 0})
    assert g["states"]["IL"] == 5 and g["bag"] == {"kennedy": 2, "nixon": 0}
    assert g["result"] is not None and 7 in g["removed"] and conserved(g)


def test_failed_checks_and_nixon_cubes_in_illinois() -> None:
    """3 of the 5 draws are Kennedy's: two remove Nixon's cubes, the third is placed (R3.1, R1.4)."""
    g = election_events([7], states={"IL": -2}, bag={"kennedy": 3, "nixon": 2})
    assert g["states"]["IL"] == 1 and g["bag"] == {"kennedy": 0, "nixon": 0}


def test_an_empty_bag_gives_nothing() -> None:
    """R3.4 [ruling]: from R13.3 on an empty bag is not refilled; the checks fail."""
    g = election_events([7], states={"IL": -1}, bag={"kennedy": 0, "nixon": 0})
    assert g["states"]["IL"] == -1 and engine.result(g) is not None
