"""Fit `engine.evaluate`'s weights to who won: how good a model of the game the evaluation is.

    python benchmarks/fit_evaluation.py [--deals 2000] [--player heuristic] [--seed 70000]

The search scores every playout by `engine.evaluate.win_probability`: a margin in electoral
votes (support in the states, and the other terms times their hand-set weights, R10-R13)
turned into a chance of winning by a logistic curve whose width shrinks as Election Day nears
(``SCALE_BASE + SCALE_PER_TURN`` × turns left). Nothing but matches ever checked that model.
This plays ``--deals`` games of ``--player`` against itself, takes a position every
``--every`` decisions before Election Day with `engine.evaluate.terms` (the evaluation's
unweighted terms), and fits a logistic regression of Kennedy's win on them:

- **per turn**, the width the games give the curve (1 / the electoral votes' coefficient)
  beside today's;
- **pooled over turns** with each position's terms divided by today's width, the weight each
  term earns in electoral votes (its coefficient over the electoral votes' one) beside
  today's, and the factor today's width is off by;
- **held out** (the fit uses the even deals, the odd ones judge it): the log loss, in bits per
  position, of a coin (the base rate), of today's `win_probability`, of today's weights with
  only the width fitted, and of the model with every weight fitted.
  Today's model is the baseline; the ratio says how much of its loss the fit removes;
- **per state**, the carry curve the ``ev`` term is made of (`engine.evaluate.spreads` and
  ``TILT``): at the same positions, each state's support and lean (R13.5) against who carried
  it on Election Day, the curve's four constants fitted to the even deals (the log loss
  weighted by the state's electoral votes, as the evaluation weighs it), held out beside
  today's, and the spread at a few sizes of state and turns left.

Positions of one game are alike, so the intervals a regression would print are too narrow;
the held-out loss is the honest measure, and a weight the fit moves is only a candidate until
`bench_bots.py --weights` self-play (the heuristic) or a match (the search) says it plays
better. Pure Python (a Newton iteration on a dozen numbers); 2,000 heuristic games take a few
minutes of a core. ``--smoke`` fits 12 deals: a check that it still runs, never a result.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bots
import engine
from engine import evaluate as evaluation
from engine.board import owner

# the regression's inputs: the evaluation's terms in `Terms` order, the issue positions spread out
NAMES = tuple(
    n
    for name in ("ev", *evaluation.WEIGHTED_TERMS)
    for n in ([f"{name}[{i}]" for i in (1, 2, 3)] if name == "ISSUE_POSITION" else [name])
)
Row = tuple[int, tuple[float, ...], int]  # turn, inputs, 1 if Kennedy won
# turn, a state's support (+ Kennedy), its lean (+1 toward Kennedy, R13.5), its EV, and 1 if
# Kennedy carried it on Election Day; counted
Carry = tuple[int, int, int, int, int]
CURVE = evaluation.CARRY_CURVE  # the carry curve's constants, in this order


def _spread(value: object) -> tuple[float, ...]:
    """A term or weight as numbers (the issue positions are three)."""
    if isinstance(value, tuple):
        return tuple(float(x) for x in value)
    if isinstance(value, int | float):
        return (float(value),)
    raise TypeError(f"not a term: {value!r}")


def inputs(g: engine.GameState) -> tuple[float, ...]:
    t: dict[str, object] = dict(evaluation.terms(g))
    return tuple(x for name in ("ev", *evaluation.WEIGHTED_TERMS) for x in _spread(t[name]))


def today_weights() -> tuple[float, ...]:
    """Today's weights in `NAMES` order (``ev`` counts as 1)."""
    weights = (getattr(evaluation, name) for name in evaluation.WEIGHTED_TERMS)
    return (1.0, *(x for w in weights for x in _spread(w)))


def play(args: tuple[int, str, int]) -> tuple[list[Row], Counter[Carry]]:
    """Positions of deal ``seed`` (one every ``every`` decisions before Election Day), and
    their states against who carried each."""
    seed, spec, every = args
    kind, budget = bots.parse_kind(spec)
    g = engine.new_game(seed)
    taken: list[tuple[int, tuple[float, ...]]] = []
    boards: list[tuple[int, dict[str, tuple[int, int]]]] = []
    n = 0
    while engine.active_sides(g):
        if n % every == 0 and g["turn"] < 9:
            taken.append((int(g["turn"]), inputs(g)))
            lean = evaluation.tilts(g["endorsements"])
            boards.append(
                (
                    int(g["turn"]),
                    {st: (g["states"][st], 1 if lean[st] > 0 else -1) for st in engine.STATES},
                )
            )
        side = sorted(engine.active_sides(g))[0]
        engine.apply_in_place(g, side, bots.choose_command(g, side, kind, budget, seed=n))
        n += 1
    result = g["result"]
    assert result is not None
    won = int(result["winner"] == "kennedy")
    carried = {st: int(owner(g["states"][st]) == "kennedy") for st in engine.STATES}
    carries: Counter[Carry] = Counter(
        (turn, support, lean, engine.STATES[st].ev, carried[st])
        for turn, board in boards
        for st, (support, lean) in board.items()
    )
    return [(turn, x, won) for turn, x in taken], carries


