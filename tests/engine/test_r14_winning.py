"""R13.6 / R14 Final tally and ties: 269 wins, Unpledged Electors (R14.1), more states,
then Kennedy (R14.2); GMT adds more support cubes before the last step (R16.5)."""

from __future__ import annotations

from typing import Any

import engine
from engine.data import STATES
from engine.phases.election import tally


def board(edition: str = "zman", **states: int) -> Any:
    g = engine.new_game(1, edition=edition)
    g["states"] = {s: 0 for s in STATES}
    g["states"].update(states)
    return g


def _split(kennedy: set[str]) -> dict[str, int]:
    return {s: (1 if s in kennedy else -1) for s in STATES}


def test_r13_6_each_side_scores_the_ev_of_states_with_its_support() -> None:
    g = board()
    g["states"] = _split({"NY", "PA", "CA", "TX", "IL", "OH", "MI", "NJ", "MA", "NC", "MO"})
    r = tally(g)
    k = 45 + 32 + 32 + 24 + 27 + 25 + 20 + 16 + 16 + 14 + 13
    assert r["electoral_votes"] == {"kennedy": k, "nixon": 537 - k}
    assert r["states_won"] == {"kennedy": 11, "nixon": 39}
    assert r["winner"] == ("kennedy" if k >= 269 else "nixon")
    assert r["tie_break"] is None


BIG = {"NY", "PA", "CA", "IL", "OH", "TX", "MI", "NJ", "MA", "NC", "MO"}  # 264 EV


def test_r14_1_269_wins_and_268_loses() -> None:
    g = board()
    g["states"] = _split(BIG | {"ME"})
    r = tally(g)
    assert r["electoral_votes"] == {"kennedy": 269, "nixon": 268}
    assert r["winner"] == "kennedy"
    g["states"] = _split(BIG | {"NH"})
    r = tally(g)
    assert r["electoral_votes"] == {"kennedy": 268, "nixon": 269}
    assert r["winner"] == "nixon"


def test_r14_1_unpledged_electors_states_go_to_nobody_and_more_ev_wins() -> None:
    g = board()
    g["states"] = _split(BIG | {"ME", "AL", "MS"})
    g["unpledged"] = ["ME", "AL", "MS", "GA"]
    g["states"]["AL"] = 3  # Kennedy with fewer than 4 cubes: nobody's
    g["states"]["MS"] = 4  # Kennedy carries: his
    g["states"]["ME"] = 1
    r = tally(g)
    assert sorted(r["unpledged"]) == ["AL", "ME"]  # GA is Nixon's and counts for him
    assert r["electoral_votes"] == {"kennedy": 264 + 8, "nixon": 537 - 264 - 5 - 11 - 8}
    g["states"]["MS"] = 3
    r = tally(g)
    # nobody reaches 269 (R14.1): the one with more EV wins
    assert r["electoral_votes"] == {"kennedy": 264, "nixon": 249}
    assert r["winner"] == "kennedy" and r["tie_break"] is None
    g["unpledged"].append("TX")  # Kennedy's 24 EV with 1 cube there go to nobody as well
    r = tally(g)
    assert r["electoral_votes"] == {"kennedy": 240, "nixon": 249}
    assert r["winner"] == "nixon"


def test_r14_1_unpledged_states_won_by_nixon_count_normally() -> None:
    g = board(GA=-1)
    g["unpledged"] = ["GA"]
    r = tally(g)
    assert r["electoral_votes"]["nixon"] == 12 and r["unpledged"] == []


def test_r14_2_ev_tie_goes_to_more_states_won() -> None:
    # FL (10) for Kennedy against AK (3) + NV (3) + DE... 3+3+4: three states for Nixon
    g = board(FL=1, AK=-1, NV=-1, NM=-1)
    r = tally(g)
    assert r["electoral_votes"] == {"kennedy": 10, "nixon": 10}
    assert r["winner"] == "nixon" and r["tie_break"] == "states"


def test_r14_2_full_tie_goes_to_kennedy_in_the_zman_edition() -> None:
    g = board(FL=1, IA=-5)  # 10 EV and 1 state each; Nixon has more cubes
    r = tally(g)
    assert r["winner"] == "kennedy" and r["tie_break"] == "kennedy"


def test_r16_5_gmt_tie_break_more_state_support_cubes_before_kennedy() -> None:
    g = board("gmt", FL=1, IA=-5)
    r = tally(g)
    assert r["support_cubes"] == {"kennedy": 1, "nixon": 5}
    assert r["winner"] == "nixon" and r["tie_break"] == "support"
    g = board("gmt", FL=2, IA=-2)
    r = tally(g)
    assert r["winner"] == "kennedy" and r["tie_break"] == "kennedy"
