"""#90 Recount: kept until Election Day (R6.4), when Nixon makes 3 support checks for one state of his
choice (R13.4; the bag is not refilled, R3.4)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered
from tests.engine.cards.part2_helpers import election_events


def test_goes_to_the_election_day_space() -> None:
    g = played("nixon", 90)
    assert g["persistent"]["election_day"] == [90] and 90 not in g["removed"]
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_triggered_by_nixon() -> None:
    g = triggered("nixon", 90)
    assert g["persistent"]["election_day"] == [90]


def _election_day(bag: dict[str, int]) -> engine.GameState:
    return election_events([90], states={"OH": 1}, bag=dict(bag))


def test_election_day_nixon_chooses_any_state() -> None:
    g = _election_day({"kennedy": 0, "nixon": 5})
    assert engine.active_sides(g) == {"nixon"}
    legal = engine.legal_commands(g, "nixon")
    assert len(legal) == 50 and "state OH" in legal


def test_three_checks_in_the_chosen_state() -> None:
    g = _election_day({"kennedy": 0, "nixon": 5})
    g = play(g, "nixon", "state OH")
    assert g["states"]["OH"] == -2 and g["bag"]["nixon"] == 2  # 3 successes, R1.4
    assert g["result"] is not None and 90 in g["removed"] and conserved(g)


def test_checks_fail_on_an_empty_bag() -> None:
    g = _election_day({"kennedy": 1, "nixon": 0})
    g = play(g, "nixon", "state OH")
    assert g["states"]["OH"] == 1 and g["bag"] == {"kennedy": 0, "nixon": 0}
