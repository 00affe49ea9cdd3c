"""The clocks' tick: start missing clocks, then act on what is due (reminders, expiry, outage guard).

`tick` is idempotent: every act (a reminder, an out-of-time notice, an expiry)
is recorded in the clock JSON's ``done`` list, as a `GameEvent` with a unique
key, and as outbox rows — all in the one transaction of its game, which holds
the game row (``BEGIN IMMEDIATE`` on SQLite, ``FOR UPDATE`` on PostgreSQL).
A second tick running at the same time waits, then finds nothing due; a crash
before the commit records nothing, a crash after it leaves the mails in the
outbox with their deterministic Message-IDs for the next drain. `notify` is looked up
in this module by the reminder and out-of-time notices (a test patches it here).
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

import engine
from engine.data import other
from pbem.clocks import model
from pbem.clocks.control import fmt_duration
from pbem.clocks.model import ClockState, Due
from pbem.config import Settings
from pbem.games.timekeeping.expiry import expire
from pbem.games.timekeeping.moves import bot_sides
from pbem.games.timekeeping.outage import TickReport, mark_tick
from pbem.games.timekeeping.records import ensure_clock, load, notify, record_event, store
from pbem.outbox.queue import seats_of
from pbem.store.db import lock_game, transaction
from pbem.store.models import Game, utcnow

log = logging.getLogger("pbem.clocks")
SIDES = model.SIDES


def tick(
    db: Engine, settings: Settings, *, now: datetime | None = None, acts: bool = True
) -> TickReport:
    """The clock work: start missing clocks, then send what is due, game by game.

    ``acts=False``: only the outage guard and the missing clocks (the guard of a worker pass,
    `pbem.worker.worker_pass`, before any move is read).
    """
    now = now or utcnow()
    t = now.timestamp()
    report = TickReport()
    mark_tick(settings, db, t, report)
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
        store(game, c)
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
        model.mark(c, d)  # first: the autopilot may start the side's next period, unmarked
        expire(s, settings, game, c, d, state, now, seats, key)
        report.expired[control.expiry] = report.expired.get(control.expiry, 0) + 1
        return
    model.mark(c, d)


_POLICY = {  # what happens when a clock and its grace are out: (to the player, to the opponent)
    "forfeit": ("you lose the game on time", "they lose the game on time and you win"),
    "claim": ("your opponent may claim the win", "you may claim the win"),
    "autopilot": (
        "the server's computer player moves for you",
        "the server's computer player moves for them",
    ),
}
