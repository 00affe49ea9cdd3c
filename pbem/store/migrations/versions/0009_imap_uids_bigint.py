"""IMAP UIDs and UIDVALIDITY as BIGINT: they are 32-bit unsigned (RFC 3501), over INTEGER's range

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

COLUMNS = [
    (table, column)
    for table in ("inboundmessage", "quarantine")
    for column in ("uidvalidity", "uid")
]


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return  # SQLite's INTEGER already holds 64 bits
    for table, column in COLUMNS:
        op.alter_column(
            table, column, type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=True
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    for table, column in COLUMNS:
        op.alter_column(
            table, column, type_=sa.Integer(), existing_type=sa.BigInteger(), existing_nullable=True
        )
