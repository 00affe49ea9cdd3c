"""table talk ('say', 'move taken back') for a player's next mail; the question of each key

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tabletalk",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("to_side", sa.String(length=8), nullable=False),
        sa.Column("from_side", sa.String(length=8), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_tabletalk_game_id", "tabletalk", ["game_id"])
    op.create_table(
        "keyquestion",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=8), nullable=False),
        sa.Column("key_gen", sa.Integer(), nullable=False),
        sa.Column("question", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("game_id", "side", "key_gen"),
    )


def downgrade() -> None:
    op.drop_table("keyquestion")
    op.drop_index("ix_tabletalk_game_id", table_name="tabletalk")
    op.drop_table("tabletalk")
