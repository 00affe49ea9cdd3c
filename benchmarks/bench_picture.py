"""The map picture's CPU, before and after a change: what a report draws, on seeded boards.

    python benchmarks/bench_picture.py [--baseline REF] [--runs 5] [--games 40] [--moves 200]

The workload is benchmark 2's: G seeded games played round robin, N moves in all, and after each
move the picture of both seats' reports as `pbem.reports.render` makes it
(``report_pictures(view)``: the map as its two halves), in a fresh process. Each run is a
child process timing every report's picture with ``time.process_time``; runs alternate between
this checkout and the baseline (``git archive REF`` unpacked in a temporary folder; default
``main``), so both see the same machine load. Printed per code: the median and mean CPU of a
report's picture, the whole workload's CPU, the PNG bytes of both halves (mean), and the ratio
of the means.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child(games: int, moves: int) -> None:
    """One timed run in this process: prints a JSON line of figures."""
    sys.path.insert(0, str(Path.cwd()))
    import engine
    from pbem.reports import boardmap

    rnd = random.Random(7)
    states = [engine.new_game(1000 + i) for i in range(games)]
    views = []
    while len(views) < moves:
        for g in states:
            if len(views) >= moves or not engine.active_sides(g):
                continue
            side = rnd.choice(sorted(engine.active_sides(g)))
            engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
            views.append([engine.view(g, s) for s in engine.SIDES])
    calls: list[float] = []
    sizes: list[int] = []
    pictures = getattr(boardmap, "report_pictures", None) or (  # REV before report_pictures
        lambda v: boardmap.halves(boardmap.picture(v))  # type: ignore[attr-defined]
    )
    total = time.process_time()
    for pair in views:
        for v in pair:
            t = time.process_time()
            west, east = pictures(v)
            calls.append(time.process_time() - t)
            sizes.append(len(west.png) + len(east.png))
    total = time.process_time() - total
    print(
        json.dumps(
            {
                "call_ms": 1e3 * statistics.median(calls),
                "mean_ms": 1e3 * statistics.fmean(calls),
                "total_s": total,
                "calls": len(calls),
                "bytes": statistics.fmean(sizes),
            }
        )
    )


def _run(folder: Path, games: int, moves: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", str(games), str(moves)],
        cwd=folder,
        check=True,
        capture_output=True,
        text=True,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--baseline", default="main", help="git ref to compare with (default main)")
    ap.add_argument("--runs", type=int, default=5, help="runs of each code, alternating")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--child", nargs=2, type=int, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        child(*a.child)
        return
    with tempfile.TemporaryDirectory(prefix="pbem-bench-picture-") as tmp:
        base = Path(tmp)
        archive = subprocess.run(
            ["git", "archive", a.baseline], cwd=ROOT, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        results: dict[str, list[dict[str, float]]] = {"baseline": [], "this": []}
        for _ in range(a.runs):
            results["baseline"].append(_run(base, a.games, a.moves))
            results["this"].append(_run(ROOT, a.games, a.moves))
    print(f"{a.moves} moves over {a.games} games, {a.runs} alternating runs, medians (CPU)")
    print(
        f"{'code':<22}{'per report ms':>14}{'mean ms':>10}{'all s':>8}{'calls':>7}{'PNG bytes':>11}"
    )
    med = {}
    for name, rows in (("baseline " + a.baseline, results["baseline"]), ("this", results["this"])):
        med[name] = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
        m = med[name]
        print(
            f"{name:<22}{m['call_ms']:>14.2f}{m['mean_ms']:>10.2f}{m['total_s']:>8.3f}"
            f"{m['calls']:>7.0f}{m['bytes']:>11.0f}"
        )
    ratio = med["this"]["mean_ms"] / med["baseline " + a.baseline]["mean_ms"]
    print(f"mean per report, this / baseline: {ratio:.2f}")


if __name__ == "__main__":
    main()
