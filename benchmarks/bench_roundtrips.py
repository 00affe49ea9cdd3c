"""Benchmark: mails per player per game, today's behaviour and the new defaults side by side.

    python benchmarks/bench_roundtrips.py [--games N] [--smoke]

Scripted players play seeded games through the real pipeline (SQLite, the in-memory mailbox
and sender: every mail is parsed, applied, rendered, composed and counted as sent). Each game is
played twice with the same seed and the same players:

- ``today``: ``notify every`` (both seats mailed after every applied mail), no standing orders,
  no forced decisions applied by the server (the behaviour before issue 11);
- ``defaults``: ``notify decisions``, forced decisions applied by the server, no standing or
  queued orders; the players answer every trigger question (``trigger ask``).

A scripted player answers only a mail that asks it to decide, by replying to its newest mail.
It writes in one mail everything it can decide without new information: it chooses random
legal commands (from the legal list, as the mail shows it) and keeps writing while it still
decides and nothing was drawn or shown to it; CP points go in one line (``campaign 17: NY 2,
PA 1``, ``position 17: defense 2``) when that line means the same moves. It never queues.

Printed: per game and player, mails received, decision mails received, mails sent, kilobytes
received, for both behaviours; then medians and the ratio today/defaults. The last line is
``round trips per player per game (defaults): received R, sent S`` (medians).
"""

from __future__ import annotations

import argparse
import email
import email.parser
import email.policy
import itertools
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine import forced
from pbem import orders, service
from pbem.config import Settings
from pbem.db import make_engine, migrate
from pbem.mail import MemoryMailbox, MemorySender
from pbem.models import Game

EMAILS = {"kennedy": "jack@players.test", "nixon": "dick@players.test"}
MAX_LINES = 12
MAX_MAILS = 4000  # per game: a stalled game is a bug, reported
_ids = itertools.count(1)
HEADERS = email.parser.BytesHeaderParser(policy=email.policy.compat32)


@dataclass
class Tally:
    received: int = 0
    decisions: int = 0
    sent: int = 0
    bytes: int = 0


@dataclass
class Table:
    games: list[dict[str, dict[str, Tally]]] = field(default_factory=list)  # per game: mode -> side


def player_mail(frm: str, to: str, body: str, in_reply_to: str) -> bytes:
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"], msg["To"], msg["Subject"] = frm, to, "Re: move"
    msg["Message-ID"] = f"<bench.{next(_ids)}@players.test>"
    msg["In-Reply-To"] = msg["References"] = in_reply_to
    msg.set_content(body)
    return msg.as_bytes()


def _compact(first: str, rest: list[str]) -> str | None:
    """``campaign 17`` + ``support NY`` x2 -> ``campaign 17: NY 2`` (None if not that shape)."""
    verb = first.split()[0]
    point = {"campaign": "support", "position": "issue"}.get(verb)
    if point is None or not rest or any(not r.startswith(point + " ") for r in rest):
        return None
    counts = Counter(r[len(point) + 1:] for r in rest)
    parts = [f"{k.replace('_', ' ')} {n}" for k, n in counts.items()]
    return f"{first}: {', '.join(parts)}"


def compose(before: dict[str, Any], side: str, rnd: random.Random) -> list[str]:
    """The lines of one mail: random legal commands while nothing new is learnt."""
    g = engine.copy_state(before)
    lines: list[str] = []
    while side in engine.active_sides(g) and len(lines) < MAX_LINES:
        cmd = rnd.choice(engine.legal_commands(g, side))
        reveal = forced.reveals(g, side, cmd)
        engine.apply_in_place(g, side, cmd)
        lines.append(cmd)
        if reveal:
            break
    one = _compact(lines[0], lines[1:]) if len(lines) > 1 else None
    if one is not None:
        try:
            if engine.apply(before, side, one) == g:
                return [one]
        except engine.CommandError:
            pass
    return lines


@dataclass
class Player:
    side: str
    rnd: random.Random
    answered: str = ""  # Message-ID of the mail last answered


def _decides(msg: Message) -> bool:
    return "your move" in str(msg["Subject"])


