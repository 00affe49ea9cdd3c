"""The pipeline's own rows written with SQLAlchemy Core: the mail's record and its moves.

Every mail inserts its `InboundMessage` row at ``dedupe`` and writes it once more at the end,
and an applied mail appends its `Move` rows. Through the ORM that was an object built and
validated per row, a SAVEPOINT, an INSERT and up to three UPDATEs of the record (each handler
that learnt its game or outcome set an attribute, and the next query flushed it), and a unit of
work per flush. Here the statements are built once per dialect (their cache keys and compiled
forms are then reused) and run on the session's connection: in the same transaction, and no
autoflush (a Core statement on a table never flushes the session).

The record lives in the mail's `Context` as an `InboundRow` (not an ORM object), so nothing
but `finish_inbound` writes it after the insert.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import Table, bindparam, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Session

from pbem.pipeline.base import InboundRow
from pbem.store.models import InboundMessage, Move, OutboxMessage

__all__ = [
    "finish_inbound",
    "insert_inbound",
    "insert_moves",
    "last_move_seq",
    "report_texts",
]

INBOUND: Table = InboundMessage.__table__  # type: ignore[attr-defined]
MOVE: Table = Move.__table__  # type: ignore[attr-defined]
OUTBOX: Table = OutboxMessage.__table__  # type: ignore[attr-defined]


@cache
def _insert_inbound(dialect: str) -> Any:
    """INSERT that does nothing on a known dedupe key or IMAP UID (both unique): no exception,
    so no SAVEPOINT, and no SELECT before it (the unique indexes are the dedupe check).
    The dialect's own INSERT is imported for the dialect in use: PostgreSQL's module costs
    ~40 ms of a SQLite process's start-up."""
    if dialect == "postgresql":
        return pg_insert(INBOUND).on_conflict_do_nothing().returning(INBOUND.c.id)

    # (RETURNING needs SQLite 3.35: the new row's id is the cursor's lastrowid)
    return sqlite_insert(INBOUND).on_conflict_do_nothing()


_FINISH = (
    update(INBOUND)
    .where(INBOUND.c.id == bindparam("b_id"))
    .values(
        game_id=bindparam("b_game_id"),
        side=bindparam("b_side"),
        outcome=bindparam("b_outcome"),
        detail=bindparam("b_detail"),
    )
)
_REPORT_TEXTS = (
    select(OUTBOX.c.text)
    .where(OUTBOX.c.game_id == bindparam("b_game_id"), OUTBOX.c.side == bindparam("b_side"))
    .order_by(OUTBOX.c.id.desc())
    .limit(bindparam("b_limit"))
)
_LAST_SEQ = select(func.max(MOVE.c.seq)).where(MOVE.c.game_id == bindparam("b_game_id"))
_INSERT_MOVE = insert(MOVE)


def insert_inbound(session: Session, row: InboundRow, values: dict[str, Any]) -> bool:
    """Insert the mail's record (``values``: the other columns); False if it is known already
    (same dedupe key or same mailbox, UIDVALIDITY and UID). Sets ``row.id``."""
    conn = session.connection()
    params = {
        **values,
        "dedupe_key": row.dedupe_key,
        "content_hash": row.content_hash,
        "outcome": row.outcome,
        "game_id": row.game_id,
        "side": row.side,
        "detail": row.detail,
    }
    result = conn.execute(_insert_inbound(conn.dialect.name), params)
    if conn.dialect.name == "postgresql":
        row.id = result.scalar()
        return row.id is not None
    if result.rowcount != 1:
        return False
    row.id = result.lastrowid
    return True


def finish_inbound(session: Session, row: InboundRow) -> None:
    """Write the record's game, side, outcome and detail: one UPDATE at the end of the mail."""
    session.connection().execute(
        _FINISH,
        {
            "b_id": row.id,
            "b_game_id": row.game_id,
            "b_side": row.side,
            "b_outcome": row.outcome,
            "b_detail": row.detail,
        },
    )


def report_texts(session: Session, game_id: int, side: str, limit: int = 60) -> list[str]:
    """The text of the latest ``limit`` mails queued to a seat, newest first (those still
    pending in the session flushed first, as the ORM's autoflush would)."""
    if any(isinstance(obj, OutboxMessage) for obj in session.new):
        session.flush()
    found = session.connection().execute(
        _REPORT_TEXTS, {"b_game_id": game_id, "b_side": side, "b_limit": limit}
    )
    return [str(text) for text in found.scalars()]


def last_move_seq(session: Session, game_id: int) -> int:
    """The game's highest move number (0 before its first move), counting `Move` objects
    still pending in the session (flushed first, as the ORM's autoflush would)."""
    if any(isinstance(obj, Move) for obj in session.new):
        session.flush()
    found = session.connection().execute(_LAST_SEQ, {"b_game_id": game_id}).scalar()
    return int(found or 0)


def insert_moves(
    session: Session,
    game_id: int,
    first_seq: int,
    moves: Sequence[tuple[str, str]],
    *,
    inbound_id: int | None,
    now: datetime,
    sources: Sequence[str] = (),
) -> None:
    """Append ``moves`` (side, canonical command) as seq ``first_seq``, ``first_seq + 1``, …;
    ``sources``: each move's `Move.source` where it is not ``mail``."""
    if not moves:
        return
    session.connection().execute(
        _INSERT_MOVE,
        [
            {
                "game_id": game_id,
                "seq": first_seq + n,
                "side": side,
                "command": command,
                "inbound_id": inbound_id,
                "created_at": now,
                "source": sources[n] if n < len(sources) else "mail",
            }
            for n, (side, command) in enumerate(moves)
        ],
    )
