"""Alembic environment: migrates the database whose engine `pbem.store.db.migrate` passes in."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

import pbem.store.models  # noqa: F401  (every table on the metadata)

target_metadata = SQLModel.metadata


def run_migrations_online() -> None:
    connectable = context.config.attributes.get("connection")
    if connectable is None:
        from pbem.store.db import make_engine

        engine = make_engine(context.config.get_main_option("sqlalchemy.url") or "")
        with engine.connect() as connection:
            _run(connection)
        return
    _run(connectable)


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
