"""a computer player's moves say so: move.source 'bot'

Revision ID: 0018
Revises: 0017
Create Date: 2027-02-10

Moves of a computer-played seat (``seat.email`` ``bot:KIND``) came with no mail and were
stored with the source ``mail``; they get ``bot``, as the server stores them now
(`pbem.store.move_log`). ``pbem log`` marks them. Nothing else reads the difference: ``undo``
treats both as a decision of that side.
"""

from __future__ import annotations

from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

_BOT_ROWS = """
    inbound_id IS NULL AND EXISTS (
        SELECT 1 FROM seat
        WHERE seat.game_id = move.game_id AND seat.side = move.side AND seat.email LIKE 'bot:%'
    )
"""


def upgrade() -> None:
    op.execute(f"UPDATE move SET source = 'bot' WHERE source = 'mail' AND {_BOT_ROWS}")


def downgrade() -> None:
    op.execute(f"UPDATE move SET source = 'mail' WHERE source = 'bot' AND {_BOT_ROWS}")
