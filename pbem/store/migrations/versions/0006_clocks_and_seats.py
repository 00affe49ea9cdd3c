"""clocks and seats: game clock columns, seat aliases, move source, game events, worker marks

Existing games keep ``clock`` NULL: the first tick after the upgrade starts the
site default clock for every active one (`pbem.games.timekeeping.tick.ensure_clocks`),
counting from that moment.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("clock", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("clock_due", sa.Float(), nullable=True))
        batch_op.add_column(
            sa.Column("ended", sa.String(length=16), nullable=False, server_default="")
        )
        batch_op.add_column(
            sa.Column("winner", sa.String(length=8), nullable=False, server_default="")
        )
        batch_op.create_index(batch_op.f("ix_game_clock_due"), ["clock_due"], unique=False)
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("aliases", sa.String(length=1000), nullable=False, server_default="")
        )
        batch_op.add_column(
            sa.Column("pending_email", sa.String(length=320), nullable=False, server_default="")
        )
    with op.batch_alter_table("move", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("source", sa.String(length=16), nullable=False, server_default="mail")
        )
    op.create_table(
        "gameevent",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=8), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("key", sa.String(length=120), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "key"),
    )
    with op.batch_alter_table("gameevent", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_gameevent_game_id"), ["game_id"], unique=False)
    op.create_table(
        "workerstate",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("workerstate")
    with op.batch_alter_table("gameevent", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_gameevent_game_id"))
    op.drop_table("gameevent")
    with op.batch_alter_table("move", schema=None) as batch_op:
        batch_op.drop_column("source")
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_column("pending_email")
        batch_op.drop_column("aliases")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_clock_due"))
        batch_op.drop_column("winner")
        batch_op.drop_column("ended")
        batch_op.drop_column("clock_due")
        batch_op.drop_column("clock")
