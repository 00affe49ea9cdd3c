"""observers confirm by mail and are fed from marks: pending, confirmed_at, seen_* columns

Revision ID: 0016
Revises: 0015
Create Date: 2027-01-20

An observer subscribed before consent existed stays subscribed (``confirmed_at`` is when they
were added); their marks start at the game as it is now, so the first mail after the upgrade
holds only what happens next.
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

OBSERVER = sa.table(
    "observer",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("active", sa.Boolean),
    sa.column("created_at", sa.DateTime),
    sa.column("confirmed_at", sa.DateTime),
    sa.column("seen_version", sa.Integer),
    sa.column("seen_log", sa.Integer),
    sa.column("seen_event", sa.Integer),
)
GAME = sa.table(
    "game", sa.column("id", sa.Integer), sa.column("version", sa.Integer), sa.column("snapshot")
)
EVENT = sa.table("gameevent", sa.column("id", sa.Integer), sa.column("game_id", sa.Integer))


def upgrade() -> None:
    with op.batch_alter_table("observer") as batch:
        batch.add_column(
            sa.Column("pending", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True))
        for name in ("seen_version", "seen_log", "seen_event"):
            batch.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(
            sa.Column("seen_end", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(OBSERVER.c.id, OBSERVER.c.game_id, OBSERVER.c.created_at).where(
            OBSERVER.c.active == sa.true()
        )
    ).all()
    for obs_id, game_id, created in rows:
        game = bind.execute(
            sa.select(GAME.c.version, GAME.c.snapshot).where(GAME.c.id == game_id)
        ).first()
        last = bind.execute(
            sa.select(sa.func.max(EVENT.c.id)).where(EVENT.c.game_id == game_id)
        ).scalar()
        log = len(json.loads(game[1])["log"]) if game is not None and game[1] else 0
        bind.execute(
            sa.update(OBSERVER)
            .where(OBSERVER.c.id == obs_id)
            .values(
                confirmed_at=created,
                seen_version=game[0] if game is not None else 0,
                seen_log=log,
                seen_event=last or 0,
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("observer") as batch:
        for name in ("seen_end", "seen_event", "seen_log", "seen_version", "confirmed_at"):
            batch.drop_column(name)
        batch.drop_column("pending")
