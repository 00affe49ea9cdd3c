"""Benchmark 2 — mail end to end vs the wire limit, on the real Dovecot + Postfix stack (127.0.0.1).

    python benchmarks/bench_mail.py [--moves 500] [--games 100] [--runs 3] [--bytecode] [--smoke]

N move mails spread over G games (round robin, N/G moves each) wait in the game's INBOX.
Timed: `pbem poll` (a subprocess: the real command, start-up included) processing all of them
and sending every report. Baseline in the same run, the *wire limit*: a bare script that fetches
the same N messages with imapclient and sends the same number of replies, byte for byte the
server's reports, with aiosmtplib over one connection, doing nothing else. Reported: moves/s,
server ÷ wire (throughput), and the engine's share of the server's time (benchmarks/probe.py
times every engine call inside the poll). `pbem poll` sends the reports after the mails are
applied; a second figure in the same run does the same work as two commands, `pbem poll
--no-send` then `pbem send`, timed in process.

Last, where the CPU goes per move (`benchmarks/cpu.py`, /proc): the poll process (start-up and
the command), Dovecot + Postfix during the poll and during the wire run, and
the wire client; and the poll's *floor* on this machine, ``max(own process, all CPU / cores)``:
the poll applies mail on one thread of work, so it cannot be faster than its own process, nor
than all the CPU it and the mail servers spend spread over every core. ``wire ÷ floor`` is the
best ratio this code could reach here, however well its parts overlapped.

The mails are made on a scratch copy of the database (each one answers the report the server
would have sent, with its reply key), then the pristine copy is what the timed poll runs on.
``--bytecode``: the project's modules (pbem, engine, bots, benchmarks) are compiled to bytecode
in place before the timed runs (``python -m compileall``), as in an installed server (pip
compiles at install; a checkout run without ``PYTHONDONTWRITEBYTECODE`` writes it at the first
run). Without it, under ``PYTHONDONTWRITEBYTECODE=1`` on a tree without ``__pycache__`` (a `git
archive`), every process compiles every project module it
imports anew (~0.3 s each; `bench_startup.py --bytecode` shows it). The header says which.

Needs the mail stack: a running one (MAILSTACK_* from `scripts/mailstack.sh start`) or root.
Targets: server >= 0.3 × wire; engine <= 10 % of the server's per-move time.

First, without the mail stack, the rendering breakdown per report (`render_cost`): a seeded game
replayed in process, both seats' reports rendered after every move, timed two ways — the
templates alone (the baseline) and with the map picture (`pbem.reports.boardmap`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiosmtplib
from imapclient import IMAPClient
from sqlmodel import Session, col, select

import engine
from benchmarks.common import Row, print_table
from benchmarks.cpu import machine_busy, stack_cpu
from benchmarks.mailenv import NoMailStack, mail_stack, state_dir
from pbem import keys
from pbem.config import Settings
from pbem.games import setup as game_setup
from pbem.mail import MemorySender
from pbem.outbox import compose
from pbem.outbox import parts as mailimages
from pbem.outbox import send as outbox
from pbem.outbox.queue import current_key
from pbem.pipeline.runner import process_message
from pbem.store.db import make_engine, migrate
from pbem.store.models import Game, InboundMessage, OutboxMessage, Seat
from tests.pbem.mailtools import MailServer, player_mail

HERE = Path(__file__).resolve().parent


@dataclass
class Workload:
    """The pristine database, the N move mails (in order) and the replies the server sends."""

    db_file: Path
    settings: Settings
    mails: list[bytes]
    replies: list[tuple[str, bytes]]  # (recipient, raw) of every report, as the server sends them


def make_workload(server: MailServer, folder: Path, moves: int, games: int) -> Workload:
    address = server.fresh_address("game")
    pristine = folder / "pristine.db"
    settings = server.game_settings(f"sqlite:///{pristine}", "bench-secret-0123456789", address)
    db = make_engine(settings.database_url)
    migrate(db)
    for i in range(games):
        game_setup.new_game(
            db,
            settings,
            kennedy=server.fresh_address(f"k{i}"),
            nixon=server.fresh_address(f"n{i}"),
            edition=engine.EDITIONS[i % 2],
            seed=1000 + i,
        )
    outbox.drain_outbox(
        db, settings, MemorySender(), limit=10 * games
    )  # the welcome mails are gone
    db.dispose()
    scratch = folder / "scratch.db"
    shutil.copy(pristine, scratch)
    sdb = make_engine(f"sqlite:///{scratch}")
    ssettings = settings.with_(database_url=f"sqlite:///{scratch}")
    rnd = random.Random(7)
    mails: list[bytes] = []
    with Session(sdb) as s:
        ids = [g.id for g in s.exec(select(Game).order_by(col(Game.id)))]
    while len(mails) < moves:
        for gid in ids:
            if len(mails) >= moves:
                break
            raw = _next_move(sdb, ssettings, gid, rnd)
            out = process_message(
                sdb, ssettings, raw, mailbox="scratch", uidvalidity=1, uid=len(mails) + 1
            )
            if out.outcome != "applied":
                raise RuntimeError(f"scratch mail not applied: {out}")
            mails.append(raw)
    with Session(sdb) as s:
        rows = s.exec(
            select(OutboxMessage)
            .where(OutboxMessage.status == "pending")
            .order_by(col(OutboxMessage.id))
        ).all()
        images = mailimages.load(s, (r.html for r in rows))  # the map pictures
        replies = [(r.recipient, compose.raw_message(ssettings, r, images)) for r in rows]
    sdb.dispose()
    return Workload(pristine, settings, mails, replies)


def _next_move(db: object, settings: Settings, gid: int | None, rnd: random.Random) -> bytes:
    with Session(db) as s:  # type: ignore[call-overload]
        game = s.get(Game, gid)
        state = engine.from_json(game.snapshot)
        side = rnd.choice(sorted(engine.active_sides(state)))
        seat = s.exec(select(Seat).where(Seat.game_id == gid, Seat.side == side)).one()
        to = keys.reply_address(settings.address, current_key(settings, seat))
        command = rnd.choice(engine.legal_commands(state, side))
        return player_mail(
            seat.email,
            to,
            f"{command}\n\n-- \n{side.title()}\n",
            subject=f"Re: [1960 #{gid}] your move",
            message_id=f"<{uuid.uuid4().hex}@client.example.org>",
        )


# --- mailbox handling -------------------------------------------------------------------------


def imap(server: MailServer, user: str) -> IMAPClient:
    c = IMAPClient(server.host, port=server.imap_port, ssl=False, timeout=60)
    c.login(user, server.password)
    return c


def fill(server: MailServer, user: str, mails: list[bytes]) -> None:
    """Empty the user's INBOX (and Processed), then append the mails in order."""
    with imap(server, user) as c:
        for folder in ("INBOX", "Processed"):
            if folder != "INBOX" and not c.folder_exists(folder):
                continue
            c.select_folder(folder)
            uids = c.search(["ALL"])
            if uids:
                c.delete_messages(uids)
                c.expunge()
        for raw in mails:
            c.append("INBOX", raw)


