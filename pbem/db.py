"""Database access: the SQLModel engine, sessions and the one-transaction helper.

SQLite (the default) runs in WAL mode with a busy timeout, and every write
transaction (`transaction`) starts with ``BEGIN IMMEDIATE`` so the single
writer is decided up front instead of failing at the first write. PostgreSQL works unchanged; there
`lock_game` takes a row lock so two mails for one game apply one after the other.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine, select

__all__ = ["is_sqlite", "is_transient", "lock_game", "make_engine", "migrate", "transaction"]

BUSY_TIMEOUT_MS = 15_000


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def is_transient(exc: BaseException) -> bool:
    """A database error worth retrying: locked/busy SQLite, a dropped or refused connection,
    a PostgreSQL serialization failure or deadlock. Such an error never quarantines a mail."""
    from sqlalchemy.exc import DBAPIError, OperationalError

    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    if not isinstance(exc, OperationalError):
        return False
    module = type(exc.orig).__module__ if exc.orig is not None else ""
    if module.startswith("sqlite3"):
        text = str(exc.orig).lower()
        return "locked" in text or "busy" in text
    return True  # psycopg: connection errors, SerializationFailure, DeadlockDetected, ...


def make_engine(url: str, *, echo: bool = False) -> Engine:
    """An engine for ``url`` (``sqlite:///path`` or ``postgresql+psycopg://...``)."""
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    kwargs: dict[str, Any] = {"echo": echo}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": BUSY_TIMEOUT_MS / 1000, "check_same_thread": False}
    else:
        kwargs["pool_pre_ping"] = True
    engine = create_engine(url, **kwargs)
    if is_sqlite(engine):
        _sqlite_setup(engine)
    return engine


def _sqlite_setup(engine: Engine) -> None:
    """WAL, busy timeout, foreign keys; and take over BEGIN so it can be IMMEDIATE."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (pysqlite quirk)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        immediate = conn.get_execution_options().get("pbem_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """One unit of work: commit on success, roll back on any exception.

    On SQLite it starts with ``BEGIN IMMEDIATE`` (the write lock up front, C5);
    plain read-only sessions use a deferred ``BEGIN`` and never block the worker.
    """
    with Session(engine.execution_options(pbem_write=True), expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


def lock_game(session: Session, game_id: int) -> Any:
    """Load the game row for update (a row lock on PostgreSQL; SQLite is already exclusive)."""
    from pbem.models import Game

    stmt = select(Game).where(Game.id == game_id)
    if not is_sqlite(session.get_bind()):  # type: ignore[arg-type]
        stmt = stmt.with_for_update()
    return session.exec(stmt).first()


def alembic_config(engine: Engine) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    url = engine.url.render_as_string(hide_password=False)  # '%' escaped for configparser
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def migrate(engine: Engine) -> tuple[str | None, str | None]:
    """Create or upgrade the schema to the newest revision; returns (before, after)."""
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        before = MigrationContext.configure(conn).get_current_revision()
    cfg = alembic_config(engine)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    with engine.connect() as conn:
        after = MigrationContext.configure(conn).get_current_revision()
    return before, after
