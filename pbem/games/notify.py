"""When a player is mailed, and what a decision mail carries.

Each seat has a notify mode (`pbem.store.models.SeatOrders.notify`):

- ``decisions`` (default): a mail when the seat must decide and has not been mailed this
  decision yet, when the game ends, and when the seat's own mail was rejected or answered;
  never after each of the opponent's steps; an applied mail of the seat's that gets no report
  gets a short receipt unless the seat said ``notify receipts off`` (`pbem.games.receipts`);
- ``every``: a mail to both seats after every applied mail (the old behaviour);
- ``digest``: one mail a day at the seat's hour (UTC) with everything since the last one and
  the decision if any (`pbem.games.digest.digest_pass`, called by the worker every pass with the time), plus
  the game's end at once.

A seat's mode never delays the other seat's mail: each seat is decided on its own, so an
opponent's simultaneous choice (strategy, debate pick) is mailed as soon as it is theirs.
A decision mail summarises everything since the seat's previous decision (`pbem.reports.summary`).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session

import engine
from pbem.config import Settings
from pbem.games import orders
from pbem.games.mailing import queue_mail
from pbem.games.receipts import queue_receipt, wants_receipts
from pbem.outbox.queue import refresh_key, seats_of
from pbem.reports import summary
from pbem.store.db import transaction
from pbem.store.models import Game, OutboxMessage, Seat, SeatOrders

__all__ = [
    "apply_mail_orders",
    "mail_seat",
    "mark_decided",
    "queue_reports",
    "set_notify",
    "set_standing",
    "should_mail",
    "start_orders",
]


def should_mail(mode: str, *, over: bool, deciding: bool, mine: bool, unmailed: bool) -> bool:
    """Whether a seat gets a report after an applied mail (``mine``: it sent that mail)."""
    if over or mode == "every":
        return True
    if mode == "digest":
        return False
    return deciding and (mine or unmailed)


def extra_for(
    state: engine.GameState,
    seat: Seat,
    row: SeatOrders,
    *,
    decision: bool,
    answers: list[dict[str, Any]] | None = None,
    view: engine.View | None = None,
) -> dict[str, Any]:
    """The summary/orders template data for one mail to ``seat`` (and its ``since`` mark);
    ``view``: ``engine.view(state, seat.side)`` if the caller holds it."""
    book = orders.book_of(row, seat.side)
    return summary.build(
        state,
        seat.side,
        since=row.decided_log if decision else seat.last_log,
        decision=decision,
        before_board=row.decided_board,
        notify=row.notify,
        digest_hour=row.digest_hour,
        standing=book.standing.describe(),
        standing_default=book.standing.is_default(),
        queue=book.queue,
        notes=book.notes,
        answers=answers or [],
        view=view,
    )


def mail_seat(
    session: Session,
    settings: Settings,
    *,
    kind: str,
    game: Game,
    seat: Seat,
    row: SeatOrders,
    state: engine.GameState,
    cause: str,
    now: datetime,
    seats: dict[str, Seat],
    answers: list[dict[str, Any]] | None = None,
    **kw: Any,
) -> OutboxMessage | None:
    """Queue one mail for ``seat`` with its summary; the notes it shows are then cleared.

    None for a computer-played seat (``bot:…``), which is never mailed."""
    decision = seat.side in engine.active_sides(state) and engine.result(state) is None
    view = engine.view(state, seat.side)  # one view for the summary and the mail
    extra = extra_for(state, seat, row, decision=decision, answers=answers, view=view)
    since = row.decided_log if decision else seat.last_log
    out = queue_mail(
        session,
        settings,
        kind=kind,
        game=game,
        seat=seat,
        state=state,
        cause=cause,
        now=now,
        seats=seats,
        since=since,
        extra=extra,
        view=view,
        **kw,
    )
    row.notes = "[]"
    if decision or engine.result(state) is not None:
        row.mailed_sig = seat.decision_sig
    session.add(row)
    return out


def mark_decided(row: SeatOrders, before: engine.GameState) -> None:
    """The seat decided: its next decision mail summarises from ``before`` (this mail's position)."""
    row.decided_log = len(before["log"])
    row.decided_board = json.dumps(engine.public_board(before), separators=(",", ":"))


def start_orders(session: Session, seats: dict[str, Seat], state: engine.GameState) -> None:
    """A new game: every seat's orders row, its summaries starting at the opening position."""
    for seat in seats.values():
        row = orders.book_row(session, seat)
        mark_decided(row, state)
        session.add(row)


def queue_reports(ctx: Any) -> None:
    """The ``report`` stage: mail each seat that should hear of this mail (see the docstring)."""
    game, g = ctx.game, ctx.new_state
    assert game is not None and g is not None and ctx.seat is not None and ctx.state is not None
    s = ctx.session
    over = game.status == "over"
    kind = "game_over" if over else "report"
    seats, rows = ctx.seats, ctx.seat_orders_of()
    mark_decided(rows[ctx.side], ctx.state)
    active = engine.active_sides(g)
    for side, seat in sorted(seats.items()):
        refresh_key(seat, g)
        row, mine = rows[side], side == ctx.side
        if side not in active and row.mailed_sig:
            row.mailed_sig = ""  # the decision it was mailed is gone (an undo may bring back
            s.add(row)  # the very same question: that one is new and is mailed)
        if not should_mail(
            row.notify,
            over=over,
            deciding=side in active,
            mine=mine,
            unmailed=seat.decision_sig != row.mailed_sig,
        ):
            s.add(seat)
            if mine and not ctx.meta and wants_receipts(row):  # no silence after a move
                queue_receipt(
                    s,
                    ctx.settings,
                    game=game,
                    seat=seat,
                    row=row,
                    state=g,
                    results=ctx.results,
                    auto=ctx.auto,
                    cause=f"v{game.version}",
                    now=ctx.now,
                    in_reply_to=ctx.parsed.message_id,
                    seats=seats,
                )
            continue
        mail_seat(
            s,
            ctx.settings,
            kind=kind,
            game=game,
            seat=seat,
            row=row,
            state=g,
            cause=f"v{game.version}",
            now=ctx.now,
            seats=seats,
            results=ctx.results if mine else (),
            ignored=ctx.ignored if mine else (),
            in_reply_to=ctx.parsed.message_id if mine else None,
        )


# --- settings ---------------------------------------------------------------------------------


def apply_mail_orders(
    row: SeatOrders, book: orders.Book, mail: orders.MailOrders, now: datetime
) -> None:
    """Store what a mail's notify/standing/then/cancel lines say (the mail applied)."""
    if mail.notify is not None:
        mode, hour = mail.notify
        if mode == "digest" and row.notify != "digest":
            row.digest_at = now  # the first digest comes at the next digest hour
        row.notify = mode
        if hour is not None:
            row.digest_hour = hour
    for order, values in mail.standing:
        book.standing = orders.apply_standing(book.standing, order, values)
    if mail.receipts is not None:
        book.standing.receipts = "on" if mail.receipts else "off"
    if mail.cancel:
        book.queue = []
    if mail.queue is not None:
        book.queue = list(mail.queue)


def _seat_row(s: Session, game_id: int, side: str) -> tuple[Seat, SeatOrders]:
    seat = seats_of(s, game_id).get(side)
    if seat is None:
        raise ValueError(f"game {game_id} has no {side} seat")
    return seat, orders.book_row(s, seat)


def set_notify(
    db: Engine, game_id: int, side: str, mode: str, hour: int | None = None, *, now: datetime
) -> str:
    """Operator/CLI: set a seat's notify mode; returns what it is now."""
    line = f"notify {mode}" + (f" {hour}" if hour is not None else "")
    mail = orders.read_mail([line])
    with transaction(db) as s:
        _, row = _seat_row(s, game_id, side)
        book = orders.book_of(row, side)
        apply_mail_orders(row, book, mail, now)
        orders.store_book(row, book)
        s.add(row)
        return f"game {game_id} {side}: {mail.answers[0]['message']}"


def set_standing(db: Engine, game_id: int, side: str, words: list[str]) -> list[str]:
    """Operator/CLI: one ``standing`` order for a seat; returns the seat's standing orders."""
    mail = orders.read_mail([" ".join(["standing", *words])])
    with transaction(db) as s:
        _, row = _seat_row(s, game_id, side)
        book = orders.book_of(row, side)
        for order, values in mail.standing:
            book.standing = orders.apply_standing(book.standing, order, values)
        orders.store_book(row, book)
        s.add(row)
        return book.standing.describe()