def play(seed: int, mode: str, folder: Path) -> dict[str, Tally]:
    """One game in ``mode`` (``today`` / ``defaults``); the tallies per side."""
    db_url = f"sqlite:///{folder}/{mode}-{seed}.db"
    settings = Settings(database_url=db_url, address="game@pbem.test", secret="bench")
    db = make_engine(db_url)
    migrate(db)
    inbox, sender = MemoryMailbox(), MemorySender()
    inbox.ensure_folders()
    orders.FORCED = mode != "today"
    game_id = service.new_game(db, settings, kennedy=EMAILS["kennedy"], nixon=EMAILS["nixon"],
                               seed=seed)
    if mode == "today":
        for side in EMAILS:
            service_notify(db, game_id, side, "every")
    service.drain_outbox(db, settings, sender)
    players = {s: Player(s, random.Random(f"{seed}-{s}")) for s in EMAILS}
    tally = {s: Tally() for s in EMAILS}
    seen = 0
    inbox_of: dict[str, list[Message]] = {s: [] for s in EMAILS}
    for _ in range(MAX_MAILS):
        for m in sender.sent[seen:]:
            msg = HEADERS.parsebytes(m.raw)  # the headers are all a player needs here
            side = "kennedy" if EMAILS["kennedy"] in m.recipients else "nixon"
            t = tally[side]
            t.received += 1
            t.bytes += len(m.raw)
            t.decisions += _decides(msg)
            inbox_of[side].append(msg)
        seen = len(sender.sent)
        state = _state(db, game_id)
        if engine.result(state) is not None:
            return tally
        replied = False
        for side in sorted(engine.active_sides(state)):
            p = players[side]
            newest = inbox_of[side][-1]
            if not _decides(newest) or str(newest["Message-ID"]) == p.answered:
                continue
            lines = compose(state, side, p.rnd)
            inbox.deliver(player_mail(EMAILS[side], str(newest["Reply-To"]), "\n".join(lines),
                                      str(newest["Message-ID"])))
            p.answered = str(newest["Message-ID"])
            tally[side].sent += 1
            replied = True
        if not replied:
            raise RuntimeError(f"seed {seed} {mode}: stalled, {sorted(engine.active_sides(state))} "
                               "must decide but have no unanswered decision mail")
        service.poll_once(db, settings, inbox)
        service.drain_outbox(db, settings, sender)
    raise RuntimeError(f"seed {seed} {mode}: more than {MAX_MAILS} rounds")


def service_notify(db: Any, game_id: int, side: str, mode: str) -> None:
    from pbem.models import utcnow
    from pbem.notify import set_notify

    set_notify(db, game_id, side, mode, now=utcnow())


def _state(db: Any, game_id: int) -> dict[str, Any]:
    from sqlmodel import Session

    with Session(db) as s:
        game = s.get(Game, game_id)
        assert game is not None
        return engine.from_json(game.snapshot)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="seeded games per behaviour (default 20)")
    ap.add_argument("--smoke", action="store_true", help="one game (CI)")
    ap.add_argument("--seed", type=int, default=1, help="first seed")
    a = ap.parse_args(argv)
    n = 1 if a.smoke else a.games
    modes = ("today", "defaults")
    rows: dict[str, list[Tally]] = {m: [] for m in modes}
    t0 = time.perf_counter()
    print("mails per player per game: received (decision mails) / sent / KB received")
    print(f"{'game':>5} {'player':8} | {'today: recv (dec) / sent / KB':>32} | {'defaults: recv (dec) / sent / KB':>34}")
    with tempfile.TemporaryDirectory(prefix="pbem-roundtrips-") as tmp:
        for seed in range(a.seed, a.seed + n):
            result = {m: play(seed, m, Path(tmp)) for m in modes}
            for side in EMAILS:
                cells = []
                for m in modes:
                    t = result[m][side]
                    rows[m].append(t)
                    cells.append(f"{t.received:4d} ({t.decisions:3d}) / {t.sent:3d} / {t.bytes / 1024:7.0f}")
                print(f"{seed:>5} {side:8} | {cells[0]:>32} | {cells[1]:>34}")
    orders.FORCED = True

    def med(m: str, f: str) -> float:
        return float(statistics.median(getattr(t, f) for t in rows[m]))

    print(f"\n{'median per player per game':28} {'today':>9} {'defaults':>9} {'today/defaults':>15}")
    for f, label in (("received", "mails received"), ("decisions", "decision mails"),
                     ("sent", "mails sent"), ("bytes", "KB received")):
        scale = 1024 if f == "bytes" else 1
        t, d = med("today", f) / scale, med("defaults", f) / scale
        print(f"{label:28} {t:9.0f} {d:9.0f} {t / d if d else float('nan'):15.2f}")
    print(f"({n} games per behaviour, {len(rows['defaults'])} player-games each, "
          f"{time.perf_counter() - t0:.0f} s)")
    print(f"round trips per player per game (defaults): received {med('defaults', 'received'):.0f}, "
          f"sent {med('defaults', 'sent'):.0f}")


if __name__ == "__main__":
    main()