# --- the two timed runs -----------------------------------------------------------------------


def poll_env(s: Settings, db_file: Path) -> dict[str, str]:
    """The PBEM_* environment of a `pbem poll` on ``db_file`` with these settings."""
    return {
        "PBEM_DATABASE_URL": f"sqlite:///{db_file}",
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
    }


def run_server(w: Workload, folder: Path, run: int, serial: bool = False) -> dict[str, float]:
    """`pbem poll` on a fresh copy of the pristine database; returns timings and checks.

    ``serial``: the same work without sending during processing — `pbem poll --no-send`, then
    `pbem send` (two processes); ``seconds`` is both in process."""
    db_file = folder / f"run{run}{'s' if serial else ''}.db"
    shutil.copy(w.db_file, db_file)
    env = {**os.environ, **poll_env(w.settings, db_file)}
    out = folder / f"probe{run}.json"
    commands = [["poll", "--no-send"], ["send"]] if serial else [["poll"]]
    t, busy0 = time.perf_counter(), machine_busy()
    probes = []
    for command in commands:
        subprocess.run(
            [sys.executable, str(HERE / "probe.py"), str(out), *command], env=env, check=True
        )
        probes.append(json.loads(out.read_text()))
    wall, busy1 = time.perf_counter() - t, machine_busy()
    summed = (
        "seconds",
        "rules_s",
        "json_s",
        "maxrss_kb",
        "startup_cpu_s",
        "cpu_s",
        "children_cpu_s",
    )
    probe = {k: sum(p[k] for p in probes) for k in summed}
    probe["exit"] = max(p["exit"] or 0 for p in probes)
    db = make_engine(f"sqlite:///{db_file}")
    with Session(db) as s:
        applied = len(
            s.exec(select(InboundMessage.id).where(InboundMessage.outcome == "applied")).all()
        )
        sent = len(
            s.exec(
                select(OutboxMessage.id).where(
                    OutboxMessage.status == "sent", OutboxMessage.kind != "welcome"
                )
            ).all()
        )
    db.dispose()
    return {
        "wall": wall,
        "applied": applied,
        "sent": sent,
        "cores_busy": (busy1[0] - busy0[0]) / wall if busy0 and busy1 else float("nan"),
        **{k: v for k, v in probe.items() if k != "calls"},
    }


