"""The ``autoplay`` stage: store the mail's orders; apply queued, standing and forced commands.

After ``apply``: the mail's orders are stored (`pbem.pipeline.mail_orders`), then
`pbem.games.orders.settle` applies queued, standing and forced commands for either human side
until someone must be asked; ``record`` logs them as ordinary moves. A computer-played seat has
no orders: it decides every question itself, with its reason (``bot-moves``).
"""

from __future__ import annotations

from pbem.games import orders
from pbem.games.bots import is_bot
from pbem.pipeline.base import Context, Stage
from pbem.pipeline.mail_orders import store_orders


def autoplay(ctx: Context) -> None:
    assert ctx.game is not None and ctx.new_state is not None
    if ctx.orders is not None:
        store_orders(ctx)
    rows = {
        side: row for side, row in ctx.seat_orders_of().items() if not is_bot(ctx.seats[side].email)
    }
    books = {side: orders.book_of(row, side) for side, row in rows.items()}
    if ctx.kept:  # answers ahead for later questions: first in the queue, each waits for its own
        books[ctx.side].queue = [*ctx.kept, *books[ctx.side].queue]
    ctx.auto = orders.settle(ctx.new_state, books)
    for side, row in rows.items():
        orders.store_book(row, books[side])
        if row not in ctx.session:  # `book_row` added the new ones; the others are loaded
            ctx.session.add(row)


STAGE = Stage(
    "autoplay", "store the mail's orders; apply queued, standing and forced commands", autoplay
)
