"""The bytes of one outbox row: `raw_message` (and the From of a game's mail, `sender_for`).

Apart from `pbem.service` so that the sending process (`pbem.send_process`) composes mail
without loading the pipeline: this module needs only the mail layer and `pbem.mailimages`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from email.utils import parseaddr
from functools import lru_cache
from typing import Any

from pbem import mailimages
from pbem.config import Settings
from pbem.mail import FileAttachment, build_message

__all__ = ["raw_message", "sender_for"]


@lru_cache(maxsize=1024)
def sender_for(address: str, game_id: int | None) -> str:
    """``"1960 — game #12" <game@…>`` so a mailbox of many games tells them apart at a glance;
    an address configured with its own display name keeps it."""
    name, addr = parseaddr(address)
    if name or game_id is None or not addr:
        return address
    return f'"1960 \u2014 game #{game_id}" <{addr}>'


def raw_message(settings: Settings, row: Any, images: Mapping[str, Any] | None = None) -> bytes:
    """The bytes of outbox ``row``; ``images`` (stored parts by id, `mailimages.load`) go
    inline or attached, as the row's HTML names them."""
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
        images=mailimages.for_html(row.html, dict(images or {})),
        headers=extras.get("headers"),
        attachments=[*mailimages.attachments_for(row.html, dict(images or {})), *files],
    )
