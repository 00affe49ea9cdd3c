"""The clocks' database side: start, hand over, and `tick` (reminders, expiry, outage guard).

`tick` is idempotent: every act (a reminder, an out-of-time notice, an expiry)
is recorded in the clock JSON's ``done`` list, as a `GameEvent` with a unique
key, and as outbox rows — all in the one transaction of its game, which holds
the game row (``BEGIN IMMEDIATE`` on SQLite, ``FOR UPDATE`` on PostgreSQL).
A second tick running at the same time waits, then finds nothing due; a crash
before the commit records nothing, a crash after it leaves the mails in the
outbox with their deterministic Message-IDs for the next drain.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

import engine
from pbem.bot_seats import is_bot
from pbem.clocks import model, report
from pbem.clocks.autopilot import KIND, play_for
from pbem.clocks.control import TimeControl, fmt_duration, parse_control, parse_duration
from pbem.clocks.model import ClockState, Due
from pbem.config import Settings
from pbem.db import lock_game, transaction
from pbem.models import Game, GameEvent, Move, Seat, WorkerState, utcnow
from pbem.replies import queue_mail, refresh_key, seats_of

__all__ = [
    "TickReport",
    "after_move",
    "bot_sides",
    "end_game",
    "ensure_clock",
    "load",
    "pending_clock",
    "record_event",
    "site_control",
    "start_clock",
    "store",
    "sync",
    "tick",
    "worker_pass",
]

log = logging.getLogger("pbem.clocks")
R = TypeVar("R")
SIDES = model.SIDES


def other(side: str) -> str:
    return "nixon" if side == "kennedy" else "kennedy"


def site_control(settings: Settings) -> TimeControl:
    """The site default time control (``PBEM_CLOCK`` and friends)."""
    return parse_control(
        settings.clock,
        weekend_pause=settings.clock_weekend_pause,
        vacation_days=settings.vacation_days,
        expiry=settings.clock_expiry,
        grace=settings.clock_grace,
        reminders=settings.clock_reminders,
    )


def load(game: Game) -> ClockState | None:
    """The running clock, or None (no clock yet, or one waiting for the game to start)."""
    c = json.loads(game.clock) if game.clock else None
    return None if c is None or c.get("pending") else c


def pending_control(game: Game) -> TimeControl | None:
    """The control chosen for a game that has not started yet (invitations)."""
    c = json.loads(game.clock) if game.clock else None
    return TimeControl.from_dict(c["control"]) if c and c.get("pending") else None


def pending_clock(control: TimeControl) -> str:
    """The ``Game.clock`` of a game not started yet: its control, started with the game."""
    return json.dumps({"control": control.to_dict(), "pending": True})


def store(game: Game, c: ClockState, now: float) -> None:
    """Write the clock back with the time its next work is due (None when over)."""
    game.clock = json.dumps(c, sort_keys=True)
    game.clock_due = model.next_due(c, now) if game.status == "active" else None


def start_clock(
    game: Game, control: TimeControl, state: engine.GameState, now: float
) -> ClockState:
    c = model.start(control, now, engine.active_sides(state))
    store(game, c, now)
    return c


def ensure_clock(game: Game, settings: Settings, state: engine.GameState, now: float) -> ClockState:
    """The game's clock; a game from before clocks gets the site default, from ``now``."""
    c = load(game)
    if c is not None:
        return c
    return start_clock(game, pending_control(game) or site_control(settings), state, now)


def record_event(
    s: Session, game: Game, side: str, kind: str, detail: str, now: datetime, key: str | None = None
) -> GameEvent:
    """Add a game-log event (flushed: a repeated ``key`` fails here, inside the transaction)."""
    assert game.id is not None
    ev = GameEvent(game_id=game.id, side=side, kind=kind, key=key, detail=detail, created_at=now)
    s.add(ev)
    s.flush()
    return ev


def notify(
    s: Session,
    settings: Settings,
    game: Game,
    state: engine.GameState,
    side: str,
    event: GameEvent,
    now: datetime,
    *,
    subject: str,
    lines: list[str],
    full: bool = False,
    seats: dict[str, Seat] | None = None,
) -> None:
    """Queue a ``notice`` mail for ``side`` about ``event``."""
    assert game.id is not None
    seats = seats if seats is not None else seats_of(s, game.id)
    queue_mail(
        s,
        settings,
        kind="notice",
        game=game,
        seat=seats[side],
        state=state,
        cause=f"ev{event.id}",
        now=now,
        advance_log=full,
        seats=seats,
        context={"notice": {"subject": subject, "lines": lines, "full": full}},
    )


