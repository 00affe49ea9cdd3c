"""Database failures that are not a mail's fault: what they are, and which are worth a retry.

A locked SQLite file, a lost PostgreSQL connection, a full disk or a read-only database fails
every mail alike; such a mail is never quarantined. The pipeline retries the transient kinds
(`is_transient`) and defers the mail (it stays in the INBOX); the worker pass then stops
(`DatabaseFailure`) and the command says what happened in one line, with the exit status of
`DatabaseProblem.transient` (docs/OPERATING.md, "The database fails").
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from sqlalchemy.exc import DBAPIError, OperationalError

__all__ = ["DatabaseFailure", "DatabaseProblem", "database_problem", "is_transient"]

# SQLite's primary result codes (the extended ones start with them: SQLITE_IOERR_WRITE)
_SQLITE = {
    "SQLITE_BUSY": "locked",
    "SQLITE_LOCKED": "locked",
    "SQLITE_FULL": "full",
    "SQLITE_READONLY": "read-only",
    "SQLITE_IOERR": "I/O error",
    "SQLITE_CANTOPEN": "cannot open",
}
# PostgreSQL SQLSTATEs (any other OperationalError of psycopg: a connection lost or refused)
_POSTGRES = {
    "40001": "conflict",  # serialization_failure
    "40P01": "conflict",  # deadlock_detected
    "53100": "full",  # disk_full
    "25006": "read-only",  # read_only_sql_transaction (a standby, default_transaction_read_only)
}
_TRANSIENT = frozenset({"locked", "unreachable", "conflict"})  # may be gone in a second
_SAYS = {
    "locked": "the database is locked: another process holds its write lock",
    "unreachable": "the database cannot be reached (connection refused or lost)",
    "conflict": "the database kept failing the transaction (serialization failure or deadlock)",
    "full": "the database cannot be written: its disk is full",
    "read-only": "the database is read-only (file permissions, an immutable file, a read-only "
    "mount or a standby server)",
    "I/O error": "the database cannot be written: disk I/O error (a full disk, a file size "
    "limit or a failing disk)",
    "cannot open": "the database file cannot be opened",
}


@dataclass(frozen=True)
class DatabaseProblem:
    """A database failure: its ``kind`` (a key of `_SAYS`) and the driver's own message."""

    kind: str
    detail: str

    @property
    def transient(self) -> bool:
        """Worth retrying now (locked, unreachable, a conflict); else an operator must act."""
        return self.kind in _TRANSIENT

    def says(self) -> str:
        """What happened, for an operator: one line, the driver's message at the end."""
        first = self.detail.strip().splitlines()[0] if self.detail.strip() else ""
        return f"{_SAYS[self.kind]} ({first[:200]})" if first else _SAYS[self.kind]


class DatabaseFailure(Exception):
    """The worker pass stopped at a database failure; ``done`` is what it did before it."""

    def __init__(self, problem: DatabaseProblem, done: str = "") -> None:
        super().__init__(problem.says())
        self.problem, self.done = problem, done


def database_problem(exc: BaseException) -> DatabaseProblem | None:
    """The database failure ``exc`` is (or was caused by), or None for any other error."""
    if isinstance(exc, DatabaseFailure):
        return exc.problem
    if not isinstance(exc, DBAPIError):
        return None
    orig = exc.orig
    if exc.connection_invalidated:
        return DatabaseProblem("unreachable", str(orig))
    if isinstance(orig, sqlite3.Error):
        name = str(getattr(orig, "sqlite_errorname", "") or "")
        for prefix, kind in _SQLITE.items():
            if name == prefix or name.startswith(prefix + "_"):
                return DatabaseProblem(kind, str(orig))
        text = str(orig).lower()  # a driver without error names
        if "locked" in text or "busy" in text:
            return DatabaseProblem("locked", str(orig))
        return None
    found = _POSTGRES.get(str(getattr(orig, "sqlstate", None) or ""))
    if found is not None:
        return DatabaseProblem(found, str(orig))
    if isinstance(exc, OperationalError):  # psycopg: connection errors and the like
        return DatabaseProblem("unreachable", str(orig))
    return None


def is_transient(exc: BaseException) -> bool:
    """A database error worth retrying: locked/busy SQLite, a dropped or refused connection,
    a PostgreSQL serialization failure or deadlock. Such an error never quarantines a mail."""
    problem = database_problem(exc)
    return problem is not None and problem.transient
