"""a computer player's moves carry their reason: move.reason, move.log_index

Revision ID: 0017
Revises: 0016
Create Date: 2027-02-03

Both columns are nullable: a player's move has neither, and the bot moves recorded before the
upgrade stay without a reason.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("move") as batch:
        batch.add_column(sa.Column("reason", sa.Text(), nullable=True))
        batch.add_column(sa.Column("log_index", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("move") as batch:
        batch.drop_column("log_index")
        batch.drop_column("reason")
