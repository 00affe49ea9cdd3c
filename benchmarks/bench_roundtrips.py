"""Benchmark: mails per player per game, today's behaviour and the new defaults side by side.

    python benchmarks/bench_roundtrips.py [--games N] [--smoke] [--jobs J] [--modes a,b]

Scripted players play seeded games through the real pipeline (SQLite, the in-memory mailbox
and sender: every mail is parsed, applied, rendered, composed and counted as sent). Each game is
played in every mode with the same seed and the same players:

- ``today``: ``notify every`` (both seats mailed after every applied mail), every trigger
  question asked (``standing trigger ask``), no forced decisions applied by the server (the
  behaviour before issue 11);
- ``undeclared``: ``notify decisions``, forced decisions applied by the server, no queued
  orders, the players answer every trigger question (``standing trigger ask``), and place their
  media points and resolve their Election Day cards after each draw (one mail per draw);
- ``defaults``: the server's defaults (the trigger questions of events that can only favour
  the opponent declined for the player, ``standing trigger useful``), with a player who writes
  those in their declared one-line forms before the draw (``advertise 17: east 2, west 1``,
  ``resolve 36, 58, 55``): the target.

Every mode but ``today`` answers an applied mail that gets no report with a receipt; receipts
are counted apart (``receipts``): the mails received are the reports and notices, the
receipts come on top.

A scripted player answers only a mail that asks it to decide, by replying to its newest mail.
It writes in one mail everything it can decide without new information: it chooses random
legal commands (from the legal list, as the mail shows it) and keeps writing while it still
decides and nothing was drawn or shown to it; CP points go in one line (``campaign 17: NY 2,
PA 1``, ``position 17: defense 2``) when that line means the same moves. It never queues.

Each mail a player sends is counted under the decision it answers first (the engine's step,
grouped: card play, trigger question, debates ...): the breakdown shows where the mails go, and
how many of them were *chained* (no mail of the opponent since the player's previous one: the
decision follows the player's own with only draws between, the candidates for answering ahead).

The map picture is drawn once and attached to every HTML report (`reuse_one_map_picture`).
Printed: per game and player, mails received, decision mails received, mails sent, kilobytes
received, for each mode; then medians, the ratio today/defaults, and the mails sent
by decision kind. The last line is
``round trips per player per game (defaults): received R, sent S`` (medians).
"""

from __future__ import annotations

import argparse
import email
import email.header
import email.parser
import email.policy
import itertools
import multiprocessing
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
from engine.data import other
from engine.phases import momentum
from pbem.config import Settings
from pbem.games import orders
from pbem.games import setup as game_setup
from pbem.games.notify import set_standing
from pbem.mail import MemoryMailbox, MemorySender
from pbem.outbox import send as outbox
from pbem.store.db import make_engine, migrate
from pbem.store.models import Game
from pbem.worker import intake

MODES = ("today", "undeclared", "defaults")
EMAILS = {"kennedy": "jack@players.test", "nixon": "dick@players.test"}
MAX_LINES = 12
MAX_MAILS = 4000  # per game: a stalled game is a bug, reported
_ids = itertools.count(1)
HEADERS = email.parser.BytesHeaderParser(policy=email.policy.compat32)


@dataclass
class Tally:
    received: int = 0  # reports and notices (everything but receipts)
    receipts: int = 0  # short receipts of applied mails that got no report
    decisions: int = 0
    sent: int = 0
    bytes: int = 0
    kinds: Counter[str] = field(default_factory=Counter)  # mails sent, by the step first decided
    # mails sent with no mail of the opponent since the player's previous one: the decision
    # follows the player's own, with only draws (or nothing) between
    chained: Counter[str] = field(default_factory=Counter)


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
    counts = Counter(r[len(point) + 1 :] for r in rest)
    parts = [f"{k.replace('_', ' ')} {n}" for k, n in counts.items()]
    return f"{first}: {', '.join(parts)}"