async def _send_all(server: MailServer, sender: str, replies: list[tuple[str, bytes]]) -> None:
    smtp = aiosmtplib.SMTP(hostname=server.host, port=server.smtp_port, start_tls=False, timeout=60)
    await smtp.connect()
    for rcpt, raw in replies:
        await smtp.sendmail(sender, [rcpt], raw)
    await smtp.quit()


def run_wire(server: MailServer, user: str, w: Workload) -> float:
    """Fetch the N mails (imapclient, one session) and send the same replies (aiosmtplib)."""
    t = time.perf_counter()
    with imap(server, user) as c:
        c.select_folder("INBOX", readonly=True)
        uids = sorted(c.search(["ALL"]))
        got = 0
        for i in range(0, len(uids), 100):
            got += len(c.fetch(uids[i : i + 100], ["BODY.PEEK[]"]))
    asyncio.run(_send_all(server, user, w.replies))
    wall = time.perf_counter() - t
    if got != len(w.mails):
        raise RuntimeError(f"wire fetched {got} of {len(w.mails)} mails")
    return wall


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--moves", type=int, default=500, help="move mails N (default 500)")
    ap.add_argument("--games", type=int, default=100, help="games they are spread over")
    ap.add_argument("--runs", type=int, default=3, help="timing runs (median reported)")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, for CI")
    ap.add_argument(
        "--bytecode", action="store_true", help="compile the project first, as installed"
    )
    a = ap.parse_args(argv)
    print(f"bytecode: {compile_project() if a.bytecode else _bytecode_state()}")
    moves, games, runs = (6, 3, 1) if a.smoke else (a.moves, a.games, a.runs)
    render_cost(10 if a.smoke else 120, runs)
    try:
        with mail_stack() as server, tempfile.TemporaryDirectory(prefix="pbem-bench-mail-") as tmp:
            bench(server, Path(tmp), moves, games, runs)
    except NoMailStack as exc:
        print(f"mail benchmark skipped: {exc}")


PROJECT_PACKAGES = ("pbem", "engine", "bots", "benchmarks")


def compile_project() -> str:
    """Write the project's bytecode next to its sources (`--bytecode`); what was done."""
    root = HERE.parent
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    paths = [str(root / p) for p in PROJECT_PACKAGES if (root / p).is_dir()]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *paths], env=env, check=True)
    return f"compiled in place before the runs (as installed): {', '.join(PROJECT_PACKAGES)}"


def _bytecode_state() -> str:
    if (
        os.environ.get("PYTHONDONTWRITEBYTECODE")
        and not (HERE.parent / "pbem/__pycache__").is_dir()
    ):
        return "none: every process compiles the project's modules it imports (--bytecode: as installed)"
    return "as found in the tree (written by earlier runs where allowed)"


