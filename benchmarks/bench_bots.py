"""Benchmark 5: the computer players' strength and decision time (issue 16).

    python benchmarks/bench_bots.py [--games 200] [--editions zman,gmt] [--workers 2] A B [A B ...]

Plays ``pbem tournament`` between each pair (A and B take each side alternately, games in
parallel processes) and prints its table: wins with 95 % Wilson intervals, wins per side,
mean electoral votes, decision time median / p95. The baseline is the other player of the
pair, in the same run. ``--smoke`` plays 2 games of heuristic vs random and of a small
search against the heuristic: a check that it still works, never a timing assertion.

A search spec may name a variant with one piece of the search off or changed
(`bots.ismcts.VARIANTS`, each described in that module: ``search:60i:flat`` is the earlier
flat search), to measure what each piece adds against the full search at the same playouts.

A budget in seconds buys fewer playouts on a busy machine, so the table also gives the
search's playouts per searched decision. ``--calibrate [--games 2] [search:60i[:VARIANT]]``
says what a budget is worth on an idle core: it times searched decisions at the positions of
heuristic-vs-heuristic games in CPU time (`time.process_time`, which other processes on the
machine hardly change) and prints playouts per CPU second and the playouts that 0.1, 0.5
and 2 s of one idle core buy.

``--regret A [B ...]`` measures how well each search spec finds the best command under the
search's own model (its horizon and `engine.evaluate.win_probability`), without playing
games: at ``--positions`` searched decisions sampled from heuristic games, each of the
heuristic's best ``--top`` commands (and any other a spec chooses) is searched alone for
``--reference`` playouts under that spec's horizon, which gives its value; a spec's regret at
a position is the best value less the value of the command it chose (in win probability, over
``--repeats`` seeds).
The first spec is the baseline; the table gives each spec's mean regret, its ratio to the
baseline's, how often it chose the best command and at how many positions it chose the same
command on every seed (what its own noise leaves to chance). ``--seed`` picks the heuristic
games the positions come from. It takes minutes where a match takes hours (about a quarter
of an hour on two idle cores at its defaults), so it is the place to compare the search's
constants; it cannot judge the model itself (the horizon, the evaluation), which only games
can, and a different sample of positions can rank two close settings differently. What it
can say of a model is how much room it leaves between a small budget and a large one.

``--weights NAME=VALUE [...] [--player heuristic] [--deals 1000]`` measures a change to
`engine.evaluate`'s weights (the names in `engine.evaluate.WEIGHTED_TERMS`,
``ISSUE_POSITION=A,B,C`` three numbers; ``SCALE_BASE`` and ``SCALE_PER_TURN``, the width of
`win_probability`'s curve, which only the search reads; the names in
`engine.evaluate.CARRY_CURVE`, each state's carry curve) by self-play: the player thinking
with the changed weights (A) against the same player with today's (B), each deal from
``--seed`` on played twice with the sides swapped. B is the baseline in the same run: two
identical players split every deal, so anything but 50 % is the change. The heuristic plays
a game in about a tenth of a second, so 2,000 games take a few minutes of a core; a search
spec (``--player search:300i``) measures what the search makes of the change.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bots
import engine
from bots import search, tournament
from bots.heuristic import Heuristic
from bots.ismcts import VARIANTS, Config, Tree
from engine import evaluate as evaluation
from engine.determinize import determinize, sampler


def calibrate(games: int, budget: search.Budget) -> None:
    """Playouts per CPU second of the search at the decisions it searches (see the docstring)."""
    assert budget.iterations is not None
    rates: list[float] = []
    for game in range(games):
        g = engine.new_game(900 + game)
        n = 0
        while engine.active_sides(g):
            side = sorted(engine.active_sides(g))[0]
            legal = engine.legal_commands(g, side)
            if search.searches(g, legal) and n % 3 == 0:
                started = time.process_time()
                d = search.decide(g, side, budget, seed=n)
                cpu = time.process_time() - started
                if d.playouts:
                    rates.append(d.playouts / cpu)
            engine.apply_in_place(g, side, bots.choose_command(g, side, "heuristic", seed=n))
            n += 1
    rate = sorted(rates)[len(rates) // 2]
    lo, hi = tournament.percentile(rates, 0.1), tournament.percentile(rates, 0.9)
    print(
        f"search calibration: {len(rates)} searched decisions ({budget.iterations} playouts each"
        f"{', ' + budget.variant if budget.variant else ''}) in "
        f"{games} heuristic games: median {rate:.0f} playouts per CPU second "
        f"(10th-90th percentile {lo:.0f}-{hi:.0f})"
    )
    print(
        "an idle core buys about "
        + ", ".join(f"{rate * s:.0f} playouts in {s} s" for s in (0.1, 0.5, 2.0))
    )


def searched_positions(games: int, per_game: int, seed: int) -> list[tuple[engine.GameState, str]]:
    """``per_game`` decisions the search would search (more than one legal command, not a
    point-spending step), drawn at random from each of ``games`` heuristic games."""
    out: list[tuple[engine.GameState, str]] = []
    for game in range(games):
        g = engine.new_game(seed + game)
        found: list[tuple[engine.GameState, str]] = []
        n = 0
        while engine.active_sides(g):
            side = sorted(engine.active_sides(g))[0]
            legal = engine.legal_commands(g, side)
            if search.searches(g, legal):
                found.append((engine.copy_state(g), side))
            engine.apply_in_place(g, side, bots.choose_command(g, side, "heuristic", seed=n))
            n += 1
        out += random.Random(seed * 7919 + game).sample(found, min(per_game, len(found)))
    return out


def command_value(args: tuple[engine.GameState, str, str, int, int, Config]) -> float:
    """The value of ``cmd`` for ``side`` under ``config``'s model: ``cmd`` searched alone (a
    tree with that one root command) for ``iterations`` playouts; the root child's mean."""
    state, side, cmd, iterations, seed, config = args
    tree = Tree(state, side, [cmd], random.Random(seed), sampler(seed), config)
    tree.run(iterations, None)
    child = tree.root.children[(side, cmd)]
    return child.total / child.visits


