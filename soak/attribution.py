"""Where the crash soak's duplicates come from: each extra copy tied to the kill that made it.

A duplicate (one Message-ID delivered more than once) is a mail a worker sent and did not mark
sent before it died: the next worker sends the row again, with the same Message-ID. To say
which kill made which copy, `soak/crash_injection.py` keeps a `Ledger` per game: every worker
it starts is a `Round` (poll or serve, stopped by SIGKILL or SIGTERM or run to the end, the
stop's delay and the span it was drawn from), and after each round (`Watch.after_round`) it

1. waits until the Postfix queue is empty (at most `SETTLE` seconds; its ``maildrop``,
   ``incoming`` and ``active`` folders): what the round's worker handed to Postfix is then in
   Dovecot. A queue file exists from the first accepted RCPT, so a mail whose end of data a
   killed poll's sending process finishes after the kill is waited for too. The embedded
   servers (the CI smoke) deliver before they answer the end of data: nothing to wait for;
2. reads the Message-IDs of the mails new in each player's INBOX since the last read (IMAP
   UIDs only grow): every delivered copy gets the round after which it was first seen;
3. reads the outbox rows left ``pending`` with a claimant (``claimed_by``, `pbem.outbox.claims`: host,
   process id and start time) not seen after an earlier round: the round's worker (or the
   poll's sending process) claimed them and did not mark them sent. That is the only way a
   row is sent twice, so these rounds are the candidates for every copy but the last.

Copy k of a Message-ID delivered n times (k < n: the copies in delivery order) was sent by a
worker that did not mark it. It is attributed to the round after which it was first seen when
that round left the row claimed and unmarked: **exact** (the queue was drained before the read,
so that is the round whose worker sent it). Otherwise (a queue that could not be watched, or a
delivery slower than `SETTLE`) to the latest such round before it not taken by an earlier
copy: **window**, with the other candidates listed; with no candidate at all it is
**unattributed** (a send without a claim: a finding in itself). The round after which copy
k + 1 was first seen is the one that sent it again. Only the copies' delivery order and the
claims are used, never clocks: the mail stack's times (``Received:``, whole seconds) are
coarser than a round.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import os
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SETTLE = 10.0  # seconds to wait for the Postfix queue to empty after a round
_QUEUES = ("maildrop", "incoming", "active")  # not deferred/hold: those do not empty by waiting


@dataclass(frozen=True)
class Round:
    """One worker run of a game: ``index`` 0 is the first poll (the welcome mails), the clean
    polls that drain the outbox after the last kill come last."""

    game: int  # the game's seed
    index: int
    kind: str  # "poll" | "serve"
    killed: bool = False  # stopped by the harness (``signal``), not run to the end
    delay: float | None = None  # seconds from the start to the signal
    span: float | None = None  # the clean poll span the delay was drawn from (serve: + 1 s)
    signal: str = "SIGKILL"  # or "SIGTERM": a graceful stop

    @property
    def label(self) -> str:
        """The kind of stop, as the summary counts them: "poll", "serve SIGTERM"..."""
        return self.kind if self.signal == "SIGKILL" else f"{self.kind} {self.signal}"

    def describe(self) -> str:
        where = f"round {self.index} of game {self.game}"
        if not self.killed or self.delay is None:
            return f"{where}: {self.kind} run to the end"
        frac = f" = {self.delay / self.span:.2f} of the span {self.span:.2f} s" if self.span else ""
        how = "killed" if self.signal == "SIGKILL" else f"sent {self.signal}"
        return f"{where}: {self.kind} {how} after {self.delay:.2f} s{frac}"


@dataclass(frozen=True)
class Row:
    """What the outbox says of a duplicated Message-ID."""

    kind: str
    game_id: int | None
    side: str | None  # the recipient's seat
    recipient: str


@dataclass(frozen=True)
class Duplicate:
    """One extra copy: copy ``copy`` of ``copies`` (1-based, delivery order) was sent and not
    marked; ``cause`` is the round that did so, ``resent`` the round that sent it again."""

    message_id: str
    row: Row | None
    copy: int
    copies: int
    cause: Round | None
    resent: Round | None
    how: str  # "exact" | "window" | "unattributed"
    others: tuple[int, ...] = ()  # other candidate rounds ("window")

    def describe(self) -> str:
        r = self.row
        what = f"{r.kind}, db game {r.game_id}, seat {r.side} <{r.recipient}>" if r else "no row"
        cause = self.cause.describe() if self.cause else "no round left it claimed and unmarked"
        also = f" (also possible: rounds {', '.join(map(str, self.others))})" if self.others else ""
        again = self.resent.describe() if self.resent else "?"
        return (
            f"{self.message_id} ({what}): copy {self.copy} of {self.copies} sent by {cause}; "
            f"sent again by {again} [{self.how}{also}]"
        )


@dataclass
class Ledger:
    """A game's rounds, the round after which each copy was first seen, and the rounds that
    left each row claimed and unmarked; `attribute` ties the copies to them."""

    rounds: list[Round] = field(default_factory=list)
    seen: dict[str, list[int]] = field(default_factory=dict)  # message id -> round per copy
    at_risk: dict[str, list[int]] = field(default_factory=dict)  # message id -> rounds
    _tokens: set[str] = field(default_factory=set)

    def round_done(
        self, rnd: Round, copies: Iterable[str], claimed: Iterable[tuple[str, str]]
    ) -> None:
        """``rnd`` ended; ``copies``: the Message-IDs new in the mailboxes (delivery order),
        ``claimed``: (Message-ID, claimant) of every pending row holding a claim."""
        assert rnd.index == len(self.rounds), "rounds are recorded in order"
        self.rounds.append(rnd)
        for mid in copies:
            self.seen.setdefault(mid, []).append(rnd.index)
        claimed = list(claimed)
        for mid, token in claimed:
            if token not in self._tokens:
                self.at_risk.setdefault(mid, []).append(rnd.index)
        self._tokens.update(token for _, token in claimed)

    def late_copies(self, copies: Iterable[str]) -> None:
        """Copies first seen after the last round (the final check): that round's."""
        for mid in copies:
            self.seen.setdefault(mid, []).append(len(self.rounds) - 1)

    def attribute(self, rows: dict[str, Row]) -> list[Duplicate]:
        out: list[Duplicate] = []
        for mid, seen in self.seen.items():
            taken = -1
            for k, first_seen in enumerate(seen[:-1]):
                cands = [r for r in self.at_risk.get(mid, []) if taken < r <= first_seen]
                cause: int | None = None
                if first_seen in cands:
                    cause, how = first_seen, "exact"
                elif cands:
                    cause, how = cands[-1], "window"
                else:
                    how = "unattributed"
                others = tuple(c for c in cands if c != cause) if how == "window" else ()
                if cause is not None:
                    taken = cause
                out.append(
                    Duplicate(
                        mid,
                        rows.get(mid),
                        k + 1,
                        len(seen),
                        None if cause is None else self.rounds[cause],
                        self.rounds[seen[k + 1]],
                        how,
                        others,
                    )
                )
        return out