# --- moves -------------------------------------------------------------------------------------


def bot_sides(seats: dict[str, Seat]) -> set[str]:
    """The computer-played sides (``bot:`` seats): no clock runs for them (pbem.bot_seats)."""
    return {side for side, seat in seats.items() if is_bot(seat.email)}


def sync(s: Session, game: Game, state: engine.GameState, now: datetime) -> None:
    """Bring a running clock in line with the seats and who decides in ``state``.

    For moves the clock did not see (a computer player's, when the game was created or by
    `pbem.bot_seats.catch_up`) and after a seat change: a bot's clock stops, a human who
    must decide and whose clock is stopped starts a new period.
    """
    c = load(game)
    if c is None or game.status != "active":
        return
    assert game.id is not None
    t = now.timestamp()
    model.sync(c, bot_sides(seats_of(s, game.id)), engine.active_sides(state), t)
    store(game, c, t)
    s.add(game)


def after_move(
    s: Session,
    settings: Settings,
    game: Game,
    before: engine.GameState,
    after: engine.GameState,
    mover: str,
    now: datetime,
    *,
    autopilot: bool = False,
    mid: set[str] | None = None,
) -> list[str]:
    """Run the clocks for a move of ``mover``; returns notes for the game log.

    ``mid``: the deciding sides after ``mover``'s own commands when computer players moved
    next (the ``bot-moves`` handler): the mover's decision ended there, even if the bots
    hand the move straight back. A player's own move ends their vacation early (the unused
    days go back).
    """
    t = now.timestamp()
    c = ensure_clock(game, settings, before, t)
    assert game.id is not None
    robots = bot_sides(seats_of(s, game.id))
    c["robots"] = sorted(robots)
    notes = []
    if not autopilot and model.on_vacation(c, mover, t):
        refund = model.end_vacation(c, mover, t)
        record_event(
            s,
            game,
            mover,
            "vacation_end",
            f"{mover.title()} is back from vacation ({fmt_duration(refund)} returned)",
            now,
        )
        notes.append(
            f"your move ends your vacation early: welcome back; {fmt_duration(refund)} "
            "went back to your yearly allowance and the clocks run again"
        )
    if mid is not None:
        model.handover(c, engine.active_sides(before), mid, mover, t, autopilot=autopilot)
        model.handover(c, mid, engine.active_sides(after), None, t)
    else:
        model.handover(
            c,
            engine.active_sides(before),
            engine.active_sides(after),
            mover,
            t,
            autopilot=autopilot,
        )
    if engine.result(after) is not None:
        model.stop_all(c, t)
    else:
        model.sync(c, robots, engine.active_sides(after), t)
    store(game, c, t)
    return notes


def end_game(
    s: Session,
    settings: Settings,
    game: Game,
    state: engine.GameState,
    *,
    winner: str,
    reason: str,
    detail: str,
    now: datetime,
) -> None:
    """End the game outside the rules (timeout or resignation) and mail both the result."""
    game.status, game.ended, game.winner = "over", reason, winner
    game.updated_at = now
    c = load(game)
    if c is not None:
        model.stop_all(c, now.timestamp())
        store(game, c, now.timestamp())
    s.add(game)
    ev = record_event(s, game, other(winner), reason, detail, now, key="end")
    assert game.id is not None
    seats = seats_of(s, game.id)
    for seat in seats.values():
        queue_mail(
            s,
            settings,
            kind="game_over",
            game=game,
            seat=seat,
            state=state,
            cause=f"ev{ev.id}",
            now=now,
            seats=seats,
        )


# --- tick --------------------------------------------------------------------------------------


