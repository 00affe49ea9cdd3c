"""The players: always a legal command, whole games to the end, and strength in order.

Strength is measured in benchmarks (benchmarks/README.md); here only a margin no sane
heuristic can miss: it beats the random player in (nearly) every game.
"""

from __future__ import annotations

import random

import pytest

import bots
import engine
from bots.search import Budget
from engine.evaluate import TILT, evaluate, issue_value, state_value, tilts, win_probability
from tests.engine.playout import play_out


def play(
    kinds: dict[str, str], seed: int, edition: str = "zman", budget: Budget | None = None
) -> engine.GameState:
    g = engine.new_game(seed, edition=edition)
    for i in range(3000):
        active = sorted(engine.active_sides(g))
        if not active:
            return g
        side = active[0]
        cmd = bots.choose_command(g, side, kinds[side], budget, seed=seed * 7919 + i)
        assert cmd in engine.legal_commands(g, side)
        engine.apply_in_place(g, side, cmd)
    raise AssertionError("no result after 3000 commands")


@pytest.mark.parametrize("edition", ["zman", "gmt"])
def test_the_heuristic_beats_the_random_player(edition: str) -> None:
    wins = 0
    for seed in range(6):
        bot = ("kennedy", "nixon")[seed % 2]
        kinds = {bot: "heuristic", ("nixon" if bot == "kennedy" else "kennedy"): "random"}
        g = play(kinds, seed, edition)
        wins += g["result"]["winner"] == bot
    assert wins >= 5


def test_the_search_plays_whole_games_with_a_playout_budget() -> None:
    g = play({"kennedy": "search", "nixon": "heuristic"}, 11, "gmt", Budget(iterations=6))
    assert engine.result(g) is not None


def test_the_search_with_the_same_seed_and_playouts_decides_the_same() -> None:
    g = engine.new_game(5)
    for _ in range(30):
        side = sorted(engine.active_sides(g))[0]
        engine.apply_in_place(g, side, bots.choose_command(g, side, "heuristic", seed=1))
    side = sorted(engine.active_sides(g))[0]
    picks = {
        bots.choose_command(g, side, "search", Budget(iterations=10), seed=4) for _ in range(3)
    }
    assert len(picks) == 1


def test_choose_command_refuses_unknown_players_and_sides_with_nothing_to_do() -> None:
    g = engine.new_game(1)
    side = sorted(engine.active_sides(g))[0]
    idle = "nixon" if side == "kennedy" else "kennedy"
    with pytest.raises(ValueError, match="unknown player"):
        bots.choose_command(g, side, "genius")
    if idle not in engine.active_sides(g):
        with pytest.raises(ValueError, match="nothing to decide"):
            bots.choose_command(g, idle, "heuristic")


@pytest.mark.parametrize(
    ("spec", "kind", "budget"),
    [
        ("heuristic", "heuristic", None),
        ("search", "search", None),
        ("search:0.5", "search", Budget(seconds=0.5)),
        ("search:40i", "search", Budget(iterations=40)),
        ("Search:2s", "search", Budget(seconds=2.0)),
    ],
)
def test_parse_kind(spec: str, kind: str, budget: Budget | None) -> None:
    assert bots.parse_kind(spec) == (kind, budget)


@pytest.mark.parametrize("spec", ["genius", "heuristic:2", "search:-1", "search:xi", "search:0"])
def test_parse_kind_refuses(spec: str) -> None:
    with pytest.raises(ValueError):
        bots.parse_kind(spec)


def test_the_evaluation_is_symmetric_and_exact_at_the_end() -> None:
    g, _ = play_out(8, "gmt")
    winner = g["result"]["winner"]
    loser = "nixon" if winner == "kennedy" else "kennedy"
    assert win_probability(g, winner) == 1.0 and win_probability(g, loser) == 0.0
    rnd = random.Random(2)
    h = engine.new_game(8, edition="gmt")
    for _ in range(200):
        side = rnd.choice(sorted(engine.active_sides(h)))
        engine.apply_in_place(h, side, rnd.choice(engine.legal_commands(h, side)))
        assert evaluate(h, "kennedy") == pytest.approx(-evaluate(h, "nixon"))
        p = win_probability(h, "kennedy")
        assert 0.0 < p < 1.0 and p == pytest.approx(1.0 - win_probability(h, "nixon"))


def test_an_issue_lead_is_worth_more_the_higher_the_issue_and_the_deeper_up_to_four() -> None:
    """R10.3: the 1st issue's leader gains most (the evaluation's and the heuristic's value)."""
    assert issue_value(0, 0) == 0.0
    assert issue_value(0, 1) > issue_value(1, 1) > issue_value(2, 1) > 0.0
    assert issue_value(1, 3) > issue_value(1, 2) and issue_value(1, 4) == issue_value(1, 7)
    assert all(issue_value(p, -x) == -issue_value(p, x) for p in range(3) for x in range(6))
    g = engine.new_game(3)
    first = g["issue_order"][0]
    g["issues"][first] = 0
    before = evaluate(g, "nixon")
    g["issues"][first] = -2  # Nixon leads the 1st issue by 2
    assert evaluate(g, "nixon") - before == pytest.approx(issue_value(0, 2) - issue_value(0, 0))


def test_an_empty_state_leans_to_its_regions_endorsements_else_its_border_colour() -> None:
    """R13.5, as the evaluation and the heuristic both read it (`engine.evaluate.tilts`)."""
    g = engine.new_game(3)
    endorsements = {r: 0 for r in engine.REGIONS}
    lean = tilts(endorsements)
    for st, info in engine.STATES.items():
        assert lean[st] == (TILT if info.border == "kennedy" else -TILT)
    region = next(iter(engine.REGIONS))
    endorsements[region] = -1  # one Nixon endorsement marker there
    lean = tilts(endorsements)
    for st, info in engine.STATES.items():
        if info.region == region:
            assert lean[st] == -TILT
    g["endorsements"] = endorsements
    st = next(s for s, info in engine.STATES.items() if info.region == region)
    assert state_value(g, st, 0) < engine.STATES[st].ev / 2  # empty: Nixon's more likely than not


def test_more_support_in_a_state_is_worth_more() -> None:
    g = engine.new_game(3)
    before = evaluate(g, "kennedy")
    g["states"]["CA"] += 3
    assert evaluate(g, "kennedy") > before
    g["states"]["CA"] -= 8
    assert evaluate(g, "kennedy") < before
