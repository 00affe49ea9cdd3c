"""queued mail: fetched mail handed over for its game, applied by any worker under the game's lock

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    number = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
    op.create_table(
        "queuedmail",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("dedupe_key", sa.String(length=400), nullable=False),
        sa.Column("mailbox", sa.String(length=200), nullable=False),
        sa.Column("uidvalidity", number, nullable=True),
        sa.Column("uid", number, nullable=True),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("queued_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("dedupe_key"),
        sa.UniqueConstraint("mailbox", "uidvalidity", "uid"),
    )
    op.create_index("ix_queuedmail_game_id", "queuedmail", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_queuedmail_game_id", "queuedmail")
    op.drop_table("queuedmail")
