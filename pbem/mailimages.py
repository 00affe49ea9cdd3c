"""Inline pictures of outbound mail: stored once by Content-ID, attached when a row is sent.

`queue_mail` renders a report whose HTML shows ``<img src="cid:...">`` and hands the
pictures to `store` (same transaction as the outbox row). The sender finds the
Content-IDs an outbox row's HTML names (`cids_in`) and loads their bytes (`load`), so a
resend after a crash carries the very same picture. Both players' reports of one move
name the same picture (the public board, R17.1): one row serves both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import select
from sqlmodel import Session

from pbem.boardmap import Picture
from pbem.mail import InlineImage
from pbem.models import MailImage

__all__ = ["cids_in", "load", "store"]

_CID = re.compile(r"""\bsrc=["']cid:([^"'\s>]+)["']""")


def cids_in(html: str) -> list[str]:
    """The Content-IDs an HTML body shows, in order, without repeats."""
    return list(dict.fromkeys(_CID.findall(html or "")))


def store(session: Session, pictures: Sequence[Picture]) -> None:
    """Add each picture not stored yet (a per-session memo spares the lookups)."""
    known: set[str] = session.info.setdefault("pbem_mail_images", set())
    for pic in pictures:
        if pic.cid in known:
            continue
        known.add(pic.cid)
        if session.get(MailImage, pic.cid) is None:
            session.add(MailImage(cid=pic.cid, content_type="image/png", filename=pic.filename,
                                  data=pic.png))


def load(conn: Any, htmls: Iterable[str]) -> dict[str, InlineImage]:
    """The stored images named by ``htmls``, by Content-ID (``conn``: a Connection or Session)."""
    wanted = sorted({cid for html in htmls for cid in cids_in(html)})
    if not wanted:
        return {}
    table = MailImage.__table__  # type: ignore[attr-defined]
    rows = conn.execute(select(table.c.cid, table.c.content_type, table.c.filename, table.c.data)
                        .where(table.c.cid.in_(wanted)))
    return {r.cid: InlineImage(cid=r.cid, data=bytes(r.data), content_type=r.content_type,
                               filename=r.filename) for r in rows}


def for_html(html: str, images: dict[str, InlineImage]) -> list[InlineImage]:
    """The images of one body, in the order it shows them (missing ones are left out)."""
    return [images[c] for c in cids_in(html) if c in images]
