"""Re-sent mail: the same game lines under the same reply key are one decision, applied once.

Mail clients send a mail again under a new Message-ID (a second press of Send, an outbox that
retried after a timeout, a phone that lost the first upload), so the ``dedupe`` stage, which
knows a mail by its Message-ID, sees a new mail. A reply to an older report is still applied
while its question is the one being asked (``check-fresh``: ``support OH`` one point at a
time), so such a copy would be applied twice.

A mail's *game lines* are its command lines other than ``help``/``status``/``card``/``history``
(and ``undo`` when it leads), read as the pipeline read them. When a mail is applied, its
lines' fingerprint is kept with the seat and the key generation it answered (`KeyAnswer`,
`remember`); a later mail from that seat with the same lines under the same key is a re-sent
copy (`earlier`), whatever its Message-ID. A mail with other lines, or the same lines under a
newer key (a reply to a newer report), is a new decision.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

from sqlalchemy import update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import col

from pbem.pipeline.answers import meta_request
from pbem.pipeline.base import Context
from pbem.store.models import KeyAnswer

__all__ = ["count_repeat", "earlier", "fingerprint", "remember"]


def fingerprint(ctx: Context) -> str | None:
    """sha256 of the mail's game lines (case and spacing folded), or None if it has none."""
    lines = [" ".join(line.lower().split()) for line in ctx.lines if not meta_request(line)]
    if ctx.undo:
        lines.insert(0, "undo")
    if not lines:
        return None
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def earlier(ctx: Context, lines: str) -> KeyAnswer | None:
    """The applied mail of this seat with these game lines under the mail's key, if any."""
    assert ctx.key is not None and ctx.seat is not None
    return ctx.session.get(KeyAnswer, (ctx.seat.game_id, ctx.seat.side, ctx.key.gen, lines))


def count_repeat(ctx: Context, found: KeyAnswer) -> None:
    """One more copy of ``found`` received (one UPDATE; the ORM row is left as read)."""
    ctx.session.connection().execute(
        update(KeyAnswer)
        .where(
            col(KeyAnswer.game_id) == found.game_id,
            col(KeyAnswer.side) == found.side,
            col(KeyAnswer.key_gen) == found.key_gen,
            col(KeyAnswer.lines) == found.lines,
        )
        .values(repeats=col(KeyAnswer.repeats) + 1)
    )


def remember(ctx: Context) -> None:
    """Keep the applied mail's game lines under its key (nothing without key or game lines)."""
    lines = fingerprint(ctx)
    if ctx.key is None or ctx.seat is None or ctx.inbound is None or lines is None:
        return
    conn = ctx.session.connection()
    conn.execute(
        _insert(conn.dialect.name),
        {
            "game_id": ctx.seat.game_id,
            "side": ctx.seat.side,
            "key_gen": ctx.key.gen,
            "lines": lines,
            "inbound_id": ctx.inbound.id,
            "repeats": 0,
        },
    )


@cache
def _insert(dialect: str) -> Any:
    """INSERT that does nothing when the row exists (the game's lock makes that rare: two
    mails of one seat under one key are checked one after the other)."""
    table = KeyAnswer.__table__  # type: ignore[attr-defined]
    if dialect == "postgresql":
        return pg_insert(table).on_conflict_do_nothing()

    return sqlite_insert(table).on_conflict_do_nothing()
