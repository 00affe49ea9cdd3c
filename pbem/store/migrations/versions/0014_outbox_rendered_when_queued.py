"""outbox rows are rendered when queued: render the rows still waiting, drop render_input

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03

A row queued by an older server with only its render input (``{"kind", "ctx"}``) and not sent
yet is rendered here, its pictures and files stored beside it, so that it goes out as it would
have. A sent row keeps its subject and text (its HTML was never stored). The one place the
store reaches up to the reports and the outbox: a data migration runs once, with the code of
the release that ships it.
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op
from sqlmodel import Session

from pbem.outbox import parts
from pbem.reports.render import render

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

OUTBOX = sa.table(
    "outboxmessage",
    sa.column("id", sa.Integer),
    sa.column("status", sa.String),
    sa.column("subject", sa.String),
    sa.column("text", sa.Text),
    sa.column("html", sa.Text),
    sa.column("render_input", sa.Text),
)


def upgrade() -> None:
    with Session(bind=op.get_bind()) as session:
        waiting = session.execute(
            sa.select(OUTBOX.c.id, OUTBOX.c.render_input).where(
                OUTBOX.c.status == "pending", OUTBOX.c.render_input != ""
            )
        ).all()
        for row_id, data in waiting:
            what = json.loads(data)
            mail = render(what["kind"], what["ctx"])
            parts.store(session, [*mail.images, *mail.attachments])
            session.execute(
                sa.update(OUTBOX)
                .where(OUTBOX.c.id == row_id)
                .values(subject=mail.subject, text=mail.text, html=mail.html, render_input="")
            )
        session.flush()
    with op.batch_alter_table("outboxmessage") as batch:
        batch.drop_column("render_input")


def downgrade() -> None:
    with op.batch_alter_table("outboxmessage") as batch:
        batch.add_column(sa.Column("render_input", sa.Text(), nullable=False, server_default=""))
