"""Benchmark 8 — serve-mode latency: a player's SMTP submission to both reports in the players'
IMAP boxes, with `pbem serve` on the real Dovecot + Postfix stack.

    python benchmarks/bench_latency.py [--moves 200] [--games 20] [--intake imap|lmtp] [--smoke]

``--intake imap`` (the default): `pbem serve` reads the game mailbox, woken by IMAP IDLE.
``--intake lmtp``: Postfix hands the game's mail over LMTP to `pbem serve`'s listener
(``PBEM_LMTP_PORT``; the stack's ``MAILSTACK_RELAY_LMTP_PORT``), as a site's transport_maps does.
`pbem serve` (a subprocess, SQLite) serves G games whose seats are all on ``notify every`` (so
every applied move mails both players). One move at a time: the player to move submits a random
legal command over SMTP to the reply address of their current key; timed from the start of the
submission until both players' INBOXes, each watched by an IMAP IDLE connection opened
beforehand, report the new mail (one untimed warm-up move first). Baseline in the same run, interleaved with the moves: the bare
delivery time — one mail submitted to two addresses, timed until both IDLE connections report
it (Postfix → Dovecot → IDLE, one hop; a served move is two hops plus the server's work).
Prints p50, p90, p99 and max of both. Needs the mail stack (MAILSTACK_* or root).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from imapclient import IMAPClient
from sqlmodel import Session, select

import engine
from benchmarks.common import Row, print_table
from benchmarks.mailenv import NoMailStack, mail_stack
from pbem import keys
from pbem.games import setup as game_setup
from pbem.games.notify import set_notify
from pbem.mail import MemorySender, SmtpSender
from pbem.outbox import send as outbox
from pbem.outbox.queue import current_key
from pbem.store.db import make_engine, migrate
from pbem.store.models import Game, Seat, utcnow
from tests.pbem.mailtools import MailServer, player_mail, port_open, wait_until

TIMEOUT = 60.0


class Watch:
    """IDLE on one INBOX; `arrived` is when the server reported a new message (monotonic)."""

    def __init__(self, server: MailServer, address: str) -> None:
        self.client = IMAPClient(server.host, port=server.imap_port, ssl=False, timeout=TIMEOUT)
        self.client.login(address, server.password)
        self.client.select_folder("INBOX")
        self.arrived: float | None = None
        self.client.idle()
        self._thread = threading.Thread(target=self._wait, daemon=True)
        self._thread.start()

    def _wait(self) -> None:
        end = time.monotonic() + TIMEOUT
        while time.monotonic() < end:
            for resp in self.client.idle_check(timeout=1):
                if len(resp) > 1 and resp[1] == b"EXISTS":
                    self.arrived = time.monotonic()
                    return

    def result(self) -> float | None:
        self._thread.join(TIMEOUT + 5)
        try:
            self.client.idle_done()
            self.client.logout()
        except Exception:  # a broken watch only loses this sample
            pass
        return self.arrived


def both_arrive(
    server: MailServer,
    addresses: tuple[str, str],
    smtp: SmtpSender,
    raw: bytes,
    sender: str,
    recipients: list[str],
) -> float | None:
    """Seconds from submitting ``raw`` until both INBOXes reported a new mail (None: timeout)."""
    watches = [Watch(server, a) for a in addresses]
    time.sleep(0.05)  # both IDLEs are in place
    t = time.monotonic()
    asyncio.run(smtp.send(raw, sender, recipients))
    done = [w.result() for w in watches]
    if any(d is None for d in done):
        return None
    return max(d for d in done if d is not None) - t


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--intake", choices=("imap", "lmtp"), default="imap")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, for CI")
    a = ap.parse_args(argv)
    moves, games = (2, 1) if a.smoke else (a.moves, a.games)
    try:
        with (
            mail_stack() as server,
            tempfile.TemporaryDirectory(prefix="pbem-bench-latency-") as tmp,
        ):
            if a.intake == "lmtp" and not server.relay_lmtp_port:
                raise NoMailStack("the running stack has no MAILSTACK_RELAY_LMTP_PORT")
            bench(server, Path(tmp), moves, games, a.intake)
    except NoMailStack as exc:
        print(f"latency benchmark skipped: {exc}")


def bench(server: MailServer, folder: Path, moves: int, games: int, intake: str) -> None:
    lmtp = intake == "lmtp"
    address = server.relayed_address("latency") if lmtp else server.fresh_address("latency")
    url = f"sqlite:///{folder}/latency.db"
    settings = server.game_settings(url, "bench-secret-0123456789", address)
    db = make_engine(url)
    migrate(db)
    ids = []
    for i in range(games):
        gid = game_setup.new_game(
            db,
            settings,
            kennedy=server.fresh_address(f"k{i}"),
            nixon=server.fresh_address(f"n{i}"),
            edition=engine.EDITIONS[i % 2],
            seed=3000 + i,
        )
        for side in engine.SIDES:
            set_notify(db, gid, side, "every", now=utcnow())
        ids.append(gid)
    outbox.drain_outbox(db, settings, MemorySender())  # the welcome mails are not timed
    env = {
        **os.environ,
        "PBEM_DATABASE_URL": url,
        "PBEM_ADDRESS": address,
        "PBEM_IMAP_HOST": server.host,
        "PBEM_IMAP_PORT": str(server.imap_port),
        "PBEM_IMAP_USER": address,
        "PBEM_IMAP_PASSWORD": server.password,
        "PBEM_IMAP_SSL": "0",
        "PBEM_SMTP_HOST": server.host,
        "PBEM_SMTP_PORT": str(server.smtp_port),
        "PBEM_SMTP_TLS": "0",
        "PBEM_SECRET": settings.secret,
        "PBEM_LOCK_FILE": str(folder / "serve.lock"),
        "PBEM_LMTP_HOST": server.host,
        "PBEM_LMTP_PORT": str(server.relay_lmtp_port if lmtp else 0),
    }
    log = open(folder / "serve.log", "w")  # noqa: SIM115 - closed below
    serve = subprocess.Popen(
        [sys.executable, "-m", "pbem", "serve", "--idle-timeout", "300"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    if lmtp:  # the listener is up before the first move (else Postfix defers it a second)
        wait_until(lambda: port_open(server.host, server.relay_lmtp_port), TIMEOUT, 0.05)
    smtp = SmtpSender(server.host, server.smtp_port, timeout=TIMEOUT)
    rnd = random.Random(13)
    served: list[float] = []
    bare: list[float] = []
    lost = 0
    probe = (server.fresh_address("bare-a"), server.fresh_address("bare-b"))
    t0 = time.perf_counter()
    try:
        for i in range(-1, moves):  # move -1 is the untimed warm-up: serve is up and in IDLE
            gid = ids[i % len(ids)]
            with Session(db) as s:
                game = s.get(Game, gid)
                assert game is not None
                state = engine.from_json(game.snapshot)
                seats = {st.side: st for st in s.exec(select(Seat).where(Seat.game_id == gid))}
            if engine.result(state) is not None:
                continue
            side = rnd.choice(sorted(engine.active_sides(state)))
            to = keys.reply_address(address, current_key(settings, seats[side]))
            raw = player_mail(
                seats[side].email,
                to,
                rnd.choice(engine.legal_commands(state, side)),
                message_id=f"<{uuid.uuid4().hex}@client.example.org>",
            )
            pair = (seats["kennedy"].email, seats["nixon"].email)
            took = both_arrive(server, pair, smtp, raw, seats[side].email, [to])
            if i < 0:
                continue
            if took is None:
                lost += 1
            else:
                served.append(took)
            mail = player_mail(
                probe[0], probe[1], "bare delivery", message_id=f"<{uuid.uuid4().hex}@bare.test>"
            )
            took = both_arrive(server, probe, smtp, mail, probe[0], list(probe))
            if took is not None:
                bare.append(took)
    finally:
        serve.terminate()
        try:
            serve.wait(30)
        except subprocess.TimeoutExpired:
            serve.kill()
            serve.wait()
        log.close()
        db.dispose()
    wall = time.perf_counter() - t0
    print(
        f"{len(served)} moves timed over {games} games ({lost} lost: no report within {TIMEOUT:.0f} s), "
        f"{len(bare)} bare deliveries; {wall:.1f} s"
    )
    if not served or not bare:
        print((folder / "serve.log").read_text()[-2000:])
        return

    def q(xs: list[float], p: float) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(p * len(xs)))]

    b50, b90, b99 = statistics.median(bare), q(bare, 0.9), q(bare, 0.99)
    rows = []
    for what, xs in (
        (f"served move: submission → both reports (pbem serve, {intake.upper()})", served),
        ("bare delivery: submission → both IDLEs (Postfix → Dovecot)", bare),
    ):
        base = what.startswith("bare")
        rows += [
            Row(
                f"{what}, p50",
                len(xs),
                "s",
                [statistics.median(xs)],
                "1.00 (baseline)" if base else f"{statistics.median(xs) / b50:.2f} × bare p50",
            ),
            Row(
                f"{what}, p90",
                len(xs),
                "s",
                [q(xs, 0.9)],
                "1.00 (baseline)" if base else f"{q(xs, 0.9) / b90:.2f} × bare p90",
            ),
            Row(
                f"{what}, p99",
                len(xs),
                "s",
                [q(xs, 0.99)],
                "1.00 (baseline)" if base else f"{q(xs, 0.99) / b99:.2f} × bare p99",
            ),
            Row(f"{what}, max", len(xs), "s", [max(xs)], ""),
        ]
    print_table("Serve-mode latency on the real mail stack", rows)


if __name__ == "__main__":
    main()
