"""Benchmark 7 — scale-out: 1, 2 and 4 `pbem poll` workers sharing one PostgreSQL and one mailbox.

    python benchmarks/bench_scaleout.py [--moves 300] [--games 60] [--workers 1,2,4] [--runs 3] [--smoke]

The backlog: N move mails over G games (as benchmark 2) wait in the game's INBOX on the real
Dovecot + Postfix stack; every run starts from a copy of the same pristine PostgreSQL database
(``CREATE DATABASE … TEMPLATE``). K workers — each a loop running `pbem poll` back to back, as
K machines with cron would, each with its own lock file — start together; timed until every
mail is applied and every report sent. Checked after each run: N applied, every outbox row
sent with one attempt (no report sent twice). Baseline in the same run: the wire limit (a bare
imapclient fetch of the N mails + aiosmtplib sending the same reports on one session).

What it shows is the design (docs/OPERATING.md, "Several workers on one PostgreSQL"): one
worker at a time leads the IMAP fetch (advisory lock) and hands each mail over in the database
(`pbem.worker.handover`); every worker applies the queued mail game by game under a per-game advisory
lock, and sends claimed outbox rows (FOR UPDATE SKIP LOCKED). Needs the mail stack (MAILSTACK_*
or root) and PostgreSQL (PBEM_TEST_POSTGRES_URL or root); says "skipped" without them.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func
from sqlmodel import Session, col, select

import engine
from benchmarks.bench_mail import _next_move, fill, run_wire
from benchmarks.common import Row, print_table
from benchmarks.cpu import machine_busy
from benchmarks.mailenv import NoMailStack, mail_stack
from benchmarks.pgenv import NoPostgres, create_database, drop_database, fresh_database, postgres
from pbem.games import setup as game_setup
from pbem.mail import MemorySender
from pbem.outbox import compose
from pbem.outbox import parts as mailimages
from pbem.outbox import send as outbox
from pbem.pipeline.runner import process_message
from pbem.store.db import make_engine, migrate
from pbem.store.models import Game, InboundMessage, OutboxMessage, Quarantine
from tests.pbem.mailtools import MailServer

APPLIED = re.compile(r"(\d+) applied")  # in `pbem poll`'s "in: …" line


class Backlog:
    """The pristine database (a template), the N mails and the reports the server sends."""

    def __init__(self, server: MailServer, pg: str, moves: int, games: int) -> None:
        self.address = server.fresh_address("scale")
        self.pristine = create_database(pg)
        self.settings = server.game_settings(self.pristine, "bench-secret-0123456789", self.address)
        db = make_engine(self.pristine)
        migrate(db)
        for i in range(games):
            game_setup.new_game(
                db,
                self.settings,
                kennedy=server.fresh_address(f"k{i}"),
                nixon=server.fresh_address(f"n{i}"),
                edition=engine.EDITIONS[i % 2],
                seed=2000 + i,
            )
        outbox.drain_outbox(db, self.settings, MemorySender(), limit=10 * games)
        db.dispose()
        with fresh_database(pg, self.pristine) as scratch:
            sdb = make_engine(scratch)
            ssettings = self.settings.with_(database_url=scratch)
            rnd = random.Random(11)
            with Session(sdb) as s:
                ids = [g.id for g in s.exec(select(Game).order_by(col(Game.id)))]
            self.mails: list[bytes] = []
            while len(self.mails) < moves:
                for gid in ids[: moves - len(self.mails)]:
                    raw = _next_move(sdb, ssettings, gid, rnd)
                    out = process_message(
                        sdb,
                        ssettings,
                        raw,
                        mailbox="scratch",
                        uidvalidity=1,
                        uid=len(self.mails) + 1,
                    )
                    if out.outcome != "applied":
                        raise RuntimeError(f"scratch mail not applied: {out}")
                    self.mails.append(raw)
            with Session(sdb) as s:
                rows = s.exec(
                    select(OutboxMessage)
                    .where(OutboxMessage.status == "pending")
                    .order_by(col(OutboxMessage.id))
                ).all()
                images = mailimages.load(s, (r.html for r in rows))
                self.replies = [
                    (r.recipient, compose.raw_message(ssettings, r, images)) for r in rows
                ]
            sdb.dispose()

    def env(self, db_url: str, lock: Path) -> dict[str, str]:
        s = self.settings
        return {
            **os.environ,
            "PBEM_DATABASE_URL": db_url,
            "PBEM_ADDRESS": s.address,
            "PBEM_IMAP_HOST": s.imap_host,
            "PBEM_IMAP_PORT": str(s.imap_port),
            "PBEM_IMAP_USER": s.imap_user,
            "PBEM_IMAP_PASSWORD": s.imap_password,
            "PBEM_IMAP_SSL": "0",
            "PBEM_SMTP_HOST": s.smtp_host,
            "PBEM_SMTP_PORT": str(s.smtp_port),
            "PBEM_SMTP_TLS": "0",
            "PBEM_SECRET": s.secret,
            "PBEM_LOCK_FILE": str(lock),
        }


def _progress(db: object) -> tuple[int, int, int, int, int]:
    """(applied, sent, pending, sent more than once, mails that ended otherwise)."""
    with Session(db) as s:  # type: ignore[call-overload]
        applied = s.exec(
            select(func.count())
            .select_from(InboundMessage)
            .where(InboundMessage.outcome == "applied")
        ).one()
        other = (
            s.exec(
                select(func.count())
                .select_from(InboundMessage)
                .where(InboundMessage.outcome != "applied")
            ).one()
            + s.exec(select(func.count()).select_from(Quarantine)).one()
        )
        sent = s.exec(
            select(func.count())
            .select_from(OutboxMessage)
            .where(OutboxMessage.status == "sent", OutboxMessage.kind != "welcome")
        ).one()
        pending = s.exec(
            select(func.count()).select_from(OutboxMessage).where(OutboxMessage.status != "sent")
        ).one()
        twice = s.exec(
            select(func.count()).select_from(OutboxMessage).where(OutboxMessage.attempts > 1)
        ).one()
    return applied, sent, pending, twice, other


def run_workers(b: Backlog, pg: str, folder: Path, workers: int, tag: str) -> dict[str, float]:
    """K poll loops on a fresh copy of the pristine database; wall time until all is done."""
    with fresh_database(pg, b.pristine) as db_url:
        db = make_engine(db_url)
        done = threading.Event()
        polls, applied_by = [0] * workers, [0] * workers

        def loop(i: int) -> None:
            env = b.env(db_url, folder / f"{tag}.w{i}.lock")
            while not done.is_set():
                out = subprocess.run(
                    [sys.executable, "-m", "pbem", "poll"],
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                ).stdout
                polls[i] += 1
                applied_by[i] += sum(int(n) for n in APPLIED.findall(out))

        threads = [threading.Thread(target=loop, args=(i,)) for i in range(workers)]
        cpu0, busy0 = _children_cpu(), machine_busy()
        t = time.perf_counter()
        for th in threads:
            th.start()
        while True:
            applied, sent, pending, twice, other = _progress(db)
            if applied >= len(b.mails) and sent >= len(b.replies) and pending == 0:
                break
            if other and applied + other >= len(b.mails) and pending == 0:
                break  # some mail was not applied (the WARNING below says how many)
            if time.perf_counter() - t > 1800:
                print(f"  {tag}: gave up after 30 min: applied {applied}, sent {sent}")
                break
            time.sleep(0.1)
        wall = time.perf_counter() - t
        busy1 = machine_busy()
        done.set()
        for th in threads:
            th.join()
        cpu = _children_cpu() - cpu0  # every `pbem poll` of the run, reaped by now
        applied, sent, pending, twice, other = _progress(db)
        db.dispose()
    if applied != len(b.mails) or sent != len(b.replies) or twice:
        print(
            f"  {tag}: WARNING applied {applied}/{len(b.mails)} (rejected or quarantined "
            f"{other}), sent {sent}/{len(b.replies)}, "
            f"rows sent twice {twice}"
        )
    share = max(applied_by) / max(1, sum(applied_by))  # the busiest worker's part of the moves
    cores = (busy1[0] - busy0[0]) / wall if busy0 and busy1 else float("nan")
    return {
        "wall": wall,
        "polls": sum(polls),
        "twice": twice,
        "share": share,
        "cpu": cpu,
        "cores": cores,
    }


def _children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, for CI")
    a = ap.parse_args(argv)
    moves, games, runs = (4, 2, 1) if a.smoke else (a.moves, a.games, a.runs)
    counts = [2] if a.smoke else [int(x) for x in a.workers.split(",")]
    try:
        with (
            mail_stack() as server,
            postgres() as pg,
            tempfile.TemporaryDirectory(prefix="pbem-scale-") as tmp,
        ):
            bench(server, pg, Path(tmp), moves, games, counts, runs)
    except (NoMailStack, NoPostgres) as exc:
        print(f"scale-out benchmark skipped: {exc}")


def bench(
    server: MailServer, pg: str, folder: Path, moves: int, games: int, counts: list[int], runs: int
) -> None:
    t = time.perf_counter()
    b = Backlog(server, pg, moves, games)
    try:
        print(
            f"backlog: {len(b.mails)} move mails over {games} games, {len(b.replies)} reports; "
            f"made in {time.perf_counter() - t:.1f} s"
        )
        wire_user = server.fresh_address("wire")
        walls: dict[int, list[float]] = {k: [] for k in counts}
        polls: dict[int, list[float]] = {k: [] for k in counts}
        shares: dict[int, list[float]] = {k: [] for k in counts}
        cpus: dict[int, list[float]] = {k: [] for k in counts}
        cores: dict[int, list[float]] = {k: [] for k in counts}
        wire: list[float] = []
        for run in range(runs):  # interleaved, so the machine's drift hits every count alike
            fill(server, wire_user, b.mails)
            wire.append(len(b.mails) / run_wire(server, wire_user, b))  # type: ignore[arg-type]
            for k in counts:
                fill(server, b.address, b.mails)
                r = run_workers(b, pg, folder, k, f"r{run}k{k}")
                walls[k].append(len(b.mails) / r["wall"])
                polls[k].append(r["polls"])
                shares[k].append(r["share"])
                cpus[k].append(1000 * r["cpu"] / len(b.mails))
                cores[k].append(r["cores"])
    finally:
        drop_database(pg, b.pristine)
    n, w = len(b.mails), statistics.median(wire)
    one = statistics.median(walls[counts[0]])
    rows = [
        Row(
            f"{k} worker{'s' if k > 1 else ''} (pbem poll loops): moves/s",
            n,
            "moves/s",
            walls[k],
            f"{statistics.median(walls[k]) / w:.2f} × wire, {statistics.median(walls[k]) / one:.2f} × "
            f"{counts[0]} worker; polls run {statistics.median(polls[k]):.0f}; busiest worker "
            f"applied {statistics.median(shares[k]):.0%}; workers' CPU "
            f"{statistics.median(cpus[k]):.0f} ms/move; machine busy "
            f"{statistics.median(cores[k]):.2f} of {os.cpu_count()} cores",
        )
        for k in counts
    ]
    rows.append(
        Row("wire limit: imapclient fetch + aiosmtplib send", n, "moves/s", wire, "1.00 (baseline)")
    )
    print_table(
        f"Scale-out on one PostgreSQL and one mailbox ({n} moves, {games} games, "
        f"{len(b.replies)} reports)",
        rows,
    )


if __name__ == "__main__":
    main()
