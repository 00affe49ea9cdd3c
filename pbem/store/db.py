"""Database access: the SQLModel engine, sessions and the one-transaction helper.

SQLite (the default) runs in WAL mode with a busy timeout, and every write
transaction (`transaction`) starts with ``BEGIN IMMEDIATE`` so the single
writer is decided up front instead of failing at the first write. PostgreSQL works
unchanged; there `lock_game` takes a row lock so two mails for one game apply one after the
other.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import bindparam, event, exists, func
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session, col, create_engine, select

from pbem.store.failures import is_transient
from pbem.store.models import Game, Move, Observer, TableTalk

__all__ = [
    "BadDatabaseURL",
    "DatabaseError",
    "DatabaseUnreachable",
    "DriverMissing",
    "GameFacts",
    "game_facts",
    "is_sqlite",
    "is_transient",
    "lock_game",
    "make_engine",
    "migrate",
    "note_game_facts",
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


def make_engine(url: str, *, echo: bool = False) -> Engine:
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
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        folder = Path(url.removeprefix("sqlite:///")).parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(f"cannot create the folder {folder}: {exc.strerror}") from None
    kwargs: dict[str, Any] = {"echo": echo}
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
    with Session(_write_engine(engine), expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


_writers: weakref.WeakKeyDictionary[Engine, Engine] = weakref.WeakKeyDictionary()


def _write_engine(engine: Engine) -> Engine:
    """``engine`` with the ``pbem_write`` option, made once per engine (not per transaction)."""
    found = _writers.get(engine)
    if found is None:
        found = _writers[engine] = engine.execution_options(pbem_write=True)
    return found


@dataclass(frozen=True)
class GameFacts:
    """What `lock_game` learnt about a game besides its row (SQLite: in the same statement;
    PostgreSQL: once the row is locked, so no other transaction changes them): whether it
    has active observers and undelivered table talk. Handlers that would ask (the observers'
    reports, a report's table talk) skip the query when the answer is no; whoever adds an
    observer or a message in the transaction says so (`note_game_facts`)."""

    observers: bool
    talk: bool
    # the game's highest move number when read (SQLite only, in the lock's statement; None:
    # not known). `pbem.pipeline.rows` keeps it as it appends moves; a `Move` flushed by the
    # ORM in the transaction makes it unknown again.
    last_seq: int | None = None


def lock_game(session: Session, game_id: int) -> Any:
    """Load the game row for update (a row lock on PostgreSQL; SQLite is already exclusive).

    A row is locked until its transaction ends, so a second call in the same transaction (a
    mail's handlers ask twice) returns the row already loaded, as the query would (the
    identity map keeps loaded rows as they are), without asking the database again. It also
    learns the game's `GameFacts` (`game_facts`): in the same statement on SQLite, in a
    second one after the lock on PostgreSQL.
    """
    memo = _locked_games(session)
    game = memo.games.get(game_id)
    if game is not None:
        state = sa_inspect(game)
        if state.session is session and not (state.deleted or state.was_deleted):
            return game
    postgres = not is_sqlite(session.get_bind())  # type: ignore[arg-type]
    params = {"b_game_id": game_id}
    if postgres:
        # the lock first, then the facts: a statement that waited for the row lock sees the
        # row as the other transaction committed it, but its subqueries keep the snapshot
        # taken before the wait (READ COMMITTED), so facts read with the lock could be stale
        game = session.execute(_lock_statement(True), params).scalar()
        if game is None:
            return None
        observers, talk = session.execute(_facts_statement(), params).one()
        last_seq = None
    else:  # SQLite: the transaction began with the write lock (BEGIN IMMEDIATE)
        found = session.execute(_lock_statement(False), params).first()
        if found is None:
            return None
        game, observers, talk, last_seq = found
        last_seq = int(last_seq or 0)
    memo.games[game_id] = game
    memo.facts[game_id] = GameFacts(bool(observers), bool(talk), last_seq)
    return game


def game_facts(session: Session, game_id: int) -> GameFacts | None:
    """The `GameFacts` of a game `lock_game` loaded in this transaction (else None: unknown)."""
    memo: _Locked | None = session.info.get("pbem_locked_games")
    return memo.facts.get(game_id) if memo is not None else None


def note_game_facts(session: Session, game_id: int, **facts: Any) -> None:
    """A handler added an observer, table talk or moves to the game in this transaction."""
    memo: _Locked | None = session.info.get("pbem_locked_games")
    known = memo.facts.get(game_id) if memo is not None else None
    if memo is not None and known is not None:
        memo.facts[game_id] = replace(known, **facts)


@cache
def _lock_statement(postgres: bool) -> Any:
    """The game row by id (built once: its cache key is then reused): on SQLite with its
    `GameFacts`, on PostgreSQL locked ``FOR UPDATE`` alone (`_facts_statement` after it)."""

    game_id = col(Game.id)
    if postgres:
        return select(Game).where(game_id == bindparam("b_game_id")).with_for_update(of=Game)
    observers, talk = _facts(game_id)
    last_seq = select(func.max(Move.seq)).where(col(Move.game_id) == game_id).scalar_subquery()
    return select(Game, observers, talk, last_seq.label("last_seq")).where(
        game_id == bindparam("b_game_id")
    )


@cache
def _facts_statement() -> Any:
    """The `GameFacts` of the game ``b_game_id`` (PostgreSQL: read after its row lock)."""

    return select(*_facts(bindparam("b_game_id")))


def _facts(game_id: Any) -> tuple[Any, Any]:
    """EXISTS columns: the game has active observers; it has undelivered table talk."""

    observers = exists().where(col(Observer.game_id) == game_id, col(Observer.active).is_(True))
    talk = exists().where(col(TableTalk.game_id) == game_id, col(TableTalk.delivered_at).is_(None))
    return observers.label("observers"), talk.label("talk")


@dataclass
class _Locked:
    """The games `lock_game` loaded in a session's transaction, and their facts."""

    games: dict[int, Any] = field(default_factory=dict)
    facts: dict[int, GameFacts] = field(default_factory=dict)

    def forget(self, *_args: Any) -> None:
        self.games.clear()
        self.facts.clear()


def _locked_games(session: Session) -> _Locked:
    """The games `lock_game` loaded in this session's transaction (forgotten when it ends)."""
    memo: _Locked | None = session.info.get("pbem_locked_games")
    if memo is None:
        memo = session.info["pbem_locked_games"] = _Locked()
    return memo


def _forget_locked_games(session: Any, *_args: Any) -> None:
    memo: _Locked | None = session.info.get("pbem_locked_games")
    if memo is not None:
        memo.forget()


def _moves_flushed(session: Any, _context: Any) -> None:
    """A `Move` the ORM wrote: the games' highest move numbers are not known any more."""
    memo: _Locked | None = session.info.get("pbem_locked_games")
    if memo is None or not any(f.last_seq is not None for f in memo.facts.values()):
        return

    if any(isinstance(obj, Move) for obj in session.new):  # still the flushed ones here
        for game_id, known in memo.facts.items():
            memo.facts[game_id] = replace(known, last_seq=None)


# once for every session (a listener per session cost more than the lookups it saves)
for _name in ("after_commit", "after_rollback", "after_soft_rollback"):
    event.listen(OrmSession, _name, _forget_locked_games)
event.listen(OrmSession, "after_flush", _moves_flushed)


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
