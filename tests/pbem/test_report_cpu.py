"""The report's picture and files are stored beside the outbox row once per id (`pbem.outbox.parts`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event

from pbem.reports import render as render_mod
from tests.pbem.harness import Harness


def test_the_picture_is_stored_without_the_orm_and_once(tmp_path: Path) -> None:
    """`mailimages.store` inserts on the session's connection (no ORM statement, no flush of
    the session's pending rows); a stored id is not inserted again; the row is the picture."""
    from sqlmodel import Session, select

    from pbem.outbox import parts as mailimages
    from pbem.store.models import MailImage, Seat

    h = Harness(tmp_path)
    h.new_game()
    pic = render_mod.Attachment(filename="log.txt", data=b"the log\n")
    orm_statements: list[Any] = []
    inserts: list[str] = []

    def cursor(_c: Any, _cur: Any, statement: str, *_rest: Any) -> None:
        if statement.startswith("INSERT"):
            inserts.append(statement)

    with Session(h.db) as s:
        event.listen(s, "do_orm_execute", orm_statements.append)
        event.listen(h.db, "before_cursor_execute", cursor)
        s.add(Seat(game_id=h.game_id, side="observer-x", email="x@pbem.test", key_salt="00"))
        mailimages.store(s, [pic, pic])
        mailimages.store(s, [pic])
        event.remove(h.db, "before_cursor_execute", cursor)
        assert orm_statements == [], "no ORM execute for the picture"
        assert [i.split()[2] for i in inserts] == ["mailimage"], "one insert, no flush first"
        s.rollback()
    with Session(h.db) as s:
        mailimages.store(s, [pic])
        s.commit()
        row = s.get(MailImage, pic.cid)
        assert row is not None and row.data == b"the log\n" and row.filename == "log.txt"
        assert row.content_type == "text/plain; charset=utf-8" and row.created_at is not None
    with Session(h.db) as s:  # a new session, the same id: the insert does nothing
        mailimages.store(s, [pic])
        s.commit()
        rows = s.exec(select(MailImage).where(MailImage.cid == pic.cid)).all()
        assert len(rows) == 1
