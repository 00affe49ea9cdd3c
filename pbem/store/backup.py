"""Backups of a SQLite database: a consistent copy while the server runs, and putting one back.

`backup` copies the live database with SQLite's online backup API (`sqlite3.Connection.backup`)
in one step: the copy is the database as it was at one commit, whatever the worker writes
meanwhile (in WAL mode a reader never waits for the writer, nor the writer for it). The copy
is written beside the target and renamed into place only once checked, so a target file is
never half written. `restore` checks a backup and copies it, page by page with the same API,
over the database named by ``PBEM_DATABASE_URL``; the caller holds the run lock (no worker
writes meanwhile) and migrates the schema afterwards. PostgreSQL is backed up with its own
tools, ``pg_dump`` and ``pg_restore`` (docs/OPERATING.md, "Backing up").
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from pbem.store.db import BUSY_TIMEOUT_MS, sqlite_file

__all__ = ["BackupError", "BackupInfo", "backup", "restore"]

PG_DUMP = "pg_dump --format=custom --file=FILE DATABASE"


class BackupError(Exception):
    """The backup or restore cannot be done (the message says why, for an operator)."""


@dataclass(frozen=True)
class BackupInfo:
    """A database file: where, how large, its schema revision and how many games it holds."""

    path: Path
    size: int
    revision: str
    games: int


def _file_of(url: str, doing: str) -> Path:
    path = sqlite_file(url)
    if path is None:
        raise BackupError(
            f"{doing} works on a SQLite database; for PostgreSQL use its own tools: "
            f"{PG_DUMP} (restore: pg_restore --clean --dbname=DATABASE FILE)"
        )
    return path


def backup(url: str, target: Path) -> BackupInfo:
    """Copy the database of ``url`` to ``target`` (replaced if it exists), consistently,
    while the server may be running."""
    source = _file_of(url, "pbem backup")
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    if target.resolve() == source.resolve():
        raise BackupError("the backup file must not be the database itself")
    partial = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        with (
            closing(sqlite3.connect(source, timeout=BUSY_TIMEOUT_MS / 1000)) as live,
            closing(sqlite3.connect(partial)) as copy,
        ):
            live.backup(copy)  # pages=-1: all in one step, one consistent snapshot
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        info = _check(partial)
        os.replace(partial, target)
    except (sqlite3.Error, OSError) as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"backup of {source} to {target} failed: {exc}") from exc
    return BackupInfo(target, info.size, info.revision, info.games)


def restore(backup_file: Path, url: str) -> BackupInfo:
    """Copy ``backup_file`` (made by `backup`) over the database of ``url``. The caller holds
    the run lock, so no worker writes meanwhile, and migrates the schema afterwards."""
    target = _file_of(url, "pbem restore")
    if not backup_file.is_file():
        raise BackupError(f"no backup at {backup_file}")
    if target.exists() and target.resolve() == backup_file.resolve():
        raise BackupError("the backup file is the database itself")
    try:
        info = _check(backup_file)
        target.parent.mkdir(parents=True, exist_ok=True)
        with (
            closing(sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)) as saved,
            closing(sqlite3.connect(target, timeout=BUSY_TIMEOUT_MS / 1000)) as live,
        ):
            saved.backup(live)  # every page of the database replaced, in one transaction
    except (sqlite3.Error, OSError) as exc:
        raise BackupError(f"restore of {backup_file} to {target} failed: {exc}") from exc
    return BackupInfo(target, target.stat().st_size, info.revision, info.games)


def _check(path: Path) -> BackupInfo:
    """The file is a whole SQLite database of this server (integrity and schema checked)."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        verdict = db.execute("PRAGMA integrity_check").fetchone()
        if verdict is None or verdict[0] != "ok":
            raise BackupError(f"{path} is damaged: integrity_check says {verdict}")
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if not {"alembic_version", "game"} <= tables:
            raise BackupError(f"{path} is not a pbem database (no game or schema version)")
        revision = db.execute("SELECT version_num FROM alembic_version").fetchone()
        games = db.execute("SELECT count(*) FROM game").fetchone()
    return BackupInfo(path, path.stat().st_size, revision[0] if revision else "", games[0])