def summary(dups: list[Duplicate], kills: Counter[str]) -> str:
    """Duplicates per kind of stopped worker, per 1,000 stops of that kind (``kills``: stops
    per `Round.label`; the kinds of a signal are listed when it stopped any)."""
    by: Counter[str] = Counter(d.cause.label if d.cause else "?" for d in dups)
    hows = Counter(d.how for d in dups)
    parts = []
    sigkill = any(kills[k] or by[k] for k in ("poll", "serve"))
    for kind in ("poll", "serve", "poll SIGTERM", "serve SIGTERM"):
        if not (kills[kind] or by[kind]) and ("SIGTERM" in kind or not sigkill):
            continue
        rate = f"{1000 * by[kind] / kills[kind]:.1f}" if kills[kind] else "-"
        stops = "kills" if "SIGTERM" not in kind else "stops"
        parts.append(f"{kind} {by[kind]} in {kills[kind]} {stops} ({rate} per 1,000)")
    if by["?"]:
        parts.append(f"unattributed {by['?']}")
    clean = sum(1 for d in dups if d.cause and not d.cause.killed)
    if clean:
        parts.append(f"made by a worker that was NOT killed {clean}")
    how = ", ".join(f"{k} {v}" for k, v in sorted(hows.items()))
    return f"duplicates by the stopped worker: {'; '.join(parts)} [{how or 'none'}]"