def render_cost(moves: int, runs: int) -> None:
    """Per-report rendering cost: the templates alone, and with the map picture."""
    from pbem.reports.render import render

    rnd = random.Random(5)
    g = engine.new_game(5)
    views = []
    for _ in range(moves):
        if not engine.active_sides(g):
            break
        side = rnd.choice(sorted(engine.active_sides(g)))
        engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
        views.append({s: engine.view(g, s) for s in engine.SIDES})

    def ctx(v: dict[str, object], side: str, picture: bool) -> dict[str, object]:
        return {
            "game_id": 1,
            "side": side,
            "view": v,
            "since": max(0, len(v["log"]) - 10),  # type: ignore[arg-type]
            "results": [],
            "error": None,
            "opponent": "o@example.test",
            "reply_to": "game+x@example.test",
            "picture": picture,
        }

    def one_run(picture: bool) -> float:
        t = time.perf_counter()
        for pair in views:
            for side, v in pair.items():
                render("report", ctx(v, side, picture))
        return (time.perf_counter() - t) / (2 * len(views))

    plain = [one_run(False) for _ in range(runs)]
    drawn = [one_run(True) for _ in range(runs)]
    n = 2 * len(views)
    rows = [
        Row("render per report: templates only (baseline)", n, "s", plain, "1.00"),
        Row(
            "render per report: + the map picture",
            n,
            "s",
            drawn,
            f"{statistics.median(drawn) / statistics.median(plain):.2f}",
        ),
    ]
    print_table(f"Rendering per report ({len(views)} moves, both seats' reports each)", rows)


def settled_stack_cpu(timeout: float = 60.0) -> float | None:
    """The mail stack's CPU seconds once it is idle (Postfix delivers after accepting: a run's
    mail is still being handed to Dovecot when the client is done)."""
    last = stack_cpu(state_dir())
    deadline = time.monotonic() + timeout
    while last is not None and time.monotonic() < deadline:
        time.sleep(0.5)
        now = stack_cpu(state_dir())
        if now is None or now - last < 0.02:
            return now
        last = now
    return last


def timed_wire(server: MailServer, user: str, w: Workload) -> tuple[float, float, float | None]:
    """`run_wire` with its CPU: (wall s, client CPU s, mail stack CPU s or None)."""
    stack0, own0 = settled_stack_cpu(), os.times()
    wall = run_wire(server, user, w)
    stack1, own1 = settled_stack_cpu(), os.times()
    own = own1.user + own1.system - own0.user - own0.system
    return wall, own, (stack1 - stack0) if stack0 is not None and stack1 is not None else None


