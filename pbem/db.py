"""Database access: the SQLModel engine, sessions and the one-transaction helper.

SQLite (the default) runs in WAL mode with a busy timeout, and every write
transaction (`transaction`) starts with ``BEGIN IMMEDIATE`` so the single
writer is decided up front instead of failing at the first write. Threads of one process
take their write turns in order (`WriteTurns`): SQLite's busy handler polls with growing
sleeps, so a short writer (the outbox pump marking a mail sent) could otherwise wait out many
back-to-back transactions of a long one (`pbem poll` applying a backlog). PostgreSQL works
unchanged; there `lock_game` takes a row lock so two mails for one game apply one after the
other.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine, select

__all__ = [
    "WriteTurns",
    "is_sqlite",
    "is_transient",
    "lock_game",
    "make_engine",
    "migrate",
    "transaction",
]

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


class WriteTurns:
    """First come, first served turns at SQLite's one write lock, for the threads of a process.

    `acquire` waits for the threads ahead (at most ``timeout`` seconds; then it goes on and
    SQLite's own locking decides, as without turns); a thread already holding a turn gets it
    again at once (a nested write). `release` hands the turn to the longest waiter.
    """

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._owner: int | None = None
        self._depth = 0
        self._waiting: deque[tuple[int, threading.Lock]] = deque()

    def acquire(self, timeout: float) -> bool:
        me = threading.get_ident()
        with self._mutex:
            if self._owner is None:
                self._owner, self._depth = me, 1
                return True
            if self._owner == me:
                self._depth += 1
                return True
            gate = threading.Lock()
            gate.acquire()
            self._waiting.append((me, gate))
        if gate.acquire(timeout=timeout):  # `release` made us the owner, then opened the gate
            return True
        with self._mutex:
            if (me, gate) in self._waiting:
                self._waiting.remove((me, gate))
                return False
        gate.acquire()  # handed over while timing out: the gate is open, the turn is ours
        return True

    def release(self) -> None:
        with self._mutex:  # (any thread may end a turn: a connection is returned where it is)
            self._depth -= 1
            if self._depth:
                return
            if self._waiting:
                self._owner, gate = self._waiting.popleft()
                self._depth = 1
                gate.release()
            else:
                self._owner = None


def _sqlite_setup(engine: Engine) -> None:
    """WAL, busy timeout, foreign keys; and take over BEGIN so it can be IMMEDIATE (in turn)."""
    turns = WriteTurns()

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (pysqlite quirk)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    holding: set[int] = set()  # the DBAPI connections (by id) whose thread holds a turn

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        if not conn.get_execution_options().get("pbem_write", False):
            conn.exec_driver_sql("BEGIN")
            return
        raw = conn.connection.dbapi_connection
        if turns.acquire(BUSY_TIMEOUT_MS / 1000):
            holding.add(id(raw))
        try:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        except BaseException:
            _end_turn(raw)
            raise

    def _end_turn(conn: Any) -> None:
        raw = getattr(conn, "dbapi_connection", conn)  # the pool's proxy or the DBAPI connection
        if id(raw) in holding:
            holding.discard(id(raw))
            turns.release()

    def _after(step: Any) -> Any:
        def run(raw: Any) -> None:
            try:
                step(raw)
            finally:  # after the COMMIT/ROLLBACK itself: the next writer finds the lock free
                _end_turn(raw)

        return run

    engine.dialect.do_commit = _after(engine.dialect.do_commit)  # type: ignore[method-assign]
    engine.dialect.do_rollback = _after(engine.dialect.do_rollback)  # type: ignore[method-assign]
    # a connection dropped or returned mid-transaction ends its turn too
    event.listen(engine.pool, "checkin", lambda raw, _record: _end_turn(raw))
    event.listen(engine.pool, "invalidate", lambda raw, _record, _exc: _end_turn(raw))


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
    """Load the game row for update (a row lock on PostgreSQL; SQLite is already exclusive).

    A row is locked until its transaction ends, so a second call in the same transaction (a
    mail's handlers ask twice) returns the row already loaded, as the query would (the
    identity map keeps loaded rows as they are), without asking the database again.
    """
    from pbem.models import Game

    locked = _locked_games(session)
    game = locked.get(game_id)
    if game is not None:
        state = sa_inspect(game)
        if state.session is session and not (state.deleted or state.was_deleted):
            return game
    stmt = select(Game).where(Game.id == game_id)
    if not is_sqlite(session.get_bind()):  # type: ignore[arg-type]
        stmt = stmt.with_for_update()
    game = session.exec(stmt).first()
    if game is not None:
        locked[game_id] = game
    return game


def _locked_games(session: Session) -> dict[int, Any]:
    """The games `lock_game` loaded in this session's transaction (forgotten when it ends)."""
    memo: dict[int, Any] | None = session.info.get("pbem_locked_games")
    if memo is None:
        memo = session.info["pbem_locked_games"] = {}
        forget = memo.clear
        for name in ("after_commit", "after_rollback", "after_soft_rollback"):
            event.listen(session, name, lambda *_args: forget())
    return memo


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
