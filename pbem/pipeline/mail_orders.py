"""A mail's orders (notify, standing, then, cancel lines) stored in the seat's order book.

The ``orders`` stage stores a mail of settings alone at once; a mail with game lines has them
stored by ``autoplay``, only once its game lines applied (all or nothing).
"""

from __future__ import annotations

from pbem.games import notify, orders
from pbem.pipeline.base import Context


def store_orders(ctx: Context) -> None:
    """Store the mail's orders (``ctx.orders``) in the seat's order book; each line is
    confirmed among the mail's results (a mail of settings alone gets them in its status mail)."""
    assert ctx.seat is not None and ctx.orders is not None
    row = ctx.seat_orders_of()[ctx.side]
    book = orders.book_of(row, ctx.side)
    notify.apply_mail_orders(row, book, ctx.orders, ctx.now)
    orders.store_book(row, book)
    ctx.session.add(row)
    ctx.results.extend(dict(a) for a in ctx.orders.answers)