def declare(g: dict[str, Any], side: str, cmd: str, rnd: random.Random) -> str:
    """``cmd`` in its one-line declared form when its outcome is drawn (written before the draw,
    from nothing the player cannot see): an advertising play with a random region per check
    (``advertise 17: east 2, west 1``, R8.1), and the whole Election Day order
    (``resolve 36, 58, 55``, R13.3, R13.4); the 2nd-issue award with the rest of the Momentum
    phase the mail offers to answer ahead (``endorsement: south, swap defense economy, strategy
    40, first nixon``, R10.3-R11.1, R5.2), and the last strategy card with next turn's initiative
    choice when the prompt offers it (``strategy 40: first nixon``). Otherwise ``cmd`` itself."""
    words = cmd.split()
    if forced.deciding_step(g, side) == "award_choice":  # the rest of the phase, as offered
        a = momentum.ahead(g, side)
        items = [rnd.choice(engine.REGIONS)]
        if a.swaps:
            items.append(rnd.choice([*a.swaps, "no swap"]))
        if a.need:
            items.append("strategy " + " ".join(str(c) for c in rnd.sample(a.strategy, a.need)))
            if a.first:
                items.append(f"first {rnd.choice(engine.SIDES)}")
        return f"{cmd}: {', '.join(items)}"
    if words[0] == "strategy" and _last_pick(g, side) and engine.ahead_example(g, side):
        return f"{cmd}: first {rnd.choice(engine.SIDES)}"  # as the prompt offers (R5.2)
    if words[0] == "resolve":
        order = [c.split()[1] for c in engine.legal_commands(g, side) if c.startswith("resolve ")]
        rnd.shuffle(order)
        order.remove(words[1])
        return ", ".join([cmd, *order])
    if words[0] == "advertise" and len(words) > 1:
        checks = int(engine.card_info(int(words[1]))["cp"])
    elif cmd == "candidate advertise":
        checks = 5  # R6.9
    else:
        return cmd
    counts = Counter(rnd.choice(engine.REGIONS) for _ in range(checks))
    return f"{cmd}: " + ", ".join(f"{r} {n}" for r, n in counts.items())


def _last_pick(g: dict[str, Any], side: str) -> bool:
    """The strategy card about to be placed is ``side``'s last of the turn (R11.1)."""
    f = g["stack"][-1]
    return bool(f["need"] - f["picked"][side] == 1)


def compose(
    before: dict[str, Any], side: str, rnd: random.Random, *, declared: bool = True
) -> list[str]:
    """The lines of one mail: random legal commands while nothing new is learnt.

    With ``declared`` (the defaults), a play whose outcome is drawn is written in its declared
    form (`declare`), as a player who uses the one-line forms does.
    """
    g = engine.copy_state(before)
    lines: list[str] = []
    while side in engine.active_sides(g) and len(lines) < MAX_LINES:
        cmd = rnd.choice(engine.legal_commands(g, side))
        if declared:
            cmd = declare(g, side, cmd, rnd)
        reveal = forced.reveals(g, side, cmd)
        engine.apply_in_place(g, side, cmd)
        lines.append(cmd)
        if reveal:
            break
    one = _compact(lines[0], lines[1:]) if len(lines) > 1 else None
    if one is not None:
        try:
            if engine.apply(before, side, one) == g:
                lines = [one]
        except engine.CommandError:
            pass
    return lines


@dataclass
class Player:
    side: str
    rnd: random.Random
    answered: str = ""  # Message-ID of the mail last answered
    opponent_sent: int = 0  # the opponent's mails sent when this player last sent one


def _decides(msg: Message) -> bool:
    """The subject says so (decoded: encoded words may split it anywhere)."""
    subject = str(email.header.make_header(email.header.decode_header(str(msg["Subject"]))))
    return "your move" in subject


def _is_receipt(msg: Message) -> bool:
    subject = str(email.header.make_header(email.header.decode_header(str(msg["Subject"]))))
    return " — received, " in subject


