"""Crash injection through LMTP intake (`python soak/crash_injection.py --lmtp`): Postfix hands
the players' mail to `pbem serve`'s LMTP listener, and the worker is killed at random moments
and, on purpose, between "stored" and "250".

Each round the player to move submits one random legal command over SMTP (only after their
previous one was applied); Postfix relays the game's address to the listener (the stack's
``MAILSTACK_RELAY_LMTP_PORT``, `scripts/mailstack.sh`), or keeps the mail and retries while
no listener runs. Then `pbem serve` (with ``PBEM_LMTP_PORT``) is started in a child forked
from the harness, the Postfix queue is flushed as soon as it listens (``postqueue -f``), and:

* with probability ``--window-share`` the child carries a crash point: right after the LMTP
  listener has committed a mail (`pbem.worker.lmtp_intake.store_delivery` returned STORED) it
  SIGKILLs itself, so the mail is stored and Postfix never hears "250": Postfix keeps it and
  delivers it again to a later worker, whose dedupe must answer 250 without queueing it twice;
* otherwise the harness SIGKILLs the child after a delay drawn uniformly over the span of a
  clean round (start-up, delivery, the pass, the SMTP drain), measured every fifth round.

At the end a clean `pbem serve` drains everything and `soak.invariants.check` holds: the move
log is exactly the mailed commands, each once, in order (nothing lost, nothing applied twice),
every report was sent and reached its player, nothing was quarantined.
"""

from __future__ import annotations

import os
import signal
import socket
import statistics
import subprocess
import time
from pathlib import Path
from typing import Protocol

from pbem.config import Settings
from pbem.mail.lmtp import Stored
from pbem.store.db import make_engine, migrate
from pbem.worker import lmtp_intake
from soak.forked import Forked
from soak.invariants import Result, Stack, all_sent, check, database, expire_leases
from soak.players import Players

__all__ = ["RelayStack", "run_lmtp"]

ROUND_TIMEOUT = 60.0


class RelayStack(Stack, Protocol):
    """A mail stack whose Postfix relays ``relayed_address`` mail to ``relay_lmtp_port``."""

    @property
    def relay_lmtp_port(self) -> int: ...

    def relayed_address(self, prefix: str = "game") -> str: ...


def _crash_after_store() -> None:
    """In the child: die by SIGKILL right after a mail is committed, before the 250 is sent."""
    store = lmtp_intake.store_delivery

    def store_then_die(db: object, settings: Settings, raw: bytes) -> Stored:
        stored = store(db, settings, raw)  # type: ignore[arg-type]
        if stored is Stored.STORED:
            os.kill(os.getpid(), signal.SIGKILL)
        return stored

    lmtp_intake.store_delivery = store_then_die


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def run_lmtp(
    kills: int,
    seed: int,
    folder: Path,
    stack: RelayStack,
    *,
    mailstack_dir: str,
    window_share: float = 0.5,
    span: float | None = None,
    database_url: str | None = None,
    deadline: float = float("inf"),
) -> Result:
    """One game (or until ``kills`` kills) through LMTP intake; see the module docstring."""
    out = Result(games=1)
    game_addr = stack.relayed_address(f"crash{seed}")
    flush = ["postqueue", "-c", str(Path(mailstack_dir, "postfix", "etc")), "-f"]
    with database(database_url, folder) as db_url:
        settings = Settings(
            database_url=db_url,
            address=game_addr,
            secret=f"lmtp-crash-{seed}-secret",
            smtp_host=stack.host,
            smtp_port=stack.smtp_port,
            smtp_tls=False,
            lmtp_host="127.0.0.1",
            lmtp_port=stack.relay_lmtp_port,
        )
        env = {
            **os.environ,
            "PBEM_DATABASE_URL": db_url,
            "PBEM_ADDRESS": game_addr,
            "PBEM_SECRET": settings.secret,
            "PBEM_SMTP_HOST": stack.host,
            "PBEM_SMTP_PORT": str(stack.smtp_port),
            "PBEM_SMTP_TLS": "false",
            "PBEM_LMTP_HOST": "127.0.0.1",
            "PBEM_LMTP_PORT": str(stack.relay_lmtp_port),
            "PBEM_LOCK_FILE": str(folder / "pbem.worker.lock"),
        }
        db = make_engine(db_url)
        migrate(db)
        players = Players(db, settings, seed, stack.host, stack.smtp_port, stack.domain)
        rnd = players.rnd
        spans: list[float] = []

        def start(window: bool) -> Forked:
            """A serve child, listening, with the Postfix queue flushed to it."""
            db.dispose()  # no pooled connection crosses the fork
            args = ["serve", "--idle-timeout", "1"]
            child = Forked(args, env, folder, before=_crash_after_store if window else None)
            end = time.monotonic() + ROUND_TIMEOUT
            while not _port_open(stack.relay_lmtp_port) and time.monotonic() < end:
                if child.poll() is not None:
                    break
                time.sleep(0.005)
            subprocess.run(flush, check=False, capture_output=True)
            return child

        def stop(child: Forked, sig: int) -> None:
            child.send_signal(sig)
            try:
                out.exit_codes[child.wait(timeout=30)] += 1
            except subprocess.TimeoutExpired:
                child.kill()
                out.exit_codes[child.wait()] += 1

        def clean(timeout: float = ROUND_TIMEOUT) -> float:
            """A serve run until every mailed command is applied and every report sent."""
            t = time.perf_counter()
            child = start(False)
            end = time.monotonic() + timeout
            while not (players.all_in() and all_sent(db)) and time.monotonic() < end:
                time.sleep(0.01)
            took = time.perf_counter() - t
            stop(child, signal.SIGTERM)
            out.clean_runs += 1
            return took

        spans.append(clean())  # the welcome mails, and a first span
        round_ = 0
        while out.kills < kills and time.monotonic() < deadline:
            round_ += 1
            if not players.turn():  # the game is over
                break
            if round_ % 5 == 0:
                spans.append(clean())
                continue
            limit = span if span is not None else statistics.median(spans[-20:])
            window = rnd.random() < window_share
            child = start(window)
            if window:  # it dies by itself once it stored a mail (or has nothing new to store)
                try:
                    code = child.wait(timeout=limit * 3)
                except subprocess.TimeoutExpired:
                    stop(child, signal.SIGKILL)
                    out.kills += 1
                else:
                    out.exit_codes[code] += 1
                    out.kills += 1
                    out.stored_unanswered += code == -signal.SIGKILL
                continue
            delay = rnd.uniform(0.0, limit)
            try:
                out.exit_codes[child.wait(timeout=delay)] += 1
            except subprocess.TimeoutExpired:
                stop(child, signal.SIGKILL)
                out.kills += 1
                out.delays.append(delay)
        out.spans += spans
        out.leased += expire_leases(db)
        for _ in range(3):  # clean runs until every submitted mail is in and every report out
            clean(120.0)
            if players.all_in() and all_sent(db):
                break
        out.mailed = len(players.mailed)
        check(db, players.game_id, players.mailed, stack, players.addresses, out)
        db.dispose()
    return out
