"""seat orders: notify mode, standing and queued orders, the last-decision summary mark

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seatorders",
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("notify", sa.String(length=16), nullable=False),
        sa.Column("digest_hour", sa.Integer(), nullable=False),
        sa.Column("digest_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("standing", sa.Text(), nullable=False),
        sa.Column("queue", sa.Text(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("decided_log", sa.Integer(), nullable=False),
        sa.Column("decided_board", sa.Text(), nullable=False),
        sa.Column("mailed_sig", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["seat_id"], ["seat.id"]),
        sa.PrimaryKeyConstraint("seat_id"),
    )


def downgrade() -> None:
    op.drop_table("seatorders")
