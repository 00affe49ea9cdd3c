"""Election Day events (R13.4): resolved in the order the Election Day initiative player chooses, and
#33 Unpledged Electors deciding a game in which nobody reaches 269 (R14.1)."""

import engine
from engine.data import STATES
from tests.engine.builders import play, top
from tests.engine.cards.part1_helpers import conserved
from tests.engine.cards.part2_helpers import election_events

KENNEDY_BIG = ["CA", "NY", "PA", "IL", "OH", "TX", "MI", "NJ", "MA", "FL"]  # 247 EV


def test_only_the_initiative_player_orders_the_events() -> None:
    g = election_events([7, 32, 90], "nixon", states={"CT": 1}, bag={"kennedy": 5, "nixon": 0})
    assert engine.active_sides(g) == {"nixon"}
    assert engine.legal_commands(g, "nixon") == ["resolve 7", "resolve 32", "resolve 90"]
    assert engine.legal_commands(g, "kennedy") == []


def test_the_order_decides_who_draws_the_last_cubes() -> None:
    """Five Kennedy cubes left: #7 (Illinois) and #32 (CT leader -> California) compete for them."""
    bag = {"kennedy": 5, "nixon": 0}
    first_il = play(
        election_events([7, 32], "nixon", states={"CT": 1}, bag=dict(bag)), "nixon", "resolve 7"
    )
    assert first_il["states"]["IL"] == 5 and first_il["states"]["CA"] == -1  # CA by border (R13.5)
    first_ca = play(
        election_events([7, 32], "nixon", states={"CT": 1}, bag=dict(bag)), "nixon", "resolve 32"
    )
    assert first_ca["states"]["CA"] == 5 and first_ca["states"]["IL"] == 1  # IL by border (R13.5)
    for g in (first_il, first_ca):
        assert g["result"] is not None and sorted(g["removed"][-2:]) == [7, 32] and conserved(g)


def test_a_choice_inside_an_event_then_the_next_event() -> None:
    g = election_events(
        [7, 32, 90], "kennedy", states={"CT": 1, "OH": 1}, bag={"kennedy": 0, "nixon": 3}
    )
    g = play(g, "kennedy", "resolve 90")
    assert engine.active_sides(g) == {"nixon"} and top(g)["step"] == "pick_state"
    g = play(g, "nixon", "state OH")
    assert g["states"]["OH"] == -2
    assert engine.legal_commands(g, "kennedy") == ["resolve 7", "resolve 32"]
    g = play(g, "kennedy", "resolve 32")
    assert g["result"] is not None and g["persistent"]["election_day"] == [] and conserved(g)


def _unpledged_game(with_33: bool) -> engine.GameState:
    states = {s: -1 for s in STATES} | {s: 1 for s in KENNEDY_BIG} | {"AL": 1, "LA": 3, "MS": 2}
    cards = [33] if with_33 else [7]
    return election_events(cards, "kennedy", states=states, bag={"kennedy": 0, "nixon": 0})


def test_without_unpledged_electors_kennedy_wins() -> None:
    r = engine.result(_unpledged_game(False))
    assert r is not None and r["electoral_votes"] == {"kennedy": 276, "nixon": 261}
    assert r["winner"] == "kennedy"


def test_unpledged_electors_decide_a_game_below_269() -> None:
    """R14.1: AL, LA, MS won by Kennedy with < 4 cubes give 29 EV to nobody; 261 beats 247."""
    g = _unpledged_game(True)
    r = engine.result(g)
    assert r is not None and sorted(r["unpledged"]) == ["AL", "LA", "MS"]
    assert r["electoral_votes"] == {"kennedy": 247, "nixon": 261}
    assert r["winner"] == "nixon" and r["tie_break"] is None
    assert 33 in g["removed"] and conserved(g)


def test_unpledged_does_not_touch_states_kennedy_carries() -> None:
    states = {s: -1 for s in STATES} | {s: 1 for s in KENNEDY_BIG} | {"AL": 4, "LA": 3, "MS": 2}
    r = engine.result(
        election_events([33], "kennedy", states=states, bag={"kennedy": 0, "nixon": 0})
    )
    assert r is not None and sorted(r["unpledged"]) == ["LA", "MS"]
    assert r["electoral_votes"] == {"kennedy": 247 + 11, "nixon": 261} and r["winner"] == "nixon"
