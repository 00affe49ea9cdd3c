"""Database access: the SQLModel engine, sessions and the one-transaction helper.

SQLite (the default) runs in WAL mode with a busy timeout, and every write
transaction (`transaction`) starts with ``BEGIN IMMEDIATE`` so the single
writer is decided up front instead of failing at the first write. PostgreSQL works
unchanged; there `lock_game` takes a row lock so two mails for one game apply one after the
other.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlmodel import Session, create_engine, select

from pbem.store.failures import is_transient
from pbem.store.models import Game

__all__ = [
    "BadDatabaseURL",
    "DatabaseError",
    "DatabaseUnreachable",
    "DriverMissing",
    "current_revision",
    "is_sqlite",
    "is_transient",
    "lock_game",
    "make_engine",
    "migrate",
    "sqlite_file",
    "transaction",
]

BUSY_TIMEOUT_MS = 15_000


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


class DatabaseError(Exception):
    """The database cannot be used as configured; the message says why (one line)."""


class BadDatabaseURL(DatabaseError):
    """The URL is not one of the shapes the server supports (SQLite or PostgreSQL)."""


class DriverMissing(DatabaseError):
    """The URL is fine but its database driver (psycopg for PostgreSQL) is not installed."""


class DatabaseUnreachable(DatabaseError):
    """The database server refused or did not answer (a later run may succeed)."""


SUPPORTED = ("sqlite", "postgresql")


def make_engine(url: str) -> Engine:
    """An engine for ``url`` (``sqlite:///path`` or ``postgresql+psycopg://...``).

    Raises `BadDatabaseURL` for anything else and `DriverMissing` when psycopg is not
    installed; it does not connect (the first query does).
    """
    for alias in ("postgresql://", "postgres://"):
        if url.startswith(alias):
            url = "postgresql+psycopg://" + url.removeprefix(alias)
    try:
        backend = make_url(url).get_backend_name()
    except ArgumentError:
        raise BadDatabaseURL(f"{url!r} is not a database URL") from None
    if backend not in SUPPORTED:
        raise BadDatabaseURL(f"{backend} databases are not supported ({url!r})")
    path = sqlite_file(url)
    if path is not None:
        folder = path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(f"cannot create the folder {folder}: {exc.strerror}") from None
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": BUSY_TIMEOUT_MS / 1000, "check_same_thread": False}
    else:
        kwargs["pool_pre_ping"] = True
    try:
        engine = create_engine(url, **kwargs)
    except ArgumentError as exc:  # NoSuchModuleError: an unknown driver after the '+'
        raise BadDatabaseURL(f"{url!r}: {exc}") from None
    except ImportError as exc:
        raise DriverMissing(f"PostgreSQL needs the psycopg driver, not installed ({exc})") from None
    if is_sqlite(engine):
        _sqlite_setup(engine)
    return engine


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None: not SQLite, or in memory)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise BadDatabaseURL(f"{url!r} is not a database URL") from None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).absolute()


def _sqlite_setup(engine: Engine) -> None:
    """WAL, busy timeout, foreign keys; and take over BEGIN so a write can be IMMEDIATE."""

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
        write = conn.get_execution_options().get("pbem_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


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


def lock_game(session: Session, game_id: int) -> Game | None:
    """Load the game row for update: on PostgreSQL a row lock, held until the transaction
    ends, so two mails of one game apply one after the other; on SQLite the transaction
    already holds the write lock (``BEGIN IMMEDIATE``) and ``FOR UPDATE`` is not written."""
    return session.exec(select(Game).where(Game.id == game_id).with_for_update()).first()


def alembic_config(engine: Engine) -> Any:
    from alembic.config import Config  # heavy (~0.1 s): only commands that open the database

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    url = engine.url.render_as_string(hide_password=False)  # '%' escaped for configparser
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def migrate(engine: Engine) -> tuple[str | None, str | None]:
    """Create or upgrade the schema to the newest revision; returns (before, after)."""
    from alembic import command  # heavy: loaded by the commands that migrate, not by --help

    before = current_revision(engine)
    cfg = alembic_config(engine)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    return before, current_revision(engine)


def current_revision(engine: Engine) -> str | None:
    """The database's schema revision (None: no pbem tables yet)."""
    from alembic.runtime.migration import MigrationContext  # heavy: as in `alembic_config`

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
