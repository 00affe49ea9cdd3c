"""outbox render input: a report rendered by the sending process, not in the change's transaction

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outboxmessage") as batch:
        batch.add_column(sa.Column("render_input", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("outboxmessage") as batch:
        batch.drop_column("render_input")