def carry_chance(curve: tuple[float, ...], turn: int, support: int, lean: int, ev: int) -> float:
    """Kennedy's chance of carrying the state under the curve's constants (`CURVE` order), as
    `engine.evaluate.spreads` and `carry_probability` have it."""
    base, per_turn, power, tilt = curve
    spread = evaluation.curve_spread(evaluation.turns_left(turn), ev, base, per_turn, power)
    return evaluation.carry_probability(support, tilt * lean, spread)


def carry_bits(curve: tuple[float, ...], carries: Counter[Carry]) -> float:
    """Log loss of the curve in bits per state, each state weighed by its electoral votes."""
    total = weight = 0.0
    for (turn, support, lean, ev, won), count in carries.items():
        p = min(1 - 1e-9, max(1e-9, carry_chance(curve, turn, support, lean, ev)))
        total -= count * ev * math.log2(p if won else 1.0 - p)
        weight += count * ev
    return total / weight


def fit_curve(carries: Counter[Carry], start: tuple[float, ...]) -> tuple[float, ...]:
    """The curve's constants with the least `carry_bits`, by coordinate search from ``start``."""
    best, loss = tuple(start), carry_bits(start, carries)
    steps = [0.2, 0.1, 0.5, 0.1]  # base, per turn, power, tilt
    while max(steps) > 0.005:
        moved = False
        for i, step in enumerate(steps):
            for sign in (1, -1):
                trial = list(best)
                trial[i] = max(0.0 if i == 2 else 0.05, trial[i] + sign * step)
                trial_loss = carry_bits(tuple(trial), carries)
                if trial_loss < loss - 1e-7:
                    best, loss, moved = tuple(trial), trial_loss, True
        if not moved:
            steps = [x / 2 for x in steps]
    return best


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (a is small and positive definite)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def fit(xs: list[tuple[float, ...]], ys: list[int], ridge: float = 1e-3) -> list[float]:
    """Logistic regression with an intercept (first coefficient), by Newton's method."""
    rows = [(1.0, *x) for x in xs]
    n = len(rows[0])
    beta = [0.0] * n
    for _ in range(25):
        grad = [-ridge * b for b in beta]
        hess = [[ridge * (i == j) for j in range(n)] for i in range(n)]
        for x, y in zip(rows, ys, strict=True):
            p = _sigmoid(sum(b * v for b, v in zip(beta, x, strict=True)))
            w = p * (1.0 - p)
            for i in range(n):
                grad[i] += (y - p) * x[i]
                wi = w * x[i]
                row = hess[i]
                for j in range(i + 1):
                    row[j] += wi * x[j]
        for i in range(n):
            for j in range(i):
                hess[j][i] = hess[i][j]
        step = _solve(hess, grad)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return beta


