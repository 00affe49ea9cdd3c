"""`benchmarks/fit_evaluation.py`: the evaluation's weights fitted to who won."""

from __future__ import annotations

import math
import random

import pytest

import engine
from benchmarks import bench_bots, fit_evaluation
from engine import evaluate as evaluation


def test_fit_recovers_the_coefficients_of_a_known_logistic_model() -> None:
    rng = random.Random(5)
    truth = (0.3, 1.5, -0.8)  # intercept, then two inputs
    xs, ys = [], []
    for _ in range(4000):
        x = (rng.gauss(0, 1), rng.gauss(0, 1))
        z = truth[0] + truth[1] * x[0] + truth[2] * x[1]
        xs.append(x)
        ys.append(int(rng.random() < 1 / (1 + math.exp(-z))))
    beta = fit_evaluation.fit(xs, ys)
    assert beta == pytest.approx(truth, abs=0.15)


def test_weights_are_todays() -> None:
    weights = dict(zip(fit_evaluation.NAMES, fit_evaluation.today_weights(), strict=True))
    assert weights["MOMENTUM"] == evaluation.MOMENTUM
    assert weights["ISSUE_POSITION[2]"] == evaluation.ISSUE_POSITION[1]


def test_names_weights_and_inputs_line_up_with_the_evaluations_terms() -> None:
    g = engine.new_game(1)
    assert len(fit_evaluation.NAMES) == len(fit_evaluation.today_weights())
    assert len(fit_evaluation.inputs(g)) == len(fit_evaluation.NAMES)
    # every weighted term reaches the fit and --weights, and every one has its weight
    for name in evaluation.WEIGHTED_TERMS:
        assert hasattr(evaluation, name)
        assert name in fit_evaluation.NAMES or f"{name}[1]" in fit_evaluation.NAMES
        assert name in bench_bots.WEIGHTS
    assert fit_evaluation.inputs(g)[0] == evaluation.terms(g)["ev"]
    # a fitted carry curve can be played: --weights takes each of its constants
    for name in fit_evaluation.CURVE:
        assert isinstance(getattr(evaluation, name), float)
        assert name in bench_bots.WEIGHTS


def test_a_small_run_prints_the_three_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert fit_evaluation.main(["--deals", "12", "--workers", "1", "--every", "5"]) == 0
    out = capsys.readouterr().out
    assert "held out (odd deals)" in out
    assert "| 8 |" in out  # a row for the last turn before Election Day
    assert "| MOMENTUM |" in out
    assert "| today's `win_probability` (baseline) |" in out


def test_the_carry_curve_is_the_evaluations() -> None:
    """`carry_chance` at today's constants is `engine.evaluate`'s chance for every state."""
    g = engine.new_game(11)
    for st, x in zip(engine.STATES, (-3, -1, 0, 1, 2, 5) * 9, strict=False):
        g["states"][st] = x
    g["turn"] = 4
    today = tuple(float(getattr(evaluation, name)) for name in fit_evaluation.CURVE)
    lean = evaluation.tilts(g["endorsements"])
    for st, info in engine.STATES.items():
        sign = 1 if lean[st] > 0 else -1
        chance = fit_evaluation.carry_chance(today, 4, g["states"][st], sign, info.ev)
        assert chance * info.ev == pytest.approx(evaluation.state_value(g, st))


def test_fit_curve_recovers_a_known_carry_curve() -> None:
    rng = random.Random(8)
    truth = (0.8, 0.2, 1.5, 0.3)
    carries: fit_evaluation.Counter[fit_evaluation.Carry] = fit_evaluation.Counter()
    for _ in range(60000):
        turn, support, lean = rng.randint(1, 8), rng.randint(-4, 4), rng.choice((1, -1))
        ev = rng.choice((3, 4, 6, 9, 12, 16, 25, 32, 45))
        won = rng.random() < fit_evaluation.carry_chance(truth, turn, support, lean, ev)
        carries[(turn, support, lean, ev, int(won))] += 1
    today = tuple(float(getattr(evaluation, name)) for name in fit_evaluation.CURVE)
    fitted = fit_evaluation.fit_curve(carries, today)
    assert fitted == pytest.approx(truth, abs=0.12)
    assert fit_evaluation.carry_bits(fitted, carries) < fit_evaluation.carry_bits(today, carries)
