"""held messages: moves whose sender failed DMARC/DKIM at our receiving server

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "heldmessage",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("inbound_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("side", sa.String(length=8), nullable=True),
        sa.Column("from_addr", sa.String(length=320), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("mailbox", sa.String(length=200), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["inbound_id"], ["inboundmessage.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_heldmessage_inbound_id", "heldmessage", ["inbound_id"])
    op.create_index("ix_heldmessage_game_id", "heldmessage", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_heldmessage_game_id", "heldmessage")
    op.drop_index("ix_heldmessage_inbound_id", "heldmessage")
    op.drop_table("heldmessage")
