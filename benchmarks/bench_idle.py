"""Benchmark 3 — idle cost as games grow: `pbem poll` with an empty inbox against databases
of 10, 1,000, 10,000 (and 100,000) games; wall time and peak memory, ratios to the 10-game case.

    python benchmarks/bench_idle.py [--sizes 10,1000,10000,100000] [--runs 5] [--smoke]

Each poll runs in its own subprocess (benchmarks/probe.py: the real `pbem poll`, its peak
memory from `resource.getrusage`). The databases (SQLite) are filled in bulk from one real
game made by the server: per game its row with a snapshot after 20 moves, two seats, 20 moves,
20 inbound records and two sent outbox rows (bodies cut to 1 kB to keep 100,000 games on disk).
The inbox is a real, empty IMAP mailbox on the mail stack (MAILSTACK_* or root, as benchmark 2).
Targets (issue 6): 10,000 games <= 1.2 × the 10-game time; peak memory flat (<= 1.2 ×).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from benchmarks.common import Row, print_table
from benchmarks.mailenv import NoMailStack, mail_stack
from pbem.config import Settings
from pbem.games import setup as game_setup
from pbem.mail import MemorySender
from pbem.outbox import send as outbox
from pbem.store.db import make_engine, migrate
from tests.pbem.mailtools import MailServer

HERE = Path(__file__).resolve().parent
MOVES_PER_GAME = 20


def template_db(path: Path, settings: Settings) -> None:
    """One real game (server-made), played 20 moves in, welcome mails sent."""
    db = make_engine(f"sqlite:///{path}")
    migrate(db)
    gid = game_setup.new_game(
        db, settings, kennedy="k@example.test", nixon="n@example.test", seed=1
    )
    outbox.drain_outbox(db, settings, MemorySender())
    db.dispose()
    g = engine.new_game(1)
    rnd = random.Random(1)
    moves = []
    for _ in range(MOVES_PER_GAME):
        side = sorted(engine.active_sides(g))[0]
        cmd = rnd.choice(engine.legal_commands(g, side))
        engine.apply_in_place(g, side, cmd)
        moves.append((side, cmd))
    con = sqlite3.connect(path)
    con.execute(
        "UPDATE game SET snapshot = ?, version = ? WHERE id = ?",
        (engine.to_json(g), len(moves), gid),
    )
    con.execute(
        "UPDATE outboxmessage SET text = substr(text, 1, 1000), html = substr(html, 1, 1000)"
    )
    for i, (side, cmd) in enumerate(moves, 1):
        con.execute(
            "INSERT INTO inboundmessage (dedupe_key, message_id, mailbox, uidvalidity, uid, content_hash, "
            "from_addr, subject, game_id, side, outcome, detail, received_at) VALUES "
            "(?, ?, 'INBOX', 1, ?, 'x', ?, 'Re: move', ?, ?, 'applied', '', CURRENT_TIMESTAMP)",
            (f"<t{i}@x>", f"<t{i}@x>", i, f"{side[0]}@example.test", gid, side),
        )
        con.execute(
            "INSERT INTO move (game_id, seq, side, command, inbound_id, created_at) VALUES "
            "(?, ?, ?, ?, ?, CURRENT_TIMESTAMP)",
            (gid, i, side, cmd, i),
        )
    con.commit()
    con.close()


def grow(template: Path, path: Path, games: int) -> None:
    """Copy the template's one game ``games`` times (new ids, addresses and keys) in bulk."""
    src = sqlite3.connect(template)
    src.row_factory = sqlite3.Row
    tables = {
        t: [dict(r) for r in src.execute(f"SELECT * FROM {t}")]
        for t in ("game", "seat", "move", "inboundmessage", "outboxmessage")
    }
    src.close()
    shutil.copy(template, path)  # the schema and alembic's version row
    con = sqlite3.connect(path)
    for t in tables:
        con.execute(f"DELETE FROM {t}")
    base = {t: 0 for t in tables}
    for i in range(games):
        gid = i + 1
        _rows(con, "game", tables["game"], {"id": gid})
        _rows(
            con,
            "seat",
            tables["seat"],
            {"game_id": gid},
            lambda r, i=i: {"id": None, "email": f"{r['side'][0]}{i}@example.test"},
        )
        n_in = len(tables["inboundmessage"])
        _rows(
            con,
            "inboundmessage",
            tables["inboundmessage"],
            {"game_id": gid},
            lambda r, i=i, n_in=n_in: {
                "id": r["id"] + base["inboundmessage"],
                "dedupe_key": f"{r['dedupe_key']}.{i}",
                "uid": r["uid"] + i * n_in,
            },
        )
        _rows(
            con,
            "move",
            tables["move"],
            {"game_id": gid},
            lambda r: {"id": None, "inbound_id": r["inbound_id"] + base["inboundmessage"]},
        )
        _rows(
            con,
            "outboxmessage",
            tables["outboxmessage"],
            {"game_id": gid},
            lambda r, i=i: {"id": None, "message_id": f"{r['message_id']}.{i}"},
        )
        base["inboundmessage"] += n_in
        if i % 5000 == 4999:
            con.commit()
    con.commit()
    con.execute("VACUUM")
    con.close()