@dataclass
class TickReport:
    """What one tick did."""

    started: int = 0  # games given the site default clock
    reminders: int = 0
    out_of_time: int = 0
    expired: dict[str, int] = field(default_factory=dict)  # policy -> count
    vacations_over: int = 0
    outage: tuple[float, float] | None = None  # (last tick, this tick) when the guard acted
    credited: int = 0  # games credited the outage gap
    failed: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = []
        if self.outage:
            gap = fmt_duration(self.outage[1] - self.outage[0])
            parts.append(
                f"OUTAGE: no tick for {gap}; {self.credited} game(s) credited the gap, "
                "no expiry in this pass"
            )
        for name, n in (
            ("clocks started", self.started),
            ("reminders", self.reminders),
            ("out of time", self.out_of_time),
            ("vacations over", self.vacations_over),
        ):
            if n:
                parts.append(f"{n} {name}")
        parts += [f"{n} expired ({policy})" for policy, n in sorted(self.expired.items())]
        parts += [f"game {f}" for f in self.failed]
        return "; ".join(parts) or "nothing due"


def _mark_tick(settings: Settings, db: Engine, t: float, report: TickReport) -> None:
    """Record this tick; if the last one is too old, credit every running clock the gap."""
    threshold = parse_duration(settings.outage_threshold, what="PBEM_OUTAGE_THRESHOLD")
    with transaction(db) as s:
        mark = s.get(WorkerState, "tick")
        last = mark.at if mark is not None else None
        if mark is None:
            s.add(WorkerState(name="tick", at=t))
        else:
            mark.at = max(mark.at, t)
            s.add(mark)
        if last is None or t - last <= threshold:
            return
        report.outage = (last, t)
        now = datetime.fromtimestamp(t, utcnow().tzinfo)
        for game in s.exec(
            select(Game).where(Game.status == "active", col(Game.clock).is_not(None))
        ).all():
            c = load(game)
            assert c is not None
            model.credit_gap(c, last, t)
            store(game, c, t)
            s.add(game)
            record_event(
                s,
                game,
                "",
                "outage",
                f"worker outage of {fmt_duration(t - last)}: the gap was not charged to any clock",
                now,
                key=f"outage:{int(last)}",
            )
            report.credited += 1
        log.warning(
            "outage guard: no tick for %s; %d game(s) credited",
            fmt_duration(t - last),
            report.credited,
        )


def worker_pass(
    db: Engine, settings: Settings, read_mail: Callable[[], R], *, now: datetime | None = None
) -> tuple[TickReport, R]:
    """One worker pass (`pbem poll`, each `serve` pass): guard, read the mail, then the clocks.

    The outage guard acts before any move is read, but reminders and expiries come after
    the mail: a move waiting in the inbox when its clock ran out is played, not forfeited
    because the tick happened to run first. After an outage nothing expires in this pass.
    """
    first = tick(db, settings, now=now, acts=False)
    got = read_mail()
    if first.outage is not None:
        return first, got
    report = tick(db, settings, now=now)
    report.started += first.started
    return report, got


def tick(
    db: Engine, settings: Settings, *, now: datetime | None = None, acts: bool = True
) -> TickReport:
    """The clock work: start missing clocks, then send what is due, game by game.

    ``acts=False``: only the outage guard and the missing clocks (`worker_pass`).
    """
    now = now or utcnow()
    t = now.timestamp()
    report = TickReport()
    _mark_tick(settings, db, t, report)
    with Session(db) as s:
        fresh = [
            i
            for i in s.exec(
                select(Game.id).where(  # no clock yet, or a pending one
                    Game.status == "active", col(Game.clock_due).is_(None)
                )
            )
            if i is not None
        ]
        due_ids = [
            i
            for i in s.exec(
                select(Game.id)
                .where(Game.status == "active", col(Game.clock_due) <= t)
                .order_by(col(Game.id))
            )
            if i is not None
        ]
    for game_id in fresh:
        with transaction(db) as s:
            game = lock_game(s, game_id)
            if game is not None and game.snapshot and load(game) is None:
                ensure_clock(game, settings, engine.from_json(game.snapshot), t)
                s.add(game)
                report.started += 1
    if report.outage is not None or not acts:
        return report  # the guard: nothing expires in the first pass after an outage
    for game_id in due_ids:
        try:
            with transaction(db) as s:
                game = lock_game(s, game_id)
                if game is not None and game.status == "active":
                    _game_due(s, settings, game, now, report)
        except Exception as exc:  # one broken game must not stop the others' clocks
            log.exception("tick: game %s failed", game_id)
            report.failed.append(f"#{game_id}: {exc}")
    return report


