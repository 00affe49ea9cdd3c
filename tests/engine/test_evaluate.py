"""engine.evaluate: `terms` is exactly what `evaluate` weighs, so weights fitted to games'
outcomes from `terms` (benchmarks/fit_evaluation.py) mean what they say."""

from __future__ import annotations

import math
import random

import pytest

import engine
from engine import evaluate as evaluation


def _positions(seed: int) -> list[engine.GameState]:
    """Every position before Election Day of a game played by random legal commands."""
    rng = random.Random(seed)
    g = engine.new_game(seed)
    out = []
    while engine.active_sides(g) and g["turn"] < 9:
        out.append(engine.copy_state(g))
        side = sorted(engine.active_sides(g))[0]
        engine.apply_in_place(g, side, rng.choice(engine.legal_commands(g, side)))
    return out


def _weighed(t: evaluation.Terms) -> float:
    total = t["ev"]
    for name in (
        "MOMENTUM",
        "MEDIA",
        "ENDORSEMENT",
        "ISSUE_DEPTH",
        "CANDIDATE_CARD",
        "CARD_IN_HAND",
        "HAND_CP",
        "OPPONENT_EVENT",
        "STRATEGY_CARD",
    ):
        total += getattr(evaluation, name) * t[name]  # type: ignore[literal-required]
    total += sum(w * s for w, s in zip(evaluation.ISSUE_POSITION, t["ISSUE_POSITION"], strict=True))
    return total


@pytest.mark.parametrize("seed", [3, 11])
def test_evaluate_is_its_terms_weighed(seed: int) -> None:
    positions = _positions(seed)
    assert len(positions) > 100
    moved = set()
    for g in positions:
        t = evaluation.terms(g)
        assert evaluation.evaluate(g, "kennedy") == pytest.approx(_weighed(t), abs=1e-9)
        assert evaluation.evaluate(g, "nixon") == pytest.approx(-_weighed(t), abs=1e-9)
        moved |= {k for k, v in t.items() if v not in (0, 0.0, (0, 0, 0))}
    # the positions exercise every term, so a term left out of `terms` would show
    assert moved == set(evaluation.Terms.__annotations__)


def test_a_big_states_lead_is_less_sure_early_and_every_spread_narrows_as_the_turns_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`spreads`: SPREAD_BASE + SPREAD_PER_TURN a turn left, times (EV / 10) ** SPREAD_EV_POWER,
    read afresh when the constants change (bench_bots --weights changes them)."""
    g = engine.new_game(5)
    g["turn"] = 2
    early = evaluation.spreads(g)
    small, big = min(engine.STATES, key=lambda s: engine.STATES[s].ev), "CA"
    if evaluation.SPREAD_EV_POWER > 0:
        assert early[big] > early[small]
    g["turn"] = 8
    late = evaluation.spreads(g)
    assert all(late[st] < early[st] for st in engine.STATES)
    assert late[big] == pytest.approx(evaluation.spread(g, engine.STATES[big].ev))
    monkeypatch.setattr(evaluation, "SPREAD_EV_POWER", 2.0)
    monkeypatch.setattr(evaluation, "SPREAD_BASE", 0.5)
    wider = evaluation.spreads(g)
    ev = engine.STATES[big].ev
    assert wider[big] == pytest.approx(0.5 + evaluation.SPREAD_PER_TURN * 1 * (ev / 10) ** 2)
    assert wider[small] < wider[big]


def test_win_probability_reads_the_margin_over_the_width_that_narrows_as_the_turns_pass() -> None:
    """`curve_width`: SCALE_BASE + SCALE_PER_TURN a turn left (R4.1); the chance is the logistic
    of the margin over it, whichever the turn (benchmarks/fit_evaluation.py fits the width)."""
    widths = [evaluation.curve_width(turn) for turn in range(1, 10)]
    assert widths == sorted(widths, reverse=True)
    assert widths[-2] == evaluation.SCALE_BASE + evaluation.SCALE_PER_TURN
    assert widths[-1] == evaluation.SCALE_BASE
    for g in _positions(7)[::40]:
        margin = evaluation.evaluate(g, "nixon")
        z = margin / evaluation.curve_width(int(g["turn"]))
        assert evaluation.win_probability(g, "nixon") == pytest.approx(1 / (1 + math.exp(-z)))
