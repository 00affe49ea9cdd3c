"""The CPU of the pipeline's ``report`` stage per move, in process, without the mail stack.

    python benchmarks/report_stage.py [--moves 200] [--games 40] [--runs 3] [--digest FILE]

Benchmark 2's workload (bench_mail.py: G games, N move mails answering the server's own
reports, random legal commands, seeded) is made on a scratch SQLite database with fixed
Message-IDs and times, then each run copies the pristine database and feeds every mail to
`pbem.pipeline.runner.process_message` in this process. Timed with `time.process_time`: the
``report`` stage (`pbem.pipeline.stages.report`: rendering, the map picture, the outbox rows)
and the whole of `process_message`, per move; medians over the runs. Nothing is sent.

``--digest FILE`` writes, for every outbox row and stored picture of the last run, a SHA-256 of
every column a player's mail is built from (subject, text, HTML, headers, pictures): run it with
two versions of the code and compare the files to prove the reports are byte for byte the same.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import pickle
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import text
from sqlmodel import Session, col, select

import engine
from pbem.config import Settings
from pbem.games import setup as game_setup
from pbem.mail import MemorySender
from pbem.outbox import send as outbox
from pbem.pipeline.runner import STAGES, process_message
from pbem.store.db import make_engine, migrate
from pbem.store.models import Game

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
OUTBOX_COLUMNS = (
    "message_id, game_id, side, kind, recipient, reply_to, subject, text, html, "
    'in_reply_to, "references", extras'
)


def make(folder: Path, moves: int, games: int) -> tuple[Path, Settings, list[bytes]]:
    """The pristine database (games, welcome mails sent) and the move mails, all seeded."""
    from benchmarks import bench_mail

    ids = random.Random(11)
    bench_mail.uuid = type(
        "U", (), {"uuid4": staticmethod(lambda: uuid.UUID(int=ids.getrandbits(128)))}
    )  # type: ignore[assignment]
    pristine = folder / "pristine.db"
    settings = Settings(
        database_url=f"sqlite:///{pristine}",
        address="game@pbem.test",
        secret="bench-secret-0123456789",
    )
    db = make_engine(settings.database_url)
    migrate(db)
    for i in range(games):
        game_setup.new_game(
            db,
            settings,
            kennedy=f"k{i}@players.test",
            nixon=f"n{i}@players.test",
            edition=engine.EDITIONS[i % 2],
            seed=1000 + i,
        )
    outbox.drain_outbox(db, settings, MemorySender(), limit=10 * games)
    db.dispose()
    scratch = folder / "scratch.db"
    shutil.copy(pristine, scratch)
    sdb = make_engine(f"sqlite:///{scratch}")
    ssettings = settings.with_(database_url=f"sqlite:///{scratch}")
    rnd = random.Random(7)
    mails: list[bytes] = []
    with Session(sdb) as s:
        gids = [g.id for g in s.exec(select(Game).order_by(col(Game.id)))]
    while len(mails) < moves:
        for gid in gids:
            if len(mails) >= moves:
                break
            raw = bench_mail._next_move(sdb, ssettings, gid, rnd)
            out = process_message(
                sdb,
                ssettings,
                raw,
                mailbox="scratch",
                uidvalidity=1,
                uid=len(mails) + 1,
                now=T0 + timedelta(seconds=len(mails)),
            )
            if out.outcome != "applied":
                raise RuntimeError(f"scratch mail not applied: {out}")
            mails.append(raw)
    sdb.dispose()
    return pristine, settings, mails


def load_or_make(folder: Path, moves: int, games: int) -> tuple[Path, Settings, list[bytes]]:
    """`make`, or the workload an earlier run kept in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    saved = folder / "mails.pickle"
    if saved.exists():
        pristine, settings, mails = pickle.loads(saved.read_bytes())
        return Path(pristine), Settings(**settings), mails
    pristine, settings, mails = make(folder, moves, games)
    kept = {k: getattr(settings, k) for k in ("database_url", "address", "secret")}
    saved.write_bytes(pickle.dumps((str(pristine), kept, mails)))
    return pristine, settings, mails


def one_run(folder: Path, pristine: Path, settings: Settings, mails: list[bytes]) -> dict[str, Any]:
    """Every mail through `process_message`."""
    run_db = folder / "run.db"
    shutil.copy(pristine, run_db)
    rsettings = settings.with_(database_url=f"sqlite:///{run_db}")
    db = make_engine(rsettings.database_url)
    spent = [0.0]
    (h,) = [stage for stage in STAGES if stage.name == "report"]

    def timed(ctx: Any) -> None:
        t = time.process_time()
        try:
            h.process(ctx)
        finally:
            spent[0] += time.process_time() - t

    stages = tuple(dataclasses.replace(s, process=timed) if s is h else s for s in STAGES)
    total = 0.0
    for i, raw in enumerate(mails):
        t = time.process_time()
        out = process_message(
            db,
            rsettings,
            raw,
            mailbox="INBOX",
            uidvalidity=1,
            uid=i + 1,
            now=T0 + timedelta(seconds=i),
            pipeline=stages,
        )
        total += time.process_time() - t
        if out.outcome != "applied":
            raise RuntimeError(f"mail {i} not applied: {out}")
    return {"report": spent[0] / len(mails), "total": total / len(mails), "db": db}


def digest(db: Any) -> list[str]:
    """A hash per outbox row of the mail it sends and per stored picture."""
    out = []
    pictures: dict[str, tuple[Any, ...]] = {}
    with db.connect() as c:
        query = f"SELECT {OUTBOX_COLUMNS} FROM outboxmessage ORDER BY id"
        for row in c.execute(text(query)):
            values = tuple(row[:12])
            out.append(hashlib.sha256(repr(values).encode()).hexdigest() + f" {row[0]}")
        query = "SELECT cid, content_type, filename, data FROM mailimage"
        for row in c.execute(text(query)):  # not created_at: the wall clock
            pictures[row[0]] = tuple(row)
    for cid in sorted(pictures):
        out.append(hashlib.sha256(repr(pictures[cid]).encode()).hexdigest() + f" {cid}")
    return out


def ms(xs: list[float]) -> str:
    """``median ms (min–max)``."""
    return f"{statistics.median(xs) * 1e3:.2f} ms ({min(xs) * 1e3:.2f}–{max(xs) * 1e3:.2f})"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--warmup", type=int, default=1, help="untimed runs first (templates compiled, caches)"
    )
    ap.add_argument("--digest", type=Path, help="write the outbox digest of the last run here")
    ap.add_argument(
        "--workload",
        type=Path,
        help="keep the workload in this folder (made if empty, else reused: seat keys are random,"
        " so two versions of the code are compared on one saved workload)",
    )
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pbem-report-stage-") as tmp:
        folder = Path(tmp)
        pristine, settings, mails = load_or_make(a.workload or folder, a.moves, a.games)
        report, total = [], []
        for _ in range(a.warmup):
            one_run(folder, pristine, settings, mails)["db"].dispose()
        for _ in range(a.runs):
            r = one_run(folder, pristine, settings, mails)
            report.append(r["report"])
            total.append(r["total"])
            if a.digest is not None:
                lines = digest(r["db"])
                a.digest.write_text("\n".join(lines) + "\n")
            r["db"].dispose()
    print(f"{len(mails)} moves over {a.games} games, {a.runs} runs; CPU per move (process_time)")
    print(f"report stage:     {ms(report)}")
    print(f"process_message:  {ms(total)}")


if __name__ == "__main__":
    main()
