"""The bytes of one outbox row: `raw_message` (and the From of a game's mail, `sender_for`).

A row holds its mail as rendered when it was queued (subject, text, HTML); the pictures and
files its HTML names are stored apart (`pbem.outbox.parts`) and go inline or attached. The
bytes are a function of the row and its parts: a resend after a crash is the very same mail.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from email.utils import parseaddr
from functools import lru_cache
from typing import Any

from pbem.config import Settings
from pbem.mail import FileAttachment, build_message
from pbem.mail.smtp import PermanentFailure
from pbem.outbox import parts as mailimages

__all__ = ["ComposeFailure", "raw_message", "sender_for"]


@lru_cache(maxsize=1024)
def sender_for(address: str, game_id: int | None) -> str:
    """``"1960 — game #12" <game@…>`` so a mailbox of many games tells them apart at a glance;
    an address configured with its own display name keeps it."""
    name, addr = parseaddr(address)
    if name or game_id is None or not addr:
        return address
    return f'"1960 \u2014 game #{game_id}" <{addr}>'


class ComposeFailure(PermanentFailure):
    """The row's mail could not be composed (a bug, or a stored row the composer no longer
    takes): the row is marked failed with this error, never retried by itself, and the rows
    after it are sent (it must not hold up the outbox)."""


def raw_message(settings: Settings, row: Any, images: Mapping[str, Any] | None = None) -> bytes:
    """The bytes of outbox ``row`` (any object with its columns); ``images`` (stored parts by
    id, `parts.load`) go inline or attached, as the row's HTML names them. `ComposeFailure`
    when that fails."""
    try:
        return _compose(settings, row, images or {})
    except Exception as exc:
        raise ComposeFailure(
            f"could not compose the mail: {type(exc).__name__}: {exc}"[:2000]
        ) from exc


def _compose(settings: Settings, row: Any, parts: Mapping[str, Any]) -> bytes:
    extras = json.loads(row.extras) if row.extras else {}  # headers and attachments (fair play)
    files = [
        FileAttachment(a["filename"], a["text"].encode("utf-8"), a["content_type"])
        for a in extras.get("attachments", ())
    ]
    return build_message(
        sender=sender_for(settings.address, row.game_id),
        to=row.recipient,
        subject=row.subject,
        text=row.text,
        html=row.html or None,
        message_id=row.message_id,
        in_reply_to=row.in_reply_to or None,
        references=row.references.split(),
        reply_to=row.reply_to or None,
        images=mailimages.for_html(row.html, parts),
        headers=extras.get("headers"),
        attachments=[*mailimages.attachments_for(row.html, parts), *files],
    )
