"""Reports as sent: display name, the map picture inline (multipart/related, its two halves),
stored once."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import Session, select

from pbem.outbox.compose import sender_for
from pbem.outbox.parts import cids_in
from pbem.store.models import MailImage, OutboxMessage
from tests.pbem.harness import Harness


def test_welcome_mails_carry_the_map_inline_and_share_one_stored_picture(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    gid = h.new_game(seed=4)
    cids = set()
    for side in ("kennedy", "nixon"):
        msg = h.last_mail(side)
        assert msg["From"].addresses[0].display_name == f"1960 \u2014 game #{gid}"
        assert msg["From"].addresses[0].addr_spec == "game@pbem.test"
        html = msg.get_body(("html",))
        assert html is not None
        west, east = cids_in(html.get_content())  # the map's halves (boardmap.halves)
        images = [p for p in msg.walk() if p.get_content_type() == "image/png"]
        assert [i["Content-ID"] for i in images] == [f"<{west}>", f"<{east}>"]
        assert all(i.get_payload(decode=True).startswith(b"\x89PNG") for i in images)
        assert 'alt="Map of the board' in html.get_content()
        cids.add((west, east))
    assert len(cids) == 1  # the same public board for both seats
    with Session(h.db) as s:
        stored = sorted(m.cid for m in s.exec(select(MailImage)))
        assert stored == sorted(next(iter(cids)))  # both halves, stored once
        rows = s.exec(select(OutboxMessage)).all()
        assert all(tuple(cids_in(r.html)) in cids and r.text for r in rows)


def test_a_configured_display_name_is_kept() -> None:
    assert (
        sender_for("Election Office <game@example.org>", 7) == "Election Office <game@example.org>"
    )
    assert sender_for("game@example.org", 7) == '"1960 \u2014 game #7" <game@example.org>'
    assert sender_for("game@example.org", None) == "game@example.org"