def play(seed: int, mode: str, folder: Path) -> dict[str, Tally]:
    """One game in ``mode`` (see `MODES`); the tallies per side."""
    db_url = f"sqlite:///{folder}/{mode}-{seed}.db"
    settings = Settings(database_url=db_url, address="game@pbem.test", secret="bench")
    db = make_engine(db_url)
    migrate(db)
    inbox, sender = MemoryMailbox(), MemorySender()
    inbox.ensure_folders()
    orders.FORCED = mode != "today"
    game_id = game_setup.new_game(
        db, settings, kennedy=EMAILS["kennedy"], nixon=EMAILS["nixon"], seed=seed
    )
    if mode == "today":
        for side in EMAILS:
            service_notify(db, game_id, side, "every")
    if mode in ("today", "undeclared"):
        for side in EMAILS:  # every trigger question asked, as before issue 28
            set_standing(db, game_id, side, ["trigger", "ask"])
    outbox.drain_outbox(db, settings, sender)
    players = {s: Player(s, random.Random(f"{seed}-{s}")) for s in EMAILS}
    tally = {s: Tally() for s in EMAILS}
    seen = 0
    inbox_of: dict[str, list[Message]] = {s: [] for s in EMAILS}
    for _ in range(MAX_MAILS):
        for m in sender.sent[seen:]:
            msg = HEADERS.parsebytes(m.raw)  # the headers are all a player needs here
            side = "kennedy" if EMAILS["kennedy"] in m.recipients else "nixon"
            t = tally[side]
            t.bytes += len(m.raw)
            if _is_receipt(msg):
                t.receipts += 1
                continue
            t.received += 1
            t.decisions += _decides(msg)
            inbox_of[side].append(msg)  # a receipt is never the newest decision to answer
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
            kind = decision_kind(state, side)
            tally[side].kinds[kind] += 1
            if p.opponent_sent == tally[other(side)].sent and tally[side].sent:
                tally[side].chained[kind] += 1
            lines = compose(state, side, p.rnd, declared=mode == "defaults")
            inbox.deliver(
                player_mail(
                    EMAILS[side],
                    str(newest["Reply-To"]),
                    "\n".join(lines),
                    str(newest["Message-ID"]),
                )
            )
            p.answered = str(newest["Message-ID"])
            p.opponent_sent = tally[other(side)].sent
            tally[side].sent += 1
            replied = True
        if not replied:
            raise RuntimeError(
                f"seed {seed} {mode}: stalled, {sorted(engine.active_sides(state))} "
                "must decide but have no unanswered decision mail"
            )
        intake.poll_once(db, settings, inbox)
        outbox.drain_outbox(db, settings, sender)
    raise RuntimeError(f"seed {seed} {mode}: more than {MAX_MAILS} rounds")


# the engine's step names, grouped as a player would name the decision
KIND_OF_STEP = {
    "action": "card play (action)",
    "after_cp": "card play (action)",
    "campaign": "campaign points",
    "position": "position points",
    "advertise": "advertising placement (after the draw)",
    "trigger": "trigger question",
    "choose_first": "initiative (who goes first)",
    "award_choice": "momentum phase",
    "endorse_region": "momentum phase",
    "issue_swap": "momentum phase",
    "strategy": "campaign strategy",
    "debate_pick": "debates",
    "debate_order": "debates",
    "debate_side": "debates",
    "debate_bonus": "debates",
    "election_card": "Election Day",
    "election_event": "Election Day",
}


def decision_kind(state: dict[str, Any], side: str) -> str:
    """What the mail a player is about to send decides first (a card event's own step: event)."""
    step = forced.deciding_step(state, side) or "?"
    return KIND_OF_STEP.get(step, "card event choice")


def service_notify(db: Any, game_id: int, side: str, mode: str) -> None:
    from pbem.games.notify import set_notify
    from pbem.store.models import utcnow

    set_notify(db, game_id, side, mode, now=utcnow())


def _state(db: Any, game_id: int) -> dict[str, Any]:
    from sqlmodel import Session

    with Session(db) as s:
        game = s.get(Game, game_id)
        assert game is not None
        return engine.from_json(game.snapshot)


