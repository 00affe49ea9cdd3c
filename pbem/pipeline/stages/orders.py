"""The ``orders`` stage: take the notify, standing, then and cancel lines out of the mail.

A mail with game lines has them stored by ``autoplay``, only if its game lines apply (all or
nothing); a mail of settings alone is stored and answered at once with a status mail that
confirms them. A ``then`` line sent while it is the player's move is played now.
"""

from __future__ import annotations

import engine
from pbem.games import notify, orders
from pbem.pipeline.answers import meta_request
from pbem.pipeline.base import Answered, Context, RejectMessage, Stage
from pbem.pipeline.mail_orders import store_orders
from pbem.server_words import SERVER_WORDS, words_of


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
    store_orders(ctx)
    _confirm(ctx)
    ctx.lines = [line for line in ctx.lines if line.strip().lower() != "status"]
    if not ctx.lines:
        raise Answered("answered " + ", ".join(a["line"] for a in mail.answers))


STAGE = Stage(
    "orders",
    f"take {' / '.join(words_of('orders'))} lines (preferences and the queue)",
    read_orders,
)


def _confirm(ctx: Context) -> None:
    """A status mail that says what the settings lines did."""
    assert ctx.game is not None and ctx.seat is not None and ctx.state is not None
    assert ctx.inbound is not None and ctx.parsed is not None and ctx.orders is not None
    row = ctx.seat_orders_of()[ctx.side]
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
        seats=ctx.seats,
        answers=ctx.orders.answers,
        in_reply_to=ctx.parsed.message_id,
        advance_log=False,
    )
