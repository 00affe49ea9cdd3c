"""The report's picture and files are stored beside the outbox row once per id (`pbem.outbox.parts`)."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import Session, select

from pbem.outbox import parts as mailimages
from pbem.reports import render as render_mod
from pbem.store.models import MailImage
from tests.pbem.harness import Harness


def test_a_part_is_stored_once_per_id_and_loaded_by_the_html_that_names_it(
    tmp_path: Path,
) -> None:
    h = Harness(tmp_path)
    h.new_game()
    log = render_mod.Attachment(filename="log.txt", data=b"the log\n")
    with Session(h.db) as s:
        mailimages.store(s, [log, log])
        mailimages.store(s, [log])
        s.commit()
        row = s.get(MailImage, log.cid)
        assert row is not None and row.data == b"the log\n" and row.filename == "log.txt"
        assert row.content_type == "text/plain; charset=utf-8" and row.created_at is not None
    with Session(h.db) as s:  # a new session, the same id: the insert does nothing
        mailimages.store(s, [log])
        s.commit()
        assert len(s.exec(select(MailImage).where(MailImage.cid == log.cid)).all()) == 1
        html = f"<a data-pbem-attachment='{log.cid}'>log</a> <img src='cid:missing'>"
        found = mailimages.load(s, [html])
        assert list(found) == [log.cid] and found[log.cid].data == b"the log\n"
