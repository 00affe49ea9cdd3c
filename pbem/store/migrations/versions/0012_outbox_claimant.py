"""outbox claimant: which worker (machine, pid, start time) holds a row's claim

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outboxmessage") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(length=300), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outboxmessage") as batch:
        batch.drop_column("claimed_by")