def _bits(ps: list[float], ys: list[int]) -> float:
    """Mean log loss in bits."""
    eps = 1e-9
    return -sum(
        math.log2(max(eps, p)) if y else math.log2(max(eps, 1.0 - p))
        for p, y in zip(ps, ys, strict=True)
    ) / len(ys)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--player", default="heuristic", help="the player whose games are fitted")
    ap.add_argument("--seed", type=int, default=70000)
    ap.add_argument("--every", type=int, default=10, help="take a position every N decisions")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--smoke", action="store_true", help="12 deals on one core (CI)")
    a = ap.parse_args(argv)
    if a.smoke:
        a.deals, a.workers = 12, 1
    started = time.perf_counter()
    jobs = [(s, a.player, a.every) for s in range(a.seed, a.seed + a.deals)]
    with ProcessPoolExecutor(a.workers) as pool:
        played = list(pool.map(play, jobs, chunksize=8))
    games = [rows for rows, _ in played]
    train = [r for i, g in enumerate(games) if i % 2 == 0 for r in g]
    test = [r for i, g in enumerate(games) if i % 2 == 1 for r in g]
    kennedy = sum(g[0][2] for g in games if g) / len(games)
    print(
        f"{a.player} against itself, deals {a.seed}-{a.seed + a.deals - 1}: Kennedy won "
        f"{100 * kennedy:.1f} %; {len(train)} positions fitted (even deals), {len(test)} "
        f"held out (odd deals), one every {a.every} decisions "
        f"({time.perf_counter() - started:.0f} s)\n"
    )

    print("Per turn: the curve's width in electoral votes (1 / the coefficient of ev)")
    print("| turn | positions | fitted width | today's width |\n| ---: | ---: | ---: | ---: |")
    for turn in range(1, 9):
        rows = [r for r in train if r[0] == turn]
        if len(rows) < 50:
            continue
        beta = fit([r[1] for r in rows], [r[2] for r in rows])
        shown = f"{1 / beta[1]:.0f}" if beta[1] > 0 else "–"
        print(f"| {turn} | {len(rows)} | {shown} | {evaluation.curve_width(turn):.0f} |")

    def scaled(r: Row) -> tuple[float, ...]:
        return tuple(v / evaluation.curve_width(r[0]) for v in r[1])

    def margin(r: Row) -> float:
        """Today's evaluation of the position over today's width."""
        votes = sum(w * v for w, v in zip(today_weights(), r[1], strict=True))
        return votes / evaluation.curve_width(r[0])

    # today's weights, only the width (and an intercept) fitted
    narrow = fit([(margin(r),) for r in train], [r[2] for r in train])
    beta = fit([scaled(r) for r in train], [r[2] for r in train])
    print(
        f"\nPooled over turns 1-8, terms divided by today's width: the fitted width is today's "
        f"times {1 / beta[1]:.2f}; Kennedy's edge (intercept) {beta[0]:+.2f}"
    )
    print("| term | fitted weight (EV) | today's |\n| --- | ---: | ---: |")
    for name, b, w in zip(NAMES[1:], beta[2:], today_weights()[1:], strict=True):
        print(f"| {name} | {b / beta[1]:.1f} | {w:g} |")

    ys = [r[2] for r in test]
    base = sum(r[2] for r in train) / len(train)
    coin = _bits([base] * len(ys), ys)
    today = _bits([_sigmoid(margin(r)) for r in test], ys)
    rewidth = _bits([_sigmoid(narrow[0] + narrow[1] * margin(r)) for r in test], ys)
    fitted = _bits(
        [
            _sigmoid(beta[0] + sum(b * v for b, v in zip(beta[1:], scaled(r), strict=True)))
            for r in test
        ],
        ys,
    )
    print(
        f"\nHeld out ({len(test)} positions of the odd deals), log loss in bits per position:\n"
        f"| model | bits | ratio to today's |\n| --- | ---: | ---: |\n"
        f"| today's `win_probability` (baseline) | {today:.3f} | 1.00 |\n"
        f"| the base rate alone | {coin:.3f} | {coin / today:.2f} |\n"
        f"| today's weights, today's width times {1 / narrow[1]:.2f} (fitted) | {rewidth:.3f} "
        f"| {rewidth / today:.2f} |\n"
        f"| every weight and the width fitted (pooled) | {fitted:.3f} | {fitted / today:.2f} |"
    )
    print_curve([c for _, c in played])
    return 0


def print_curve(carries: list[Counter[Carry]]) -> None:
    """The per-state section: the carry curve fitted to the even deals, judged on the odd."""
    train: Counter[Carry] = Counter()
    test: Counter[Carry] = Counter()
    for i, c in enumerate(carries):
        (train if i % 2 == 0 else test).update(c)
    today = tuple(float(getattr(evaluation, name)) for name in CURVE)
    curve = fit_curve(train, today)
    print(
        "\nPer state: the carry curve (`engine.evaluate.spreads`, `TILT`) fitted to who carried "
        "each state\n| constant | fitted | today's |\n| --- | ---: | ---: |"
    )
    for name, fitted, now in zip(CURVE, curve, today, strict=True):
        print(f"| {name} | {fitted:.2f} | {now:g} |")
    now_bits, fitted_bits = carry_bits(today, test), carry_bits(curve, test)
    print(
        f"\nHeld out, log loss in bits per state (weighed by its electoral votes): today's "
        f"{now_bits:.4f}, fitted {fitted_bits:.4f} (ratio {fitted_bits / now_bits:.2f})"
    )
    lefts = (8, 6, 4, 2, 1)
    print(
        "\nThe spread (cubes of lead for a fairly safe state), fitted / today's, by turns left\n"
        f"| EV | {' | '.join(str(n) for n in lefts)} |\n| ---: |{' ---: |' * len(lefts)}"
    )
    for ev in (3, 5, 10, 20, 32, 45):
        cells = []
        for left in lefts:
            fitted = evaluation.curve_spread(left, ev, *curve[:3])
            now = evaluation.curve_spread(left, ev, *today[:3])
            cells.append(f"{fitted:.1f} / {now:.1f}")
        print(f"| {ev} | {' | '.join(cells)} |")


if __name__ == "__main__":
    raise SystemExit(main())
