"""The `pbem` command's shared parts: the context object `App`, the exit statuses, and the
root group's class, the one place that turns a user's mistake into a short message.

Every error a user can cause ends in one or two lines on stderr (what is wrong, what to do)
and one of the `EXIT_STATUSES`; anything else is a bug and keeps its traceback. Only
`pbem init` creates a database: every other command opens an existing one, migrating it
first when its schema is behind, and refuses (exit 1, "run pbem init") when there is none.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import click
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

import engine
from pbem.config import ConfigError, Settings
from pbem.errors import ServiceError
from pbem.store.db import (
    BadDatabaseURL,
    DatabaseError,
    DatabaseUnreachable,
    DriverMissing,
    make_engine,
    migrate,
    sqlite_file,
)
from pbem.worker.checks import refusals

EDITION_CHOICE = click.Choice(list(engine.EDITIONS))  # the engine's editions, one home
EXIT_USER = 1
EXIT_USAGE = 2
EXIT_ATTENTION = 3
EXIT_UNREACHABLE = 4
EXIT_LOCKED = 75

EXIT_STATUSES = (
    (0, "done (or nothing to do, or stopped by SIGTERM/SIGINT after the mail in hand)"),
    (EXIT_USER, "a user error: no such game, no database yet (run pbem init), a refused setting"),
    (EXIT_USAGE, "a usage error: a missing or malformed argument, option or setting"),
    (
        EXIT_ATTENTION,
        "needs an operator: a quarantined mail, a bounce, a failed mail, an outage, "
        "a database that cannot be written (full or read-only)",
    ),
    (
        EXIT_UNREACHABLE,
        "a mail server or the database unreachable or locked (the next run retries)",
    ),
    (EXIT_LOCKED, "another pbem run holds the lock (try again later)"),
)
"""The exit statuses, as `pbem --help` and the README list them."""

URL_SHAPES = (
    "expected sqlite:///relative/path.db, sqlite:////absolute/path.db or "
    "postgresql+psycopg://user:password@host/dbname"
)


class NoDatabase(DatabaseError):
    """The configured database does not exist yet, or has no pbem tables (`pbem init`)."""


@dataclass
class App:
    """The context object: settings, how the user calls us, the database (opened lazily)."""

    settings: Settings
    verbose: bool = False
    prog: str = "pbem"

    @cached_property
    def existing_db(self) -> Engine:
        """The configured database, which must exist already (`NoDatabase` otherwise)."""
        return open_existing(self.settings.database_url)

    @cached_property
    def db(self) -> Engine:
        """The existing database at the newest schema (migrated here when behind)."""
        db = self.existing_db
        with database_errors(db):
            migrate(db)
        return db

    def say(self, text: str) -> None:
        click.echo(text)

    def note(self, text: str) -> None:
        if self.verbose:
            click.echo(text, err=True)

    def require_identity(self) -> None:
        """Refuse to handle games or mail on a refused secret/address (exit 1)."""
        problems = refusals(self.settings)
        if problems:
            raise click.ClickException(
                f"refusing to run: {problems[0]}"
                + (f" (and {len(problems) - 1} more: `{self.prog} check`)" if problems[1:] else "")
            )


def open_existing(url: str) -> Engine:
    """An engine for an existing pbem database at ``url``; creates nothing on the way."""
    path = sqlite_file(url)
    if path is not None and not path.is_file():
        raise NoDatabase(f"no database at {path}")
    db = make_engine(url)
    with database_errors(db):
        initialised = sa_inspect(db).has_table("alembic_version")
    if not initialised:
        db.dispose()
        where = path or db.url.render_as_string(hide_password=True)
        raise NoDatabase(f"the database {where} has no pbem tables")
    return db


@contextmanager
def database_errors(db: Engine) -> Iterator[None]:
    """Turn a failed connection into `DatabaseUnreachable` (a server) or `DatabaseError`."""
    try:
        yield
    except OperationalError as exc:
        where = db.url.render_as_string(hide_password=True)
        reason = str(exc.orig or exc).strip().splitlines()[0]
        if db.dialect.name == "sqlite":
            raise DatabaseError(f"cannot open the database {where}: {reason}") from None
        raise DatabaseUnreachable(f"cannot reach the database {where}: {reason}") from None


def explain(exc: Exception, prog: str) -> tuple[str, int]:
    """The message (one or two lines) and exit status of a known error."""
    if isinstance(exc, ConfigError):
        return str(exc), EXIT_USAGE
    if isinstance(exc, NoDatabase):
        return (
            f"{exc}\nrun `{prog} init` to create it, or point --database-url "
            "(PBEM_DATABASE_URL) at your database",
            EXIT_USER,
        )
    if isinstance(exc, BadDatabaseURL):
        return f"--database-url (PBEM_DATABASE_URL): {exc}\n{URL_SHAPES}", EXIT_USAGE
    if isinstance(exc, DriverMissing):
        return f"{exc}\ninstall it: pip install 'pbem1960[postgres]'", EXIT_USER
    if isinstance(exc, DatabaseUnreachable):
        return f"{exc}\nis the server up and the URL right? (a cron run retries)", EXIT_UNREACHABLE
    return str(exc), EXIT_USER


KNOWN_ERRORS = (ConfigError, DatabaseError, ServiceError)


class Failure(click.ClickException):
    """A known error as click shows it ("Error: ..." on stderr), exit 1."""


class UsageFailure(Failure):
    exit_code = EXIT_USAGE


class UnreachableFailure(Failure):
    exit_code = EXIT_UNREACHABLE


FAILURES: dict[int, type[Failure]] = {
    EXIT_USER: Failure,
    EXIT_USAGE: UsageFailure,
    EXIT_UNREACHABLE: UnreachableFailure,
}


class ShortUsage(click.UsageError):
    """click's usage error in two lines: what is wrong, then the usage and where help is."""

    def show(self, file: Any = None) -> None:
        click.echo(f"Error: {self.format_message()}", err=True)
        if self.ctx is not None:
            usage = self.ctx.get_usage().replace("\n", " ")
            click.echo(f"{usage}   (more: {self.ctx.command_path} --help)", err=True)


def _short(exc: click.UsageError) -> click.UsageError:
    if isinstance(exc, ShortUsage | click.exceptions.NoArgsIsHelpError):
        return exc
    return ShortUsage(exc.format_message(), exc.ctx)


class PbemGroup(click.Group):
    """The root group: names the program as the user calls it (``PBEM_PROG``, set by
    ``scripts/pbem``) and turns known errors into `Failure` / `ShortUsage`."""

    # click types main() with overloads; this passes every argument on as it is
    def main(self, *args: Any, **kw: Any) -> Any:
        if len(args) < 2 and kw.get("prog_name") is None:
            kw["prog_name"] = os.environ.get("PBEM_PROG") or None
        return super().main(*args, **kw)

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **kw: Any
    ) -> Any:
        try:
            return super().make_context(info_name, args, parent, **kw)
        except click.UsageError as exc:
            raise _short(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise _short(exc) from None
        except KNOWN_ERRORS as exc:
            message, code = explain(exc, ctx.command_path)
            raise FAILURES[code](message) from None


def exit_status_help() -> str:
    """The exit statuses for `pbem --help` (``\\b``: click keeps the lines as they are)."""
    return "\b\nExit status:\n" + "\n".join(f"  {code:>2}  {what}" for code, what in EXIT_STATUSES)


pass_app = click.make_pass_decorator(App)