def reuse_one_map_picture() -> None:
    """Draw the map picture once and attach that to every mail.

    A mail's size stays representative (one PNG of the real size per HTML report); drawing a
    new one per move (~0.3 s, benchmark 2's business) would make this benchmark take an hour.
    """
    from pbem.reports import boardmap, render

    first: list[boardmap.Picture] = []

    def picture(view: dict[str, Any]) -> boardmap.Picture:
        if not first:
            first.append(real(view))
        return first[0]

    real = boardmap.picture
    render.boardmap.picture = picture  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=20, help="seeded games per behaviour (default 20)")
    ap.add_argument("--smoke", action="store_true", help="one game (CI)")
    ap.add_argument("--seed", type=int, default=1, help="first seed")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    ap.add_argument(
        "--modes",
        default=",".join(MODES),
        help="comma-separated behaviours to play (default all three)",
    )
    a = ap.parse_args(argv)
    n = 1 if a.smoke else a.games
    reuse_one_map_picture()
    modes = tuple(m for m in MODES if m in a.modes.split(","))
    rows: dict[str, list[Tally]] = {m: [] for m in modes}
    t0 = time.perf_counter()
    print("mails per player per game: received (decision mails) + receipts / sent / KB received")
    print(
        f"{'game':>5} {'player':8} | "
        + " | ".join(f"{m + ': recv (dec) +rcpt / sent / KB':>40}" for m in modes)
    )
    with tempfile.TemporaryDirectory(prefix="pbem-roundtrips-") as tmp:
        seeds = range(a.seed, a.seed + n)
        jobs = [(seed, m, Path(tmp)) for seed in seeds for m in modes]
        if a.jobs > 1:
            with multiprocessing.Pool(a.jobs, initializer=reuse_one_map_picture) as pool:
                done = dict(zip(jobs, pool.starmap(play, jobs), strict=True))
        else:
            done = {job: play(*job) for job in jobs}
        for seed in seeds:
            result = {m: done[(seed, m, Path(tmp))] for m in modes}
            for side in EMAILS:
                cells = []
                for m in modes:
                    t = result[m][side]
                    rows[m].append(t)
                    cells.append(
                        f"{t.received:4d} ({t.decisions:3d}) +{t.receipts:3d} / {t.sent:3d} / "
                        f"{t.bytes / 1024:7.0f}"
                    )
                print(f"{seed:>5} {side:8} | " + " | ".join(f"{c:>40}" for c in cells))
    orders.FORCED = True

    def med(m: str, f: str) -> float:
        return float(statistics.median(getattr(t, f) for t in rows[m]))

    print(
        f"\n{'median per player per game':28} "
        + " ".join(f"{m:>9}" for m in modes)
        + (f" {'today/defaults':>15}" if {"today", "defaults"} <= set(modes) else "")
    )
    for f, label in (
        ("received", "mails received (reports)"),
        ("receipts", "receipts received"),
        ("decisions", "decision mails"),
        ("sent", "mails sent"),
        ("bytes", "KB received"),
    ):
        scale = 1024 if f == "bytes" else 1
        v = {m: med(m, f) / scale for m in modes}
        ratio = (
            f" {v['today'] / v['defaults'] if v['defaults'] else float('nan'):15.2f}"
            if {"today", "defaults"} <= set(modes)
            else ""
        )
        print(f"{label:28} " + " ".join(f"{v[m]:9.0f}" for m in modes) + ratio)
    print(f"\n{'mails sent, by what they decide':40} " + " ".join(f"{m:>9}" for m in modes))
    print(f"{'(mean per player per game)':40}")
    kinds = sorted(
        {k for m in modes for t in rows[m] for k in t.kinds},
        key=lambda k: -sum(t.kinds[k] for m in modes for t in rows[m]),
    )
    for k in kinds:
        print(
            f"{k:40} "
            + " ".join(
                f"{statistics.mean(t.kinds[k] for t in rows[m]):5.1f}"
                f"/{statistics.mean(t.chained[k] for t in rows[m]):<3.1f}"
                for m in modes
            )
        )
    print(
        f"{'all':40} "
        + " ".join(
            f"{statistics.mean(t.sent for t in rows[m]):5.1f}"
            f"/{statistics.mean(sum(t.chained.values()) for t in rows[m]):<3.1f}"
            for m in modes
        )
    )
    print(
        "(after the slash: chained, sent with no mail of the opponent since the player's "
        "previous one)"
    )
    print(
        f"({n} games per behaviour, {len(rows[modes[0]])} player-games each, "
        f"{time.perf_counter() - t0:.0f} s; undeclared = the defaults with a player who "
        "places media points and resolves Election Day cards after each draw)"
    )
    if "defaults" in rows:
        print(
            f"round trips per player per game (defaults): received {med('defaults', 'received'):.0f}, "
            f"sent {med('defaults', 'sent'):.0f} (receipts besides: {med('defaults', 'receipts'):.0f})"
        )


if __name__ == "__main__":
    main()
