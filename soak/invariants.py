"""What every crash soak checks (`soak/crash_injection.py`, `soak/lmtp_crash.py`): the
result counters, a database per game, and the invariants at the end (the move log is the
mailed commands, each once, in order; every report sent and delivered; no mail quarantined).
"""

from __future__ import annotations

import email
import email.policy
import statistics
import subprocess
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from imapclient import IMAPClient
from sqlalchemy import text, update
from sqlmodel import Session, col, select

from pbem.store.db import make_engine
from pbem.store.models import InboundMessage, Move, OutboxMessage, Quarantine, utcnow
from soak.attribution import Duplicate, summary

TERM_WAIT = 90.0  # seconds a worker sent SIGTERM may take to stop (the SMTP timeout is 30 s)


class Stoppable(Protocol):
    def wait(self, timeout: float | None = None) -> int: ...
    def kill(self) -> None: ...


class Stack(Protocol):
    """Where the SMTP+IMAP pair listens (tests.pbem.mailtools.MailServer has these)."""

    @property
    def host(self) -> str: ...
    @property
    def smtp_port(self) -> int: ...
    @property
    def imap_port(self) -> int: ...
    @property
    def domain(self) -> str: ...
    @property
    def password(self) -> str: ...


@dataclass
class Result:
    kills: int = 0
    serve_kills: int = 0
    clean_runs: int = 0
    moves: int = 0
    delivered: int = 0
    duplicates: int = 0
    leased: int = 0  # reports a killed worker had claimed: sent once its lease ran out
    automatic: int = 0  # forced/standing/queued commands the server played after a mailed one
    games: int = 0
    spans: list[float] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)
    exit_codes: Counter[int] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)
    sources: list[Duplicate] = field(default_factory=list)  # where each duplicate came from
    unsettled: int = 0  # rounds after which the Postfix queue did not empty in time
    unseen: int = 0  # copies the final check read that the reads between rounds did not
    mailed: int = 0  # commands the players mailed
    stored_unanswered: int = 0  # LMTP: workers killed after storing a mail, before its 250
    stops: Counter[str] = field(default_factory=Counter)  # per `soak.attribution.Round.label`
    term_waits: list[float] = field(default_factory=list)  # SIGTERM to exit, seconds
    term_codes: Counter[int] = field(default_factory=Counter)  # exit statuses after SIGTERM
    term_late: int = 0  # workers still running `TERM_WAIT` after SIGTERM (then SIGKILLed)

    def graceful(self, child: Stoppable) -> None:
        """Wait for a worker sent SIGTERM to end (SIGKILL after `TERM_WAIT`) and count it."""
        t = time.perf_counter()
        try:
            code = child.wait(timeout=TERM_WAIT)
        except subprocess.TimeoutExpired:
            child.kill()
            code = child.wait()
            self.term_late += 1
        self.term_waits.append(time.perf_counter() - t)
        self.term_codes[code] += 1

    def add(self, r: Result) -> None:
        for name in (
            "kills",
            "serve_kills",
            "clean_runs",
            "moves",
            "delivered",
            "duplicates",
            "leased",
            "automatic",
            "games",
            "unsettled",
            "unseen",
            "mailed",
            "stored_unanswered",
            "term_late",
        ):
            setattr(self, name, getattr(self, name) + getattr(r, name))
        self.spans += r.spans
        self.delays += r.delays
        self.term_waits += r.term_waits
        self.stops.update(r.stops)
        self.term_codes.update(r.term_codes)
        self.exit_codes.update(r.exit_codes)
        self.violations += r.violations
        self.sources += r.sources

    def report(self, seconds: float) -> str:
        span = f"{statistics.median(self.spans):.2f} s" if self.spans else "-"
        delay = (
            f"{min(self.delays):.2f}–{max(self.delays):.2f} s (median {statistics.median(self.delays):.2f})"
            if self.delays
            else "-"
        )
        stops = (
            f"kills {self.kills} (poll {self.kills - self.serve_kills}, serve {self.serve_kills})"
        )
        if self.term_waits:
            by = self.stops
            stops = (
                f"stops {self.kills} (SIGKILL: poll {by['poll']}, serve {by['serve']}; SIGTERM: "
                f"poll {by['poll SIGTERM']}, serve {by['serve SIGTERM']})"
            )
        return (
            f"{stops} in {self.games} games, stop delays {delay}, clean poll span {span}; "
            f"clean polls {self.clean_runs}, mailed moves applied {self.moves} "
            f"(+ {self.automatic} forced/standing/queued), "
            f"mails delivered {self.delivered} (duplicates {self.duplicates}, "
            f"held by a killed worker's claim until its lease ran out {self.leased}), "
            f"exit codes {dict(sorted(self.exit_codes.items()))}, "
            f"violations {len(self.violations)}; {seconds:.1f} s\n"
            + self._graceful_report()
            + summary(
                self.sources,
                self.stops or Counter(poll=self.kills - self.serve_kills, serve=self.serve_kills),
            )
            + (f"; queue not empty after {self.unsettled} rounds" if self.unsettled else "")
            + (f"; {self.unseen} copies not read between rounds" if self.unseen else "")
        )

    def _graceful_report(self) -> str:
        """One line on the SIGTERM stops (nothing when there were none)."""
        if not self.term_waits:
            return ""
        waits = sorted(self.term_waits)
        early = " (-15: in start-up, before its handlers)" if self.term_codes[-15] else ""
        return (
            f"SIGTERM stops {len(waits)}: exit codes {dict(sorted(self.term_codes.items()))}"
            f"{early}, "
            f"signal to exit median {statistics.median(waits):.2f} s, max {waits[-1]:.2f} s, "
            f"still running after {TERM_WAIT:.0f} s {self.term_late}\n"
        )

    def lmtp_report(self, seconds: float) -> str:
        """The summary of an LMTP-intake soak (`soak.lmtp_crash`)."""
        span = f"{statistics.median(self.spans):.2f} s" if self.spans else "-"
        lost = max(0, self.mailed - self.moves)
        doubled = max(0, self.moves - self.mailed)
        return (
            f"kills {self.kills} (between stored and 250: {self.stored_unanswered}; at random "
            f"times: {self.kills - self.stored_unanswered}) in {self.games} games, "
            f"clean serve span {span}; mailed {self.mailed}, applied {self.moves} "
            f"(+ {self.automatic} forced/standing/queued): lost {lost}, doubled {doubled}; "
            f"reports delivered {self.delivered} (duplicates {self.duplicates}), "
            f"exit codes {dict(sorted(self.exit_codes.items()))}, "
            f"violations {len(self.violations)}; {seconds:.1f} s"
        )