def heuristic_top(state: engine.GameState, side: str, top: int, seed: int) -> list[str]:
    legal = engine.legal_commands(state, side)
    rnd = random.Random(seed)
    ranked = Heuristic(rnd).ranked(determinize(state, side, sampler(seed)), side, legal)
    return [c for _, c in ranked[:top]]


def search_choice(args: tuple[engine.GameState, str, str, int]) -> str:
    state, side, spec, seed = args
    kind, budget = bots.parse_kind(spec)
    return bots.decide(state, side, kind, budget, seed=seed).command


def regret(
    specs: list[str],
    positions: int,
    top: int,
    reference: int,
    repeats: int,
    workers: int,
    seed: int,
) -> None:
    """Each spec's regret at sampled positions under the search's own model (see the docstring)."""
    models: dict[str, Config] = {}
    for spec in specs:
        kind, budget = bots.parse_kind(spec)
        if kind != "search" or budget is None or budget.iterations is None:
            raise SystemExit(f"--regret compares searches with a budget in playouts, not {spec!r}")
        models[spec] = VARIANTS[budget.variant].model()
    started = time.perf_counter()
    ps = searched_positions(max(1, positions // 2), 2, seed)[:positions]
    values: dict[Config, list[dict[str, float]]] = {m: [{} for _ in ps] for m in models.values()}
    with ProcessPoolExecutor(workers) as pool:

        def evaluate(m: Config, wanted: list[tuple[int, str]]) -> None:
            jobs = [(ps[i][0], ps[i][1], cmd, reference, 5000 + i, m) for i, cmd in wanted]
            for (i, cmd), v in zip(wanted, pool.map(command_value, jobs, chunksize=4), strict=True):
                values[m][i][cmd] = v

        tops = [heuristic_top(s, side, top, i) for i, (s, side) in enumerate(ps)]
        for m in values:
            evaluate(m, [(i, c) for i in range(len(ps)) for c in tops[i]])
        jobs = [(s, side, spec, 77 + r) for spec in specs for r in range(repeats) for s, side in ps]
        chosen = list(pool.map(search_choice, jobs, chunksize=4))
        where = [(i % len(ps), cmd) for i, cmd in enumerate(chosen)]
        n = len(ps) * repeats
        for k, spec in enumerate(specs):
            m = models[spec]
            mine = {(i, c) for i, c in where[k * n : (k + 1) * n] if c not in values[m][i]}
            evaluate(m, sorted(mine))
    print(
        f"search regret: {len(ps)} searched decisions of heuristic games (seed {seed}) x "
        f"{repeats} seeds; "
        f"values: the heuristic's best {top} commands and every command chosen, each searched "
        f"alone for {reference} playouts ({time.perf_counter() - started:.0f} s)"
    )
    seeds = repeats > 1  # a column for the choices alike on every seed
    head = "| search | mean regret (win probability) [95 % CI] | ratio to the first | best chosen |"
    print(head + (f" the same on all {repeats} seeds |" if seeds else ""))
    print("| --- | --- | ---: | ---: |" + (" ---: |" if seeds else ""))
    base = 0.0
    for k, spec in enumerate(specs):
        regrets = []
        v = values[models[spec]]
        for i, cmd in where[k * n : (k + 1) * n]:
            regrets.append(max(v[i].values()) - v[i][cmd])
        mean = sum(regrets) / n
        half = 1.96 * math.sqrt(sum((r - mean) ** 2 for r in regrets) / max(1, n - 1) / n)
        if k == 0:
            base = mean
        best = sum(r == 0.0 for r in regrets)
        same = alike(chosen[k * n : (k + 1) * n], len(ps))
        print(
            f"| `{spec}` | {mean:.4f} [{max(0.0, mean - half):.4f}, {mean + half:.4f}] | "
            f"{f'{mean / base:.2f}' if base else '–'} | {best}/{n} = {100 * best / n:.0f} % |"
            + (f" {same}/{len(ps)} = {100 * same / len(ps):.0f} % |" if seeds else "")
        )


def alike(chosen: list[str], positions: int) -> int:
    """At how many of ``positions`` a search chose the same command on every seed (``chosen``:
    seed by seed, each over every position)."""
    seeds = len(chosen) // positions
    return sum(
        len({chosen[r * positions + i] for r in range(seeds)}) == 1 for i in range(positions)
    )


# the evaluation's weights, the width of `win_probability`'s curve (only the search reads it)
# and the states' carry curve
WEIGHTS = (
    *evaluation.WEIGHTED_TERMS,
    "SCALE_BASE",
    "SCALE_PER_TURN",
    *evaluation.CARRY_CURVE,
)
Weight = float | tuple[float, ...]


def parse_weights(items: list[str]) -> dict[str, Weight]:
    """``NAME=VALUE`` items as `engine.evaluate` weights; SystemExit naming what is wrong."""
    out: dict[str, Weight] = {}
    for item in items:
        name, eq, value = item.partition("=")
        name = name.strip().upper()
        if not eq or name not in WEIGHTS:
            raise SystemExit(
                f"--weights: {item!r} is not NAME=VALUE with NAME one of {', '.join(WEIGHTS)}"
            )
        current = getattr(evaluation, name)
        try:
            numbers = tuple(float(v) for v in value.split(","))
        except ValueError:
            raise SystemExit(f"--weights: {item!r}: {value!r} is not a number") from None
        if isinstance(current, tuple):
            if len(numbers) != len(current):
                raise SystemExit(
                    f"--weights: {name} takes {len(current)} numbers, like "
                    + _weight_text(name, current)
                )
            out[name] = numbers
        elif len(numbers) != 1:
            raise SystemExit(
                f"--weights: {name} takes one number, like {_weight_text(name, current)}"
            )
        else:
            out[name] = numbers[0]
    return out


@contextmanager
def weighted(changes: dict[str, Weight]) -> Iterator[None]:
    """`engine.evaluate` thinks with ``changes`` inside the block, with its own weights after."""
    saved = {name: getattr(evaluation, name) for name in changes}
    try:
        for name, value in changes.items():
            setattr(evaluation, name, value)
        yield
    finally:
        for name, value in saved.items():
            setattr(evaluation, name, value)


def weights_game(args: tuple[int, str, str, dict[str, Weight]]) -> str:
    """The winner of deal ``seed`` where ``a_side`` thinks with ``changes``, the other side not."""
    seed, a_side, spec, changes = args
    kind, budget = bots.parse_kind(spec)
    g = engine.new_game(seed)
    n = 0
    while engine.active_sides(g):
        side = sorted(engine.active_sides(g))[0]
        with weighted(changes if side == a_side else {}):
            cmd = bots.choose_command(g, side, kind, budget, seed=seed * 1000 + n)
        engine.apply_in_place(g, side, cmd)
        n += 1
    result = g["result"]
    assert result is not None
    return str(result["winner"])


def _weight_text(name: str, value: Weight) -> str:
    """``NAME=VALUE`` as `parse_weights` reads it."""
    numbers = value if isinstance(value, tuple) else (value,)
    return f"{name}=" + ",".join(f"{v:g}" for v in numbers)


def weights_ab(changes: dict[str, Weight], spec: str, deals: int, workers: int, seed: int) -> None:
    """A (``spec`` with ``changes``) against B (``spec`` as it is), each deal twice."""
    started = time.perf_counter()
    jobs = [
        (s, a_side, spec, changes)
        for s in range(seed, seed + deals)
        for a_side in ("kennedy", "nixon")
    ]
    with ProcessPoolExecutor(workers) as pool:
        winners = list(pool.map(weights_game, jobs, chunksize=8))
    won = {
        side: sum(w == side for (_, a, _, _), w in zip(jobs, winners, strict=True) if a == side)
        for side in ("kennedy", "nixon")
    }
    wins, games = won["kennedy"] + won["nixon"], len(jobs)
    lo, hi = tournament.wilson(wins, games)
    change = " ".join(_weight_text(k, v) for k, v in changes.items())
    today = " ".join(_weight_text(k, getattr(evaluation, k)) for k in changes)
    print(
        f"evaluation weights: {spec} with {change} (A) against {spec} with {today} (B), "
        f"deals {seed}-{seed + deals - 1} each played twice, sides swapped "
        f"({time.perf_counter() - started:.0f} s)"
    )
    print(
        f"A won {wins}/{games} = {100 * wins / games:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]; "
        f"as Kennedy {won['kennedy']}/{deals}, as Nixon {won['nixon']}/{deals}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("players", nargs="*", help="pairs of player specs, e.g. heuristic random")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--editions", default="zman,gmt")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--smoke", action="store_true", help="tiny sizes (CI)")
    ap.add_argument(
        "--calibrate",
        action="store_true",
        help="playouts per CPU second of the search (what a budget in seconds buys)",
    )
    ap.add_argument(
        "--regret",
        action="store_true",
        help="each search's regret at sampled positions under its own model (no games played)",
    )
    ap.add_argument("--positions", type=int, default=120, help="--regret: decisions sampled")
    ap.add_argument("--top", type=int, default=20, help="--regret: commands valued per decision")
    ap.add_argument("--reference", type=int, default=400, help="--regret: playouts per value")
    ap.add_argument("--repeats", type=int, default=2, help="--regret: seeds per search")
    ap.add_argument(
        "--weights",
        nargs="+",
        metavar="NAME=VALUE",
        help="self-play: the player with these engine.evaluate weights against today's",
    )
    ap.add_argument("--player", default="heuristic", help="--weights: the player (a spec)")
    ap.add_argument("--deals", type=int, default=1000, help="--weights: deals, each played twice")
    a = ap.parse_args(argv)
    if a.smoke:  # tiny sizes: a calibration, the regret of two small searches, the games below
        calibrate(1, search.Budget(iterations=4, variant="deep"))
        regret(["search:10i", "search:20i:deep"], 4, 3, 10, 1, a.workers, a.seed)
        if a.regret:
            return 0
    if a.weights:
        weights_ab(parse_weights(a.weights), a.player, a.deals, a.workers, a.seed)
        return 0
    if a.regret:
        specs = a.players or ["search:300i", "search:1200i"]
        regret(specs, a.positions, a.top, a.reference, a.repeats, a.workers, a.seed)
        return 0
    if a.calibrate:
        kind, budget = bots.parse_kind(a.players[0] if a.players else "search:60i")
        if kind != "search" or budget is None or budget.iterations is None:
            ap.error("--calibrate times a search with a budget in playouts, e.g. search:60i:deep")
        calibrate(a.games if a.games != 200 else 2, budget)
        return 0
    players = a.players or ["heuristic", "random", "search:0.5", "heuristic"]
    if a.smoke:
        players, a.games = ["heuristic", "random", "search:2i", "heuristic"], 2
    if len(players) % 2:
        ap.error("players come in pairs: A B [A B ...]")
    for i in range(0, len(players), 2):
        for edition in a.editions.split(","):
            started = time.perf_counter()
            records = tournament.run(
                players[i],
                players[i + 1],
                games=a.games,
                edition=edition,
                workers=a.workers,
                seed=a.seed,
            )
            t = tournament.summarise(
                records, players[i], players[i + 1], time.perf_counter() - started
            )
            print(tournament.format_table(t), flush=True)
            print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