def _game_due(
    s: Session, settings: Settings, game: Game, now: datetime, report: TickReport
) -> None:
    t = now.timestamp()
    c = load(game)
    if c is None:
        return
    if game.snapshot:  # a bot's clock never runs, whatever moved without the clock seeing it
        model.sync(
            c,
            bot_sides(seats_of(s, game.id or 0)),
            engine.active_sides(engine.from_json(game.snapshot)),
            t,
        )
    for _ in range(20):  # each act may make the next one due (an autopilot move starts a period)
        items = model.due(c, t)
        if not items or game.status != "active":
            break
        for d in items:
            _act(s, settings, game, c, d, now, report)
            if game.status != "active":
                break
    if game.status == "active":
        store(game, c, t)
    s.add(game)


def _act(
    s: Session,
    settings: Settings,
    game: Game,
    c: ClockState,
    d: Due,
    now: datetime,
    report: TickReport,
) -> None:
    state = engine.from_json(game.snapshot)
    sc = c["sides"][d.side]
    control = model.control_of(c)
    seats = seats_of(s, game.id or 0)
    decision = engine.decision(state, d.side)
    if d.kind == "vacation_over":
        until = sc["vac_until"] or 0.0
        model.end_vacation(c, d.side, now.timestamp())
        ev = record_event(
            s,
            game,
            d.side,
            "vacation_end",
            f"{d.side.title()}'s vacation is over",
            now,
            key=f"vacend:{d.side}:{int(until)}",
        )
        for side in SIDES:
            who = "Your" if side == d.side else f"{d.side.title()}'s"
            notify(
                s,
                settings,
                game,
                state,
                side,
                ev,
                now,
                seats=seats,
                subject=f"{who} vacation is over: the clocks run again",
                lines=[
                    f"{who} vacation ended on {model.fmt_time(until, model.tz_of(c, side))}; "
                    "the clocks run again."
                ],
            )
        report.vacations_over += 1
        return
    key = f"{d.label}:{d.side}:{sc['period']}"
    if d.kind == "reminder":
        ev = record_event(
            s,
            game,
            d.side,
            "reminder",
            f"{d.label} reminder: {fmt_duration(d.left)} left",
            now,
            key="remind:" + key,
        )
        zero = model.deadline(c, d.side) or now.timestamp() + d.left
        zone = model.tz_of(c, d.side)
        lines = [
            f"You have {fmt_duration(d.left)} left on your clock, until "
            f"{model.fmt_time(zero, zone)}, to decide: {decision}",
            "Reply to this mail with your move: the legal commands are below."
            + (
                " Away? Reply 'vacation 3d' (or a date) to pause the game."
                if control.vacation and model.vacation_left(c, d.side, now.timestamp()) > 0
                else ""
            ),
        ]
        if control.grace:
            final = model.wall_after(zero, control.grace, control.weekend_pause)
            lines.append(
                f"When your clock runs out you get {fmt_duration(control.grace)} of "
                f"grace, until {model.fmt_time(final, zone)}; if you have not moved by then, "
                f"{_POLICY[control.expiry][0]}."
            )
        else:
            lines.append(f"When your clock runs out, {_POLICY[control.expiry][0]}.")
        notify(
            s,
            settings,
            game,
            state,
            d.side,
            ev,
            now,
            seats=seats,
            subject=f"Reminder: {fmt_duration(d.left)} left on your clock",
            lines=lines,
        )
        report.reminders += 1
    elif d.kind == "out_of_time":
        ev = record_event(
            s,
            game,
            d.side,
            "out_of_time",
            f"out of time; grace {fmt_duration(control.grace)}",
            now,
            key="out:" + key,
        )
        grace_left = fmt_duration(control.grace + d.left)
        end = model.wall_after(
            now.timestamp(), max(control.grace + d.left, 0.0), control.weekend_pause
        )
        grace_end = model.fmt_time(end, model.tz_of(c, d.side))
        notify(
            s,
            settings,
            game,
            state,
            d.side,
            ev,
            now,
            seats=seats,
            subject=f"Your time is up: {grace_left} of grace left",
            lines=[
                f"Your clock has run out. You have {grace_left} of grace, until {grace_end}, "
                f"to decide: {decision}",
                "Reply to this mail with your move: the legal commands are below.",
                f"If you have not moved by then, {_POLICY[control.expiry][0]}.",
            ],
        )
        notify(
            s,
            settings,
            game,
            state,
            other(d.side),
            ev,
            now,
            seats=seats,
            subject=f"{d.side.title()} is out of time",
            lines=[
                f"{d.side.title()}'s clock has run out; they have {grace_left} of grace "
                f"left, until {model.fmt_time(end, model.tz_of(c, other(d.side)))}. "
                "If they have not moved by then, "
                f"{_POLICY[control.expiry][1]}."
            ],
        )
        report.out_of_time += 1
    else:
        _expire(s, settings, game, c, d, state, now, seats, key)
        report.expired[control.expiry] = report.expired.get(control.expiry, 0) + 1
    model.mark(c, d)


