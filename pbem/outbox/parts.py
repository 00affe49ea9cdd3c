"""Parts of outbound mail stored beside the outbox: inline pictures and attached files.

`queue_mail` renders a mail whose HTML shows ``<img src="cid:...">`` (the map picture) or
carries ``data-pbem-attachment="..."`` (a file sent with it, e.g. a long game log) and hands
those parts to `store` (same transaction as the outbox row), keyed by Content-ID, which is
derived from the bytes. The sender finds the IDs an outbox row's HTML names (`cids_in`,
`attachment_ids_in`) and loads the bytes (`load`), so a resend after a crash carries the very
same parts. Both players' reports of one move show the same picture (the public board,
R17.1): one row serves both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Session, col, select

from pbem.mail.compose import FileAttachment, InlineImage
from pbem.store.models import MailImage, utcnow

__all__ = [
    "Part",
    "StoredPart",
    "attachment_ids_in",
    "attachments_for",
    "cids_in",
    "for_html",
    "load",
    "store",
]

# Each pattern begins with its attribute's name, a literal, which `re` finds by a fast substring
# search, and reads the value in a lookahead (a match takes the name alone: an attribute inside
# another's value is still found); `_ids` keeps the names that start a word. A leading ``\b``
# or lookbehind would have `re` try the pattern at every position of a ~30 KB report (~35x).
_CID = re.compile(r"""src=(?=["']cid:([^"'\s>]+)["'])""")
_ATTACHED = re.compile(r"""data-pbem-attachment=(?=["']([^"'\s>]+)["'])""")


class StoredPart(Protocol):
    """What `store` keeps: an id, the bytes, their type and a file name."""

    @property
    def cid(self) -> str: ...
    @property
    def data(self) -> bytes: ...
    @property
    def content_type(self) -> str: ...
    @property
    def filename(self) -> str: ...


@dataclass(frozen=True)
class Part:
    """A stored part as `load` reads it: plain data (no ORM object to build)."""

    cid: str
    content_type: str
    filename: str
    data: bytes


def cids_in(html: str) -> list[str]:
    """The Content-IDs an HTML body shows inline, in order, without repeats."""
    return _ids(_CID, html)


def attachment_ids_in(html: str) -> list[str]:
    """The ids of the files an HTML body says are attached, in order, without repeats."""
    return _ids(_ATTACHED, html)


def _ids(pattern: re.Pattern[str], html: str | None) -> list[str]:
    """``pattern``'s group in ``html`` where its name starts a word, in order, without repeats."""
    html = html or ""
    found = (
        m.group(1)
        for m in pattern.finditer(html)
        if not (m.start() and (html[m.start() - 1].isalnum() or html[m.start() - 1] == "_"))
    )
    return list(dict.fromkeys(found))


def store(session: Session, parts: Sequence[StoredPart]) -> None:
    """Add each part not stored yet: INSERT … ON CONFLICT DO NOTHING, since a worker applying
    another game at the same moment may store the same picture (same bytes, same id); its row
    serves this mail as well."""
    insert = sqlite_insert if session.get_bind().dialect.name == "sqlite" else pg_insert
    for part in {p.cid: p for p in parts}.values():
        values = {
            "cid": part.cid,
            "content_type": part.content_type,
            "filename": part.filename,
            "data": part.data,
            "created_at": utcnow(),
        }
        session.execute(
            insert(MailImage).values(values).on_conflict_do_nothing(index_elements=["cid"])
        )


def load(session: Session, htmls: Iterable[str]) -> dict[str, Part]:
    """The stored parts named by ``htmls``, by id."""
    wanted = sorted({i for html in htmls for i in (*cids_in(html), *attachment_ids_in(html))})
    if not wanted:
        return {}
    rows = session.exec(select(MailImage).where(col(MailImage.cid).in_(wanted)))
    return {r.cid: Part(r.cid, r.content_type, r.filename, bytes(r.data)) for r in rows}


def for_html(html: str, parts: Mapping[str, StoredPart]) -> list[InlineImage]:
    """The inline images of one body, in the order it shows them (missing ones left out)."""
    return [
        InlineImage(
            cid=c,
            data=parts[c].data,
            content_type=parts[c].content_type,
            filename=parts[c].filename,
        )
        for c in cids_in(html)
        if c in parts
    ]


def attachments_for(html: str, parts: Mapping[str, StoredPart]) -> list[FileAttachment]:
    """The files one body says are attached (missing ones left out)."""
    return [
        FileAttachment(
            filename=parts[i].filename, data=parts[i].data, content_type=parts[i].content_type
        )
        for i in attachment_ids_in(html)
        if i in parts
    ]
