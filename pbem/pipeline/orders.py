"""Handlers for a mail's orders: notify/standing/then/cancel lines, and the server's own moves.

``orders`` (after ``extract``) takes the notify, standing, then and cancel lines out of the
mail. A mail with game lines stores them only if its game lines apply (all or nothing); a mail
of settings alone is answered at once with a status mail that confirms them. ``autoplay``
(after ``apply``) stores the settings, then lets `pbem.games.orders.settle` apply queued, standing
and forced commands for either side until someone must be asked.
"""

from __future__ import annotations

import engine
from pbem.games import notify, orders
from pbem.outbox.queue import seats_of
from pbem.pipeline.base import Answered, Context, RejectMessage, handler
from pbem.pipeline.commands import meta_request
from pbem.server_words import SERVER_WORDS, words_of


@handler("orders", f"take {' / '.join(words_of('orders'))} lines (preferences and the queue)")
def read_orders(ctx: Context) -> None:
    assert ctx.state is not None
    try:
        mail = orders.read_mail(ctx.lines)
    except orders.OrdersError as exc:
        raise RejectMessage(str(exc)) from None
    if not mail.anything:
        return
    ctx.orders, ctx.lines = mail, mail.now
    if any(
        line.strip().lower() not in SERVER_WORDS and not meta_request(line) for line in ctx.lines
    ):
        return  # stored with the moves, in `autoplay`
    if mail.queue and ctx.side in engine.active_sides(ctx.state):
        ctx.lines.insert(0, mail.queue.pop(0))  # 'then' first while it is your move: play it now
        return
    _store(ctx)
    _confirm(ctx)
    ctx.lines = [line for line in ctx.lines if line.strip().lower() != "status"]
    if not ctx.lines:
        raise Answered("answered " + ", ".join(a["line"] for a in mail.answers))


def _store(ctx: Context) -> None:
    assert ctx.seat is not None and ctx.orders is not None
    row = orders.book_row(ctx.session, ctx.seat)
    book = orders.book_of(row, ctx.side)
    notify.apply_mail_orders(row, book, ctx.orders, ctx.now)
    orders.store_book(row, book)
    ctx.session.add(row)


def _confirm(ctx: Context) -> None:
    """A status mail that says what the settings lines did."""
    assert ctx.game is not None and ctx.seat is not None and ctx.state is not None
    assert ctx.inbound is not None and ctx.parsed is not None and ctx.orders is not None
    row = orders.book_row(ctx.session, ctx.seat)
    notify.mail_seat(
        ctx.session,
        ctx.settings,
        kind="status",
        game=ctx.game,
        seat=ctx.seat,
        row=row,
        state=ctx.state,
        cause=f"in{ctx.inbound.id}",
        now=ctx.now,
        seats=seats_of(ctx.session, ctx.game.id or 0),
        answers=ctx.orders.answers,
        in_reply_to=ctx.parsed.message_id,
        advance_log=False,
    )


@handler("autoplay", "store the mail's orders; apply queued, standing and forced commands")
def autoplay(ctx: Context) -> None:
    assert ctx.game is not None and ctx.new_state is not None
    if ctx.orders is not None:
        _store(ctx)
    seats = seats_of(ctx.session, ctx.game.id or 0)
    rows = orders.book_rows(ctx.session, seats)
    books = {side: orders.book_of(row, side) for side, row in rows.items()}
    ctx.auto = orders.settle(ctx.new_state, books)
    for side, row in rows.items():
        orders.store_book(row, books[side])
        if row not in ctx.session:  # `book_row` added the new ones; the others are loaded
            ctx.session.add(row)
