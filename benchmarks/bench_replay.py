"""Benchmark 4 — replay: rebuilding a finished game from its move log vs loading its snapshot.

    python benchmarks/bench_replay.py [--games 10] [--runs 5] [--smoke]

For finished random games (both editions): the engine alone (``new_game`` + ``apply_in_place``
over the moves vs ``from_json`` of the snapshot), and the server (`pbem.worker.intake.replay`, which
reads the move rows and rebuilds and compares, vs reading the game row and ``from_json``) on a
SQLite database holding those games. Reported: the medians and replay ÷ snapshot load.
Target (issue 6): replay <= 2 × snapshot load for a full game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlmodel import Session

import engine
from benchmarks.common import Row, print_table, random_game
from pbem.config import Settings
from pbem.games import setup as game_setup
from pbem.games import views as game_views
from pbem.store.db import make_engine, migrate, transaction
from pbem.store.models import Game, Move


def engine_rows(games: int, runs: int) -> list[Row]:
    played = [(s, e, *random_game(s, e)) for s in range(games) for e in engine.EDITIONS]
    snaps = [(engine.to_json(g), s, e, moves) for s, e, g, moves in played]
    rebuild: list[float] = []
    load: list[float] = []
    for _ in range(runs):
        for text, seed, edition, moves in snaps:
            t0 = time.perf_counter()
            g = engine.new_game(seed, edition=edition)
            for side, cmd in moves:
                engine.apply_in_place(g, side, cmd)
            t1 = time.perf_counter()
            snap = engine.from_json(text)
            t2 = time.perf_counter()
            assert g == snap, "replay differs from the snapshot"
            rebuild.append(t1 - t0)
            load.append(t2 - t1)
    n = len(snaps)
    moves_avg = statistics.mean(len(m) for *_, m in snaps)
    r = statistics.median(rebuild) / statistics.median(load)
    return [
        Row(
            f"engine: replay a full game ({moves_avg:.0f} moves avg)",
            n,
            "s",
            rebuild,
            f"{r:.1f} × snapshot load (target ≤ 2)",
        ),
        Row("engine: snapshot load (from_json)", n, "s", load, "1.00 (baseline)"),
    ]


def server_rows(folder: Path, games: int, runs: int) -> list[Row]:
    settings = Settings(
        database_url=f"sqlite:///{folder}/replay.db",
        address="game@example.test",
        secret="bench-secret-0123456789",
    )
    db = make_engine(settings.database_url)
    migrate(db)
    ids = []
    for seed in range(games):
        g, moves = random_game(seed, "zman")
        gid = game_setup.new_game(
            db, settings, kennedy=f"k{seed}@example.test", nixon=f"n{seed}@example.test", seed=seed
        )
        with transaction(db) as s:
            game = s.get(Game, gid)
            assert game is not None
            game.snapshot = engine.to_json(g)
            game.status = "over"
            s.add(game)
            for i, (side, cmd) in enumerate(moves, 1):
                s.add(Move(game_id=gid, seq=i, side=side, command=cmd))
        ids.append(gid)
    rebuild: list[float] = []
    load: list[float] = []
    for _ in range(runs):
        for gid in ids:
            t0 = time.perf_counter()
            report = game_views.replay(db, gid)
            t1 = time.perf_counter()
            with Session(db) as s:
                game = s.get(Game, gid)
                assert game is not None
                engine.from_json(game.snapshot)
            t2 = time.perf_counter()
            assert report.ok, report.problem
            rebuild.append(t1 - t0)
            load.append(t2 - t1)
    db.dispose()
    r = statistics.median(rebuild) / statistics.median(load)
    return [
        Row(
            "server: pbem replay (rows + rebuild + compare)",
            len(ids),
            "s",
            rebuild,
            f"{r:.1f} × snapshot load (target ≤ 2)",
        ),
        Row("server: load the snapshot (row + from_json)", len(ids), "s", load, "1.00 (baseline)"),
    ]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=10, help="finished games per edition")
    ap.add_argument("--runs", type=int, default=5, help="timing runs (median reported)")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, for CI")
    a = ap.parse_args(argv)
    games, runs = (1, 1) if a.smoke else (a.games, a.runs)
    rows = engine_rows(games, runs)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-replay-") as tmp:
        rows += server_rows(Path(tmp), games, runs)
    print_table("Replay from the move log vs snapshot load", rows)


if __name__ == "__main__":
    main()
