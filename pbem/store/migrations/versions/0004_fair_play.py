"""fair play: committed seeds, invitations, observers, outbox extras (headers, attachments)

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "commitment",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("server_seed", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("engine_seed", sa.String(length=100), nullable=False),
        sa.Column("entropy_kennedy", sa.Text(), nullable=False),
        sa.Column("entropy_nixon", sa.Text(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revealed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("export", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_table(
        "invitation",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("side", sa.String(length=8), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "side"),
    )
    with op.batch_alter_table("invitation", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_invitation_game_id"), ["game_id"], unique=False)
    op.create_table(
        "observer",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("salt", sa.String(length=32), nullable=False),
        sa.Column("added_by", sa.String(length=16), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("unsubscribed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "email"),
    )
    with op.batch_alter_table("observer", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_observer_game_id"), ["game_id"], unique=False)
    with op.batch_alter_table("outboxmessage", schema=None) as batch_op:
        batch_op.add_column(sa.Column("extras", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("outboxmessage", schema=None) as batch_op:
        batch_op.drop_column("extras")
    op.drop_table("observer")
    op.drop_table("invitation")
    op.drop_table("commitment")
