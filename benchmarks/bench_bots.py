"""Benchmark 5: the computer players' strength and decision time (issue 16).

    python benchmarks/bench_bots.py [--games 200] [--editions zman,gmt] [--workers 2] A B [A B ...]

Plays ``pbem tournament`` between each pair (A and B take each side alternately, games in
parallel processes) and prints its table: wins with 95 % Wilson intervals, wins per side,
mean electoral votes, decision time median / p95. The baseline is the other player of the
pair, in the same run. ``--smoke`` plays 2 games of heuristic vs random and of a small
search against the heuristic: a check that it still works, never a timing assertion.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots import tournament


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("players", nargs="*", help="pairs of player specs, e.g. heuristic random")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--editions", default="zman,gmt")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--smoke", action="store_true", help="tiny sizes (CI)")
    a = ap.parse_args(argv)
    players = a.players or ["heuristic", "random", "search:0.5", "heuristic"]
    if a.smoke:
        players, a.games = ["heuristic", "random", "search:2i", "heuristic"], 2
    if len(players) % 2:
        ap.error("players come in pairs: A B [A B ...]")
    for i in range(0, len(players), 2):
        for edition in a.editions.split(","):
            started = time.perf_counter()
            records = tournament.run(players[i], players[i + 1], games=a.games, edition=edition,
                                     workers=a.workers, seed=a.seed)
            t = tournament.summarise(records, players[i], players[i + 1], time.perf_counter() - started)
            print(tournament.format_table(t), flush=True)
            print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