def bench(server: MailServer, folder: Path, moves: int, games: int, runs: int) -> None:
    t = time.perf_counter()
    w = make_workload(server, folder, moves, games)
    print(
        f"workload: {len(w.mails)} move mails over {games} games, {len(w.replies)} reports "
        f"(avg {statistics.mean(len(r) for _, r in w.replies):,.0f} bytes); made in {time.perf_counter() - t:.1f} s"
    )
    wire_user = server.fresh_address("wire")
    server_runs: list[dict[str, float]] = []
    serial_runs: list[dict[str, float]] = []
    wire_runs: list[float] = []
    wire_cpu: list[tuple[float, float | None]] = []  # (client, mail stack) CPU s per wire run
    for run in range(runs):
        fill(server, w.settings.address, w.mails)
        fill(server, wire_user, w.mails)
        wall, client_cpu, wire_stack_cpu = timed_wire(server, wire_user, w)
        wire_runs.append(wall)
        wire_cpu.append((client_cpu, wire_stack_cpu))
        for serial in (False, True):
            if serial:
                fill(server, w.settings.address, w.mails)
            stack0 = settled_stack_cpu()
            r = run_server(w, folder, run, serial)
            stack1 = settled_stack_cpu()
            if stack0 is not None and stack1 is not None:
                r["stack_cpu_s"] = stack1 - stack0
            if (
                r["applied"] != len(w.mails)
                or r["sent"] != len(w.replies)
                or r["exit"] not in (0, None)
            ):
                print(
                    f"  run {run}{' (serial)' if serial else ''}: WARNING applied {r['applied']}/{len(w.mails)}, "
                    f"sent {r['sent']}/{len(w.replies)}, exit {r['exit']}"
                )
            (serial_runs if serial else server_runs).append(r)
    n = len(w.mails)
    srv = [n / r["wall"] for r in server_runs]
    wire = [n / x for x in wire_runs]
    ratio = statistics.median(srv) / statistics.median(wire)
    engine_share = [100 * r["rules_s"] / r["seconds"] for r in server_runs]
    json_share = [100 * r["json_s"] / r["seconds"] for r in server_runs]
    in_proc = [n / r["seconds"] for r in server_runs]
    serial_in_proc = [n / r["seconds"] for r in serial_runs]
    rows = [
        Row(
            "pbem poll: moves/s (wall, start-up incl.)",
            n,
            "moves/s",
            srv,
            f"{ratio:.2f} × wire (target ≥ 0.3)",
        ),
        Row(
            "pbem poll: moves/s (in process)",
            n,
            "moves/s",
            in_proc,
            f"{statistics.median(in_proc) / statistics.median(wire):.2f} × wire",
        ),
        Row(
            "serial: poll --no-send, then send (in process)",
            n,
            "moves/s",
            serial_in_proc,
            f"{statistics.median(serial_in_proc) / statistics.median(wire):.2f} × wire",
        ),
        Row(
            "wire limit: imapclient fetch + aiosmtplib send", n, "moves/s", wire, "1.00 (baseline)"
        ),
        Row("engine rules share of poll time", n, "%", engine_share, "target ≤ 10 %"),
        Row("engine to_json/from_json share", n, "%", json_share, ""),
        Row("per move: server (in process)", n, "s", [r["seconds"] / n for r in server_runs], ""),
        Row("per move: wire", n, "s", [x / n for x in wire_runs], ""),
    ]
    print_table(
        f"Mail end to end vs the wire limit ({n} moves, {games} games, {len(w.replies)} reports)",
        rows,
    )
    cpu_table(server_runs, wire_runs, wire_cpu, n)


def cpu_table(
    server_runs: list[dict[str, float]],
    wire_runs: list[float],
    wire_cpu: list[tuple[float, float | None]],
    n: int,
) -> None:
    """Where the CPU goes, per move, and the fastest wall time that CPU allows on this machine.

    A poll cannot be faster than its own process (imports and the applying are one thread of
    work) nor than all the CPU it and the mail servers spend, spread over every core."""
    cores = os.cpu_count() or 1
    if any("stack_cpu_s" not in r for r in server_runs) or any(c[1] is None for c in wire_cpu):
        print("CPU per move: the mail stack's processes were not found (skipped)")
        return
    own = [(r["startup_cpu_s"] + r["cpu_s"]) / n for r in server_runs]
    stack = [r["stack_cpu_s"] / n for r in server_runs]
    floor = [max(o, (o + st) / cores) for o, st in zip(own, stack, strict=True)]
    wire_wall = statistics.median(wire_runs) / n
    rows = [
        Row(
            "poll process: start-up (interpreter, imports)",
            n,
            "s",
            [r["startup_cpu_s"] / n for r in server_runs],
            "",
        ),
        Row(
            "poll process: the command (all threads)",
            n,
            "s",
            [r["cpu_s"] / n for r in server_runs],
            "",
        ),
        Row("Dovecot + Postfix, during the poll", n, "s", stack, ""),
        Row("wire client (fetch + send)", n, "s", [c[0] / n for c in wire_cpu], ""),
        Row(
            "Dovecot + Postfix, during the wire run",
            n,
            "s",
            [(c[1] or 0.0) / n for c in wire_cpu],
            "",
        ),
        Row(
            "whole machine busy during the poll (cores)",
            n,
            "cores",
            [r["cores_busy"] for r in server_runs],
            f"of {cores}",
        ),
        Row(
            f"poll's floor on {cores} cores: max(own, all / cores)",
            n,
            "s",
            floor,
            f"best possible {wire_wall / statistics.median(floor):.2f} × wire",
        ),
    ]
    print_table(f"CPU per move (user + system), {cores} cores", rows)


if __name__ == "__main__":
    main()
