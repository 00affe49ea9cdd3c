"""The ``dedupe`` stage: record the mail once; a second delivery of it is a no-op (C1).

A mail's identity is its Message-ID (domain lower-cased), else the sha256 of its bytes without
the trace headers our MTA adds per delivery (`dedupe_key`). The first delivery inserts its
`InboundMessage` row; a second one, or the same IMAP UID again, stops as `DuplicateMessage`
and the runner rolls back (nothing recorded twice).
"""

from __future__ import annotations

import hashlib
import re

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from pbem.pipeline.base import Context, IgnoreMessage, Stage
from pbem.sanitize import bounded
from pbem.store.models import InboundMessage

TRACE_HEADERS = re.compile(
    rb"^(received|return-path|delivered-to|x-original-to):.*(\r?\n[ \t].*)*\r?\n", re.I | re.M
)


class DuplicateMessage(IgnoreMessage):
    """Seen before (same dedupe key or same IMAP UID): already handled, do nothing."""

    outcome = "duplicate"


def content_hash(raw: bytes) -> str:
    """sha256 of the message without the trace headers our MTA adds per delivery."""
    head, sep, body = raw.partition(b"\r\n\r\n") if b"\r\n\r\n" in raw else raw.partition(b"\n\n")
    return hashlib.sha256(TRACE_HEADERS.sub(b"", head + b"\n") + sep + body).hexdigest()


def dedupe_key(message_id: str | None, raw: bytes) -> str:
    """Normalised Message-ID (domain lower-cased), else the content hash (C1)."""
    mid = (message_id or "").strip().strip("<>").strip()
    if "@" in mid:
        local, _, domain = mid.rpartition("@")
        return f"mid:{local}@{domain.lower()}"[:400]
    return "sha256:" + content_hash(raw)


def insert_once(session: Session, row: InboundMessage) -> bool:
    """Insert the mail's record; False if its dedupe key or its mailbox's UID is known (both
    unique: a concurrent insert of the same mail waits for the other transaction, then fails
    here). The SAVEPOINT keeps the rest of the transaction."""
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:
        return False
    return True


def dedupe(ctx: Context) -> None:
    assert ctx.parsed is not None
    p = ctx.parsed
    key = dedupe_key(p.message_id, ctx.raw)
    row = InboundMessage(
        dedupe_key=key,
        content_hash=content_hash(ctx.raw),
        outcome="processing",
        message_id=bounded(p.message_id, 400),
        mailbox=bounded(ctx.mailbox, 200),
        uidvalidity=ctx.uidvalidity,
        uid=ctx.uid,
        from_addr=bounded(p.from_addr, 320),
        subject=bounded(p.subject, 500),
        received_at=ctx.now,
    )
    if not insert_once(ctx.session, row):
        raise DuplicateMessage(f"duplicate of an earlier mail ({key})")
    ctx.inbound = row


STAGE = Stage("dedupe", "record the mail once; a second delivery of it is a no-op (C1)", dedupe)
