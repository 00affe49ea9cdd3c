"""key answers: the game lines of each mail applied under a reply key (re-sent copies)

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "keyanswer",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=8), nullable=False),
        sa.Column("key_gen", sa.Integer(), nullable=False),
        sa.Column("lines", sa.String(length=64), nullable=False),
        sa.Column("inbound_id", sa.Integer(), nullable=True),
        sa.Column("repeats", sa.Integer(), nullable=False, server_default="0"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.ForeignKeyConstraint(["inbound_id"], ["inboundmessage.id"]),
        sa.PrimaryKeyConstraint("game_id", "side", "key_gen", "lines"),
    )


def downgrade() -> None:
    op.drop_table("keyanswer")
