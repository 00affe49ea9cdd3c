"""Table talk and notices for a player's next mail (``say``, "move taken back"), and the
question each reply key was issued for (replies to an older report, `KeyQuestion`, its table in `pbem.store.models`).

A row is written when the mail that carries it is applied (same transaction) and shown once,
in the next mail rendered for its recipient (`pbem.outbox.queue.queue_mail` takes the undelivered
rows and marks them delivered).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Session, col, select

from pbem.store.models import KeyQuestion, TableTalk

__all__ = ["asked_under", "post", "remember_question", "take"]

MAX_TALK_CHARS = 2000  # one mail's table talk, at most


def post(
    session: Session,
    game_id: int,
    *,
    to_side: str,
    from_side: str,
    kind: str,
    text: str,
    now: datetime,
) -> None:
    """Add a message for *to_side*'s next mail."""
    session.add(
        TableTalk(
            game_id=game_id,
            to_side=to_side,
            from_side=from_side,
            kind=kind,
            text=text[:MAX_TALK_CHARS],
            created_at=now,
        )
    )


def take(session: Session, game_id: int, side: str, now: datetime) -> list[dict[str, str]]:
    """The undelivered messages for *side*, oldest first, marked delivered now."""
    rows = session.exec(
        select(TableTalk)
        .where(
            TableTalk.game_id == game_id,
            TableTalk.to_side == side,
            col(TableTalk.delivered_at).is_(None),
        )
        .order_by(col(TableTalk.id))
    ).all()
    out = []
    for row in rows:
        row.delivered_at = now
        session.add(row)
        out.append({"kind": row.kind, "from": row.from_side.title(), "text": row.text})
    return out


def remember_question(
    session: Session, game_id: int, side: str, key_gen: int, question: str
) -> None:
    """Record the question asked under *key_gen* (the first mail with that key asks it; a
    later one with the same key leaves the row as it is)."""
    insert = sqlite_insert if session.get_bind().dialect.name == "sqlite" else pg_insert
    values = {"game_id": game_id, "side": side, "key_gen": key_gen, "question": question}
    keys = ["game_id", "side", "key_gen"]
    session.execute(insert(KeyQuestion).values(values).on_conflict_do_nothing(index_elements=keys))


def asked_under(session: Session, game_id: int, side: str, key_gen: int) -> str | None:
    row = session.get(KeyQuestion, (game_id, side, key_gen))
    return row.question if row is not None else None
