"""Upgrading from a server that left reports to be rendered by the sender loses none of them.

Migration 0014: a row still waiting with only its render input is rendered (its pictures
stored beside it) and goes out as it would have; then the column goes.
"""

from __future__ import annotations

import json
from pathlib import Path

from alembic import command
from sqlalchemy import inspect, text

import engine
from pbem.outbox.parts import cids_in
from pbem.store.db import alembic_config, make_engine, migrate
from tests.pbem.test_render import ctx_for, position


def test_a_report_waiting_with_its_render_input_is_rendered_by_the_upgrade(
    tmp_path: Path,
) -> None:
    db = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    cfg = alembic_config(db)
    with db.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0013")
    ctx = json.loads(json.dumps(ctx_for(position(), engine.SIDES[0])))
    waiting = json.dumps({"kind": "report", "ctx": ctx})
    with db.begin() as conn:
        for n, (status, data) in enumerate((("pending", waiting), ("sent", ""))):
            conn.execute(
                text(
                    "INSERT INTO outboxmessage (message_id, kind, side, recipient, reply_to, subject, text,"
                    ' html, in_reply_to, "references", status, attempts, next_attempt_at,'
                    " last_error, created_at, extras, render_input) VALUES (:m, 'report', 'kennedy', 'a@b.test', '',"
                    " :s, :t, '', '', '', :status, 0, '2026-01-01', '', '2026-01-01', '', :r)"
                ),
                {
                    "m": f"<{n}@x>",
                    "s": "kept" if data == "" else "",
                    "t": "kept text" * (not data),
                    "status": status,
                    "r": data,
                },
            )
    migrate(db)
    assert "render_input" not in {c["name"] for c in inspect(db).get_columns("outboxmessage")}
    with db.connect() as conn:
        rows = conn.execute(
            text("SELECT status, subject, text, html FROM outboxmessage ORDER BY id")
        ).all()
        stored = {r[0] for r in conn.execute(text("SELECT cid FROM mailimage"))}
    (pending, sent) = rows
    assert pending.subject and pending.text and pending.html
    assert set(cids_in(pending.html)) <= stored and stored
    assert (sent.subject, sent.text) == ("kept", "kept text")
