"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("edition", sa.String(length=16), nullable=False),
        sa.Column("options", sa.String(length=200), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("snapshot", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_status"), ["status"], unique=False)

    op.create_table(
        "inboundmessage",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("dedupe_key", sa.String(length=400), nullable=False),
        sa.Column("message_id", sa.String(length=400), nullable=False),
        sa.Column("mailbox", sa.String(length=200), nullable=False),
        sa.Column("uidvalidity", sa.Integer(), nullable=True),
        sa.Column("uid", sa.Integer(), nullable=True),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("from_addr", sa.String(length=320), nullable=False),
        sa.Column("subject", sa.String(length=500), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("side", sa.String(length=8), nullable=True),
        sa.Column("outcome", sa.String(length=16), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("dedupe_key"),
        sa.UniqueConstraint("mailbox", "uidvalidity", "uid"),
    )
    with op.batch_alter_table("inboundmessage", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_inboundmessage_game_id"), ["game_id"], unique=False)

    op.create_table(
        "outboxmessage",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(length=400), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("side", sa.String(length=8), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("recipient", sa.String(length=320), nullable=False),
        sa.Column("reply_to", sa.String(length=320), nullable=False),
        sa.Column("subject", sa.String(length=500), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("html", sa.Text(), nullable=False),
        sa.Column("in_reply_to", sa.String(length=400), nullable=False),
        sa.Column("references", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("message_id"),
    )
    with op.batch_alter_table("outboxmessage", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_outboxmessage_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_outboxmessage_status"), ["status"], unique=False)

    op.create_table(
        "quarantine",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("dedupe_key", sa.String(length=400), nullable=False),
        sa.Column("message_id", sa.String(length=400), nullable=False),
        sa.Column("mailbox", sa.String(length=200), nullable=False),
        sa.Column("uidvalidity", sa.Integer(), nullable=True),
        sa.Column("uid", sa.Integer(), nullable=True),
        sa.Column("stage", sa.String(length=64), nullable=False),
        sa.Column("error", sa.Text(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "move",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=8), nullable=False),
        sa.Column("command", sa.String(length=500), nullable=False),
        sa.Column("inbound_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
        ),
        sa.ForeignKeyConstraint(
            ["inbound_id"],
            ["inboundmessage.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seq"),
    )
    with op.batch_alter_table("move", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_move_game_id"), ["game_id"], unique=False)

    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=8), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("key_salt", sa.String(length=32), nullable=False),
        sa.Column("key_gen", sa.Integer(), nullable=False),
        sa.Column("decision_sig", sa.String(length=64), nullable=False),
        sa.Column("last_log", sa.Integer(), nullable=False),
        sa.Column("thread_root", sa.String(length=300), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "side"),
    )
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_email"), ["email"], unique=False)
        batch_op.create_index(batch_op.f("ix_seat_game_id"), ["game_id"], unique=False)


def downgrade() -> None:

    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_game_id"))
        batch_op.drop_index(batch_op.f("ix_seat_email"))

    op.drop_table("seat")
    with op.batch_alter_table("move", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_move_game_id"))

    op.drop_table("move")
    op.drop_table("quarantine")
    with op.batch_alter_table("outboxmessage", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_outboxmessage_status"))
        batch_op.drop_index(batch_op.f("ix_outboxmessage_game_id"))

    op.drop_table("outboxmessage")
    with op.batch_alter_table("inboundmessage", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_inboundmessage_game_id"))

    op.drop_table("inboundmessage")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_status"))

    op.drop_table("game")