_POLICY = {  # what happens when a clock and its grace are out: (to the player, to the opponent)
    "forfeit": ("you lose the game on time", "they lose the game on time and you win"),
    "claim": ("your opponent may claim the win", "you may claim the win"),
    "autopilot": (
        "the server's computer player moves for you",
        "the server's computer player moves for them",
    ),
}


def _expire(
    s: Session,
    settings: Settings,
    game: Game,
    c: ClockState,
    d: Due,
    state: engine.GameState,
    now: datetime,
    seats: dict[str, Seat],
    key: str,
) -> None:
    control = model.control_of(c)
    late, opp = d.side, other(d.side)
    if control.expiry == "forfeit":
        end_game(
            s,
            settings,
            game,
            state,
            winner=opp,
            reason="timeout",
            detail=f"{late.title()} ran out of time; {opp.title()} wins",
            now=now,
        )
        return
    if control.expiry == "claim":
        ev = record_event(
            s,
            game,
            late,
            "claim_offered",
            f"{late.title()} out of time and grace; {opp.title()} may claim the win",
            now,
            key="expire:" + key,
        )
        notify(
            s,
            settings,
            game,
            state,
            opp,
            ev,
            now,
            seats=seats,
            subject=f"{late.title()} is out of time: you may claim the win",
            lines=[
                f"{late.title()}'s clock and grace have run out. Reply with the line "
                "'claim' to win the game on time, or do nothing and wait: the claim stays "
                f"open until {late.title()} moves."
            ],
        )
        notify(
            s,
            settings,
            game,
            state,
            late,
            ev,
            now,
            seats=seats,
            subject="Out of time: your opponent may claim the win",
            lines=[
                f"Your clock and grace have run out: {opp.title()} may now claim the win "
                f"at any moment. Move now to play on: {engine.decision(state, late)}"
            ],
        )
        return
    _autopilot(s, settings, game, c, late, state, now, seats, key)