@contextmanager
def database(url: str | None, folder: Path) -> Iterator[str]:
    """SQLite in ``folder``, or a fresh PostgreSQL schema on ``url`` (dropped afterwards)."""
    if not url:
        yield f"sqlite:///{folder}/crash.db"
        return
    schema = f"crash_{uuid.uuid4().hex[:8]}"
    admin = make_engine(url)
    with admin.begin() as c:
        c.execute(text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in url else "?"
    try:
        yield f"{url}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as c:
            c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def expire_leases(db: Any) -> int:
    """Time-travel past the claim lease (`pbem.outbox.send.CLAIM_LEASE`, minutes): rows a killed worker
    had claimed are due again, as they are once the lease runs out. Returns how many."""
    table = OutboxMessage.__table__  # type: ignore[attr-defined]
    now = utcnow()
    with db.begin() as c:
        return int(
            c.execute(
                update(table)
                .where(table.c.status == "pending", table.c.next_attempt_at > now)
                .values(next_attempt_at=now)
            ).rowcount
        )


def all_sent(db: object) -> bool:
    with Session(db) as s:  # type: ignore[call-overload]
        return not s.exec(select(OutboxMessage.id).where(OutboxMessage.status != "sent")).first()


def read_box(stack: Stack, address: str) -> list[bytes]:
    with IMAPClient(stack.host, port=stack.imap_port, ssl=False, timeout=30) as c:
        c.login(address, stack.password)
        c.select_folder("INBOX", readonly=True)
        uids = c.search(["ALL"])
        got = c.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
        return [got[u][b"BODY[]"] for u in sorted(got)]


def check(
    db: object,
    game_id: int,
    mailed: list[tuple[str, str]],
    stack: Stack,
    players: dict[str, str],
    out: Result,
) -> None:
    bad = out.violations
    with Session(db) as s:  # type: ignore[call-overload]
        # The first move each mail made for its own side is its command; the moves after it with
        # the same inbound id are forced, standing or queued commands the server played for
        # either side (`pbem.games.orders.settle`: a strategy card, a debate pick).
        firsts: dict[int, tuple[str, str]] = {}
        for m, mail in s.exec(
            select(Move, InboundMessage)
            .where(
                Move.game_id == game_id,
                Move.inbound_id == InboundMessage.id,
                Move.side == InboundMessage.side,
            )
            .order_by(col(Move.seq))
        ):
            firsts.setdefault(mail.id, (m.side, m.command))
        log = list(firsts.values())
        out.automatic += len(s.exec(select(Move.id).where(Move.game_id == game_id)).all()) - len(
            log
        )
        rows = list(s.exec(select(OutboxMessage)))
        quarantined = len(s.exec(select(Quarantine.id)).all())
    out.moves = len(log)
    if log != mailed:
        bad.append(
            f"game {game_id}: move log differs from the mailed commands ({len(log)} vs {len(mailed)})"
        )
    if quarantined:
        bad.append(f"{quarantined} mails quarantined")
    unsent = [r.message_id for r in rows if r.status != "sent"]
    if unsent:
        bad.append(f"{len(unsent)} outbox rows not sent")
    expected = {r.message_id: r.recipient for r in rows}
    seen: Counter[str] = Counter()
    deadline = time.monotonic() + 60  # Postfix may still be handing the last reports to Dovecot
    while True:
        seen.clear()
        extra: list[str] = []
        for address in players.values():
            for raw in read_box(stack, address):
                msg = email.message_from_bytes(raw, policy=email.policy.default)
                mid = str(msg["Message-ID"] or "").strip()
                if expected.get(mid) != address:
                    extra.append(f"{address} got a mail that is not its outbox row: {mid}")
                seen[mid] += 1
        missing = [m for m in expected if m not in seen]
        if not missing or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    bad += extra
    if missing:
        bad.append(f"{len(missing)} outbox mails never delivered")
    out.delivered = sum(seen.values())
    out.duplicates = out.delivered - len(seen)
