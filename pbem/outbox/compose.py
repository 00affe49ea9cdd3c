"""The bytes of one outbox row: `raw_message` (and the From of a game's mail, `sender_for`).

Apart from `pbem.service` so that the sending process (`pbem.send_process`) composes mail
without loading the pipeline: this module needs only the mail layer and `pbem.outbox.parts`.

A row is queued either rendered (subject, text and HTML stored: older rows, and mail whose
render input is not plain JSON) or *deferred*: ``render_input`` holds the JSON of what
`pbem.reports.render.render` takes (``{"kind", "ctx"}``); its subject and text are "" until it is
sent (then stored, for readers of the text: `pbem.pipeline.rows.report_texts`), its HTML stays
"". `rendered` is the one way to read a row's mail: the stored columns, or the render of its
input (`pbem.reports.render` imported then, so a sending process that only composes rendered rows
never loads Jinja2, the engine or the map drawing). The render draws its own map picture, so a
deferred row needs no stored parts; rendering is a function of the input, so a retry or a
reader gets the very same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.utils import parseaddr
from functools import lru_cache
from typing import Any

from pbem.config import Settings
from pbem.mail import FileAttachment, build_message
from pbem.mail.smtp import PermanentFailure
from pbem.outbox import parts as mailimages

__all__ = [
    "ComposeFailure",
    "RowMail",
    "composed",
    "raw_message",
    "rendered",
    "sender_for",
    "text_of",
]


@lru_cache(maxsize=1024)
def sender_for(address: str, game_id: int | None) -> str:
    """``"1960 — game #12" <game@…>`` so a mailbox of many games tells them apart at a glance;
    an address configured with its own display name keeps it."""
    name, addr = parseaddr(address)
    if name or game_id is None or not addr:
        return address
    return f'"1960 \u2014 game #{game_id}" <{addr}>'


@dataclass(frozen=True)
class RowMail:
    """A row's mail: subject, text, HTML, and the parts its render made (the map picture, a
    log file; by id — empty for a row rendered when queued: its parts are stored)."""

    subject: str
    text: str
    html: str
    parts: Mapping[str, mailimages.StoredPart] = field(default_factory=dict)
    fresh: bool = False  # rendered now from ``render_input`` (the columns are to be stored)


def rendered(row: Any) -> RowMail:
    """The subject, text and HTML of outbox ``row`` (any object with its columns): as stored,
    or rendered from its ``render_input`` when it is deferred."""
    data = getattr(row, "render_input", "")
    if not data:
        return RowMail(row.subject, row.text, row.html)
    from pbem.reports.render import render  # only a deferred row needs the templates

    what = json.loads(data)
    mail = render(what["kind"], what["ctx"])
    parts: dict[str, mailimages.StoredPart] = {p.cid: p for p in mail.images}
    parts.update((a.cid, a) for a in mail.attachments)
    return RowMail(mail.subject, mail.text, mail.html, parts, fresh=True)


_TEXTS: dict[str, str] = {}  # the text of deferred rows rendered by `text_of`, by Message-ID
_TEXTS_KEPT = 2048


def text_of(row: Any) -> str:
    """The text of outbox ``row`` (its ``text``, ``render_input`` and ``message_id``): as
    stored, or — a deferred row not sent yet — rendered without its HTML and picture, once per
    process (kept by Message-ID: a row's input never changes). The pipeline reads the text of
    a seat's latest mails with every mail (`pbem.pipeline.stages.extract.sent_reports`), an unsent
    one only when reading the reply needs it (`pbem.pipeline.lines.SentReports`); while the
    sending lags (an SMTP outage) each is rendered at most once, not with every mail."""
    if row.text or not row.render_input:
        return str(row.text)
    text = _TEXTS.get(row.message_id)
    if text is None:
        from pbem.reports.render import render

        what = json.loads(row.render_input)
        text = render(what["kind"], what["ctx"], text_only=True).text
        if len(_TEXTS) >= _TEXTS_KEPT:
            _TEXTS.clear()
        _TEXTS[row.message_id] = text
    return text


def raw_message(settings: Settings, row: Any, images: Mapping[str, Any] | None = None) -> bytes:
    """The bytes of outbox ``row``; ``images`` (stored parts by id, `mailimages.load`) go
    inline or attached, as the row's HTML names them. A deferred row is rendered first."""
    return composed(settings, row, images)[0]


class ComposeFailure(PermanentFailure):
    """The row's mail could not be rendered or composed (a bug, or a stored render input the
    templates no longer take): the row is marked failed with this error, never retried by
    itself, and the rows after it are sent (it must not hold up the outbox)."""


def composed(
    settings: Settings, row: Any, images: Mapping[str, Any] | None = None
) -> tuple[bytes, RowMail]:
    """`raw_message`, and the row's mail it was made of (`rendered`); `ComposeFailure` when
    that fails."""
    try:
        return _composed(settings, row, images)
    except Exception as exc:
        raise ComposeFailure(
            f"could not compose the mail: {type(exc).__name__}: {exc}"[:2000]
        ) from exc


def _composed(
    settings: Settings, row: Any, images: Mapping[str, Any] | None
) -> tuple[bytes, RowMail]:
    mail = rendered(row)
    parts = {**(images or {}), **mail.parts}
    extras = json.loads(row.extras) if row.extras else {}  # headers and attachments (fair play)
    files = [
        FileAttachment(a["filename"], a["text"].encode("utf-8"), a["content_type"])
        for a in extras.get("attachments", ())
    ]
    raw = build_message(
        sender=sender_for(settings.address, row.game_id),
        to=row.recipient,
        subject=mail.subject,
        text=mail.text,
        html=mail.html or None,
        message_id=row.message_id,
        in_reply_to=row.in_reply_to or None,
        references=row.references.split(),
        reply_to=row.reply_to or None,
        images=mailimages.for_html(mail.html, parts),
        headers=extras.get("headers"),
        attachments=[*mailimages.attachments_for(mail.html, parts), *files],
    )
    return raw, mail