class Watch:
    """The I/O behind a `Ledger`: the Postfix queue, the players' INBOXes, the outbox claims."""

    def __init__(self, stack: Any, addresses: Iterable[str], queue: Path | None) -> None:
        self.stack, self.queue = stack, queue
        self.last: dict[str, int] = dict.fromkeys(addresses, 0)  # address -> last UID read
        self.clients: dict[str, Any] = {}
        self.unsettled = 0  # rounds after which the queue did not empty within SETTLE

    def settle(self) -> None:
        if self.queue is None:
            return
        end = time.monotonic() + SETTLE
        while any(_files(self.queue / q) for q in _QUEUES):
            if time.monotonic() > end:
                self.unsettled += 1
                return
            time.sleep(0.005)

    def new_copies(self) -> list[str]:
        out: list[str] = []
        for address in self.last:
            try:
                out += self._read(address)
            except Exception:  # a dropped session: read again on a new one
                self._drop(address)
                out += self._read(address)
        return out

    def _read(self, address: str) -> list[str]:
        from imapclient import IMAPClient

        c = self.clients.get(address)
        if c is None:
            c = IMAPClient(self.stack.host, port=self.stack.imap_port, ssl=False, timeout=30)
            c.login(address, self.stack.password)
            self.clients[address] = c
        c.select_folder("INBOX", readonly=True)
        last = self.last[address]
        uids = [u for u in c.search(["UID", f"{last + 1}:*"]) if u > last]
        if not uids:
            return []
        part = b"BODY[HEADER.FIELDS (MESSAGE-ID)]"
        got = c.fetch(uids, ["BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"])
        self.last[address] = max(uids)
        mids = []
        for u in sorted(uids):
            msg = email.message_from_bytes(got[u][part], policy=email.policy.default)
            mids.append(str(msg["Message-ID"] or "").strip())
        return mids

    def _drop(self, address: str) -> None:
        c = self.clients.pop(address, None)
        if c is not None:
            with contextlib.suppress(Exception):
                c.logout()

    def after_round(self, ledger: Ledger, rnd: Round, db: Any) -> None:
        self.settle()
        ledger.round_done(rnd, self.new_copies(), claimed(db))

    def close(self) -> None:
        for address in list(self.clients):
            self._drop(address)


def _files(folder: Path) -> bool:
    return any(names for _, _, names in os.walk(folder))


def claimed(db: Any) -> list[tuple[str, str]]:
    """(Message-ID, claimant) of every pending outbox row that holds a claim."""
    from sqlmodel import Session, col, select

    from pbem.store.models import OutboxMessage

    with Session(db) as s:
        got = s.exec(
            select(OutboxMessage.message_id, OutboxMessage.claimed_by).where(
                OutboxMessage.status == "pending", col(OutboxMessage.claimed_by).is_not(None)
            )
        ).all()
    return [(mid, token) for mid, token in got if token]


def outbox_rows(db: Any, message_ids: Iterable[str]) -> dict[str, Row]:
    from sqlmodel import Session, col, select

    from pbem.store.models import OutboxMessage

    wanted = list(message_ids)
    with Session(db) as s:
        got = s.exec(select(OutboxMessage).where(col(OutboxMessage.message_id).in_(wanted))).all()
        return {r.message_id: Row(r.kind, r.game_id, r.side, r.recipient) for r in got}


def queue_folder(embedded: bool) -> Path | None:
    """The Postfix queue of the stack in use (`benchmarks.mailenv`), None for the embedded one
    or when it cannot be read (the attribution then says "window" where a delivery lagged)."""
    if embedded:
        return None
    from benchmarks.mailenv import state_dir

    state = state_dir()
    spool = Path(state, "postfix", "spool") if state else None
    if spool is None or not all(os.access(spool / q, os.R_OK | os.X_OK) for q in _QUEUES):
        return None
    return spool
