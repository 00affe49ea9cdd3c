"""`pbem backup FILE` and `pbem restore FILE`: a SQLite database copied while the server runs,
and put back (`pbem.store.backup`; PostgreSQL: pg_dump and pg_restore, docs/OPERATING.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from engine.data import counted
from pbem.cli.app import EXIT_LOCKED, App, pass_app
from pbem.store.backup import BackupError
from pbem.store.backup import backup as backup_database
from pbem.store.backup import restore as restore_database
from pbem.store.db import sqlite_file
from pbem.worker.lock import Locked, RunLock

FILE = click.Path(dir_okay=False, path_type=Path)


@click.command()
@click.argument("file", type=FILE)
@pass_app
def backup(app: App, file: Path) -> None:
    """Write a consistent copy of the SQLite database to FILE (replaced if it exists).

    Safe while `pbem poll` or `pbem serve` runs: the copy is the database as of one commit.
    """
    try:
        info = backup_database(app.settings.database_url, file)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    app.note(f"{info.size} bytes, schema {info.revision}")
    app.say(f"backup written to {info.path}: {counted(info.games, 'game')}, schema {info.revision}")


@click.command()
@click.argument("file", type=FILE)
@click.option("--yes", is_flag=True, help="Replace the current database without asking.")
@pass_app
def restore(app: App, file: Path, yes: bool) -> None:
    """Put FILE (made by `pbem backup`) in place of the SQLite database, then migrate it.

    Takes the run lock (exit 75 while a worker runs: stop the timer or the service first).
    """
    target = sqlite_file(app.settings.database_url)
    if target is not None and target.exists() and not yes:
        click.confirm(f"replace the database {target} with {file}?", abort=True)
    try:
        with RunLock(app.settings.lock_path):
            info = restore_database(file, app.settings.database_url)
            _ = app.db  # the restored database, migrated when behind
    except Locked as exc:
        click.echo(f"{exc}: stop it first (the timer or the service)", err=True)
        sys.exit(EXIT_LOCKED)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    app.say(f"database {info.path} restored from {file}: {counted(info.games, 'game')}")
