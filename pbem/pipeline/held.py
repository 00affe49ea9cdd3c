"""Operator views over held moves (`pbem held`): list, release (apply now), drop.

A held move's mail is kept whole in `HeldMessage`. Releasing it deletes the hold and its
inbound record and runs the mail through the pipeline again without ``check-auth`` (the
operator vouches for the sender), so it is applied exactly as if it had just arrived; if the
position moved on meanwhile its key is stale and the player is told so, as usual.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from pbem.config import Settings
from pbem.pipeline.runner import STAGES, Outcome, process_message
from pbem.pipeline.stages import check_auth
from pbem.store.db import transaction
from pbem.store.models import HeldMessage, InboundMessage

__all__ = ["HeldNotFound", "drop", "list_held", "release"]


class HeldNotFound(LookupError):
    """No held move with that id."""


def list_held(db: Engine) -> list[HeldMessage]:
    """Every held move, oldest first."""
    with Session(db) as s:
        return list(s.exec(select(HeldMessage).order_by(col(HeldMessage.id))))


def _take(db: Engine, held_id: int, outcome: str) -> HeldMessage:
    with transaction(db) as s:
        row = s.get(HeldMessage, held_id)
        if row is None:
            raise HeldNotFound(f"no held move #{held_id} (see `pbem held`)")
        inbound = s.get(InboundMessage, row.inbound_id) if row.inbound_id else None
        s.delete(row)
        s.flush()
        if inbound is not None:
            if outcome == "released":
                s.delete(inbound)  # so the mail is not a duplicate of itself
            else:
                inbound.outcome = outcome
                s.add(inbound)
        return row


def release(
    db: Engine, settings: Settings, held_id: int, *, now: datetime | None = None
) -> Outcome:
    """Apply a held move now, as if it had just arrived (without the authentication check)."""
    row = _take(db, held_id, "released")
    return process_message(
        db,
        settings,
        row.raw,
        mailbox=row.mailbox,
        now=now,
        pipeline=tuple(stage for stage in STAGES if stage != check_auth.STAGE),
    )


def drop(db: Engine, held_id: int) -> HeldMessage:
    """Forget a held move (its inbound record stays, outcome ``dropped``)."""
    return _take(db, held_id, "dropped")