def _rows(
    con: sqlite3.Connection,
    table: str,
    rows: list[dict[str, object]],
    fixed: dict[str, object],
    per_row: object = None,
) -> None:
    for r in rows:
        row = {**r, **fixed, **(per_row(r) if callable(per_row) else {})}
        cols = ", ".join(f'"{c}"' for c in row)
        con.execute(
            f"INSERT INTO {table} ({cols}) VALUES ({', '.join('?' for _ in row)})",
            list(row.values()),
        )


def idle_poll(db_file: Path, server: MailServer, address: str, out: Path) -> dict[str, float]:
    env = {
        **os.environ,
        "PBEM_DATABASE_URL": f"sqlite:///{db_file}",
        "PBEM_ADDRESS": address,
        "PBEM_IMAP_HOST": server.host,
        "PBEM_IMAP_PORT": str(server.imap_port),
        "PBEM_IMAP_USER": address,
        "PBEM_IMAP_PASSWORD": server.password,
        "PBEM_IMAP_SSL": "0",
        "PBEM_SMTP_HOST": server.host,
        "PBEM_SMTP_PORT": str(server.smtp_port),
        "PBEM_SMTP_TLS": "0",
        "PBEM_SECRET": "bench-secret-0123456789",
    }
    t = time.perf_counter()
    subprocess.run([sys.executable, str(HERE / "probe.py"), str(out), "poll"], env=env, check=True)
    wall = time.perf_counter() - t
    probe = json.loads(out.read_text())
    if probe["exit"] not in (0, None):
        raise RuntimeError(f"pbem poll exited {probe['exit']}")
    return {"wall": wall, "seconds": probe["seconds"], "maxrss_kb": probe["maxrss_kb"]}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--sizes", default="10,1000,10000,100000", help="game counts (the first is the baseline)"
    )
    ap.add_argument("--runs", type=int, default=5, help="polls per size (median reported)")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, for CI")
    a = ap.parse_args(argv)
    sizes, runs = ([10, 100], 1) if a.smoke else ([int(x) for x in a.sizes.split(",")], a.runs)
    try:
        with mail_stack() as server, tempfile.TemporaryDirectory(prefix="pbem-bench-idle-") as tmp:
            bench(server, Path(tmp), sizes, runs)
    except NoMailStack as exc:
        print(f"idle benchmark skipped: {exc}")


def bench(server: MailServer, folder: Path, sizes: list[int], runs: int) -> None:
    address = server.fresh_address("idle")
    settings = Settings(
        database_url="sqlite:///unused.db", address=address, secret="bench-secret-0123456789"
    )
    template = folder / "template.db"
    template_db(template, settings)
    dbs = {}
    for n in sizes:
        t = time.perf_counter()
        dbs[n] = folder / f"games{n}.db"
        grow(template, dbs[n], n)
        print(
            f"database of {n:,} games: {dbs[n].stat().st_size / 1e6:,.1f} MB, made in {time.perf_counter() - t:.1f} s"
        )
    idle_poll(
        dbs[sizes[0]], server, address, folder / "warm.json"
    )  # warm the caches and folders once
    results: dict[int, list[dict[str, float]]] = {n: [] for n in sizes}
    for run in range(runs):  # interleaved, so drift hits every size alike
        for n in sizes:
            results[n].append(idle_poll(dbs[n], server, address, folder / f"p{n}.{run}.json"))
    base_t = statistics.median(r["wall"] for r in results[sizes[0]])
    base_m = statistics.median(r["maxrss_kb"] for r in results[sizes[0]])
    rows: list[Row] = []
    for n in sizes:
        walls = [r["wall"] for r in results[n]]
        rows.append(
            Row(
                f"idle poll wall, {n:,} games",
                n,
                "s",
                walls,
                f"{statistics.median(walls) / base_t:.2f} × {sizes[0]} games",
            )
        )
    for n in sizes:
        inproc = [r["seconds"] for r in results[n]]
        rows.append(Row(f"idle poll in process, {n:,} games", n, "s", inproc, ""))
    for n in sizes:
        mem = [r["maxrss_kb"] / 1024 for r in results[n]]
        rows.append(
            Row(
                f"peak memory, {n:,} games",
                n,
                "MB",
                mem,
                f"{statistics.median(mem) * 1024 / base_m:.2f} × {sizes[0]} games",
            )
        )
    print_table("Idle poll (empty inbox) as games grow", rows)


if __name__ == "__main__":
    main()