def _autopilot(
    s: Session,
    settings: Settings,
    game: Game,
    c: ClockState,
    side: str,
    state: engine.GameState,
    now: datetime,
    seats: dict[str, Seat],
    key: str,
) -> None:
    """Play ``side``'s decision with the computer player, record the moves, report to both.

    A computer-played opponent answers at once (`pbem.bot_seats.play_bots`), as after a mail.
    """
    from sqlalchemy import func

    from pbem.bot_seats import play_bots
    from pbem.fairplay.games import engine_seed_of

    assert game.id is not None
    after, played = play_for(state, side, engine_seed_of(s, game), game.id)
    seq = s.exec(select(func.max(Move.seq)).where(Move.game_id == game.id)).one() or 0
    for i, cmd in enumerate(played):
        s.add(
            Move(
                game_id=game.id,
                seq=seq + i + 1,
                side=side,
                command=cmd,
                created_at=now,
                source="autopilot",
            )
        )
    detail = f"autopilot ({KIND} player) for {side.title()}: " + (
        "; ".join(played) or "nothing legal"
    )
    ev = record_event(s, game, side, "autopilot", detail, now, key="expire:" + key)
    t = now.timestamp()
    mid = engine.active_sides(after)
    s.flush()
    replies = [m.command for m in play_bots(s, settings, game, after, seats, now)]
    model.handover(c, engine.active_sides(state), mid, side, t, autopilot=True)
    model.handover(c, mid, engine.active_sides(after), None, t)
    game.snapshot = engine.to_json(after)
    game.version += 1
    game.updated_at = now
    if engine.result(after) is not None:
        game.status = "over"
        model.stop_all(c, t)
    else:
        model.sync(c, bot_sides(seats), engine.active_sides(after), t)
    store(game, c, t)
    for seat in seats.values():
        refresh_key(seat, after)
    moves = "; ".join(played) or "nothing"
    grace = (
        f" and {fmt_duration(model.control_of(c).grace)} of grace"
        if model.control_of(c).grace
        else ""
    )
    for target in SIDES:
        mine = target == side
        if mine:
            lines = [
                f"Your clock{grace} ran out, so the server's computer player moved for you "
                f"(this game's expiry policy is autopilot). It played: {moves}.",
                "Your next decisions get only the increment of time each, so answer soon: "
                "any move you send yourself plays on as usual.",
            ]
        else:
            lines = [
                f"{side.title()}'s clock{grace} ran out, so the server's computer player "
                f"moved for them (this game's expiry policy is autopilot). It played: {moves}."
            ]
        if replies:
            lines.append("The computer opponent answered: " + "; ".join(replies) + ".")
        if game.status == "over":
            queue_mail(
                s,
                settings,
                kind="game_over",
                game=game,
                seat=seats[target],
                state=after,
                cause=f"ev{ev.id}",
                now=now,
                seats=seats,
            )
        else:
            notify(
                s,
                settings,
                game,
                after,
                target,
                ev,
                now,
                seats=seats,
                full=True,
                subject=(
                    "Out of time: the computer played for you"
                    if mine
                    else f"{side.title()} ran out of time: the computer played for them"
                ),
                lines=lines,
            )


def clocks_of(game: Game, now: float) -> dict[str, dict[str, Any]] | None:
    """Per side: seconds left, running, on vacation until — for `pbem games` / `pbem show`."""
    c = load(game)
    if c is None or not model.control_of(c).enabled:
        return None
    return {
        side: {
            "left": model.left(c, side, now),
            "running": sc["since"] is not None,
            "vacation": sc["vac_until"] if model.on_vacation(c, side, now) else None,
            "vacation_left": model.vacation_left(c, side, now),
        }
        for side, sc in c["sides"].items()
    }


def clock_line(game: Game, now: datetime) -> str:
    """``kennedy on the move 1 d 2 h, 2 d 4 h left; nixon 5 d left`` for `pbem games`."""
    c = load(game)
    if c is None or not model.control_of(c).enabled:
        return "" if c is None else "none"
    if game.ended and game.winner:
        return f"{game.winner} won {report.WHY.get(game.ended, game.ended)}"
    return _clocks_text(c, now)


def _clocks_text(c: ClockState, now: datetime) -> str:
    t = now.timestamp()
    parts = []
    for side, sc in c["sides"].items():
        remaining = model.left(c, side, t)
        text = (
            f"{fmt_duration(remaining)} left"
            if remaining > 0
            else f"OVER by {fmt_duration(-remaining)}"
        )
        if sc["since"] is not None and sc.get("started") is not None:
            text = f"on the move {fmt_duration(t - float(sc['started'] or t))}, {text}"
        if model.on_vacation(c, side, t):
            text += f", on vacation until {model.fmt_time(sc['vac_until'] or t)}"
        parts.append(f"{side} {text}")
    return "; ".join(parts)


def show_text(game: Game, now: datetime) -> str:
    """The clock block of `pbem show`: control, both clocks, the latest clock and seat events."""
    c = load(game)
    if c is None:
        return "\nClock: not started yet (the next tick starts the site default)"
    lines = ["", "Clock: " + model.control_of(c).describe()]
    if model.control_of(c).enabled:
        lines += [f"  {part}" for part in _clocks_text(c, now).split("; ")]
    if game.ended:
        lines.append(f"Ended: {game.ended}, {game.winner} wins")
    return "\n".join(lines)


def events_of(db: Engine, game_id: int) -> list[GameEvent]:
    """The game's clock and seat events in order (for `pbem log`)."""
    with Session(db) as s:
        return list(
            s.exec(
                select(GameEvent).where(GameEvent.game_id == game_id).order_by(col(GameEvent.id))
            )
        )
