"""Benchmark 5: the computer players' strength and decision time (issue 16).

    python benchmarks/bench_bots.py [--games 200] [--editions zman,gmt] [--workers 2] A B [A B ...]

Plays ``pbem tournament`` between each pair (A and B take each side alternately, games in
parallel processes) and prints its table: wins with 95 % Wilson intervals, wins per side,
mean electoral votes, decision time median / p95. The baseline is the other player of the
pair, in the same run. ``--smoke`` plays 2 games of heuristic vs random and of a small
search against the heuristic: a check that it still works, never a timing assertion.

A search spec may name a variant with one piece of the search off (`bots.ismcts.VARIANTS`:
``search:60i:flat`` is the earlier flat search, ``notree``, ``noprior``, ``nowiden``,
``puct``), to measure what each piece adds against the full search at the same playouts.

A budget in seconds buys fewer playouts on a busy machine, so the table also gives the
search's playouts per searched decision. ``--calibrate [--games 2]`` says what a budget is
worth on an idle core: it times searched decisions (``search:Ni``) at the positions of
heuristic-vs-heuristic games in CPU time (`time.process_time`, which other processes on the
machine hardly change) and prints playouts per CPU second and the playouts that 0.1, 0.5
and 2 s of one idle core buy.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bots
import engine
from bots import search, tournament
from bots.heuristic import POINT_STEPS


def calibrate(games: int, iterations: int = 60) -> None:
    """Playouts per CPU second of the search at the decisions it searches (see the docstring)."""
    rates: list[float] = []
    for game in range(games):
        g = engine.new_game(900 + game)
        n = 0
        while engine.active_sides(g):
            side = sorted(engine.active_sides(g))[0]
            legal = engine.legal_commands(g, side)
            if len(legal) > 1 and g["stack"][-1]["step"] not in POINT_STEPS and n % 3 == 0:
                started = time.process_time()
                d = search.decide(g, side, search.Budget(iterations=iterations), seed=n)
                cpu = time.process_time() - started
                if d.playouts:
                    rates.append(d.playouts / cpu)
            engine.apply_in_place(g, side, bots.choose_command(g, side, "heuristic", seed=n))
            n += 1
    rate = sorted(rates)[len(rates) // 2]
    lo, hi = tournament.percentile(rates, 0.1), tournament.percentile(rates, 0.9)
    print(
        f"search calibration: {len(rates)} searched decisions ({iterations} playouts each) in "
        f"{games} heuristic games: median {rate:.0f} playouts per CPU second "
        f"(10th-90th percentile {lo:.0f}-{hi:.0f})"
    )
    print(
        "an idle core buys about "
        + ", ".join(f"{rate * s:.0f} playouts in {s} s" for s in (0.1, 0.5, 2.0))
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
    a = ap.parse_args(argv)
    if a.calibrate:
        calibrate(games=a.games if a.games != 200 else 2)
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
