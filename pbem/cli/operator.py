"""The operator's housekeeping commands: `pbem init`, `check` and `held` (release, drop).

Create or migrate the database, check the configuration, and decide on moves held because
their sender failed DMARC/DKIM.
"""

from __future__ import annotations

import sys

import click
from sqlalchemy.engine import Engine

from pbem.cli.app import (
    EXIT_ATTENTION,
    KNOWN_ERRORS,
    App,
    database_errors,
    explain,
    pass_app,
)
from pbem.pipeline.held import HeldNotFound, drop, list_held, release
from pbem.store.db import make_engine, migrate
from pbem.worker.checks import config_warnings, run_checks


@click.command()
@pass_app
def init(app: App) -> None:
    """Create the database, or migrate it to the newest schema (the only command that creates)."""
    db = make_engine(app.settings.database_url)
    with database_errors(db):
        before, after = migrate(db)
    if before == after:
        app.say(f"database is up to date (revision {after})")
    else:
        app.say(f"database migrated: {before or 'empty'} -> {after}")


@click.group(invoke_without_command=True)
@click.pass_context
def held(ctx: click.Context) -> None:
    """Moves held because the sender failed DMARC/DKIM (list; `release ID`, `drop ID`)."""
    if ctx.invoked_subcommand is not None:
        return

    app = ctx.find_object(App)
    assert app is not None
    rows = list_held(app.db)
    if not rows:
        app.say("no held moves")
    for r in rows:
        app.say(
            f"#{r.id:<4} {r.created_at:%Y-%m-%d %H:%M} game #{r.game_id} {r.side or '-':8} "
            f"{r.from_addr}  {r.reason}"
        )


@held.command("release")
@click.argument("held_id", type=int)
@pass_app
def held_release(app: App, held_id: int) -> None:
    """Apply a held move now (you vouch for its sender); the reports go out on the next send."""
    try:
        out = release(app.db, app.settings, held_id)
    except HeldNotFound as exc:
        raise click.ClickException(str(exc)) from None
    app.say(f"held move #{held_id}: {out.outcome}{': ' + out.reason if out.reason else ''}")


@held.command("drop")
@click.argument("held_id", type=int)
@pass_app
def held_drop(app: App, held_id: int) -> None:
    """Discard a held move (its record stays in the inbound table as `dropped`)."""
    try:
        drop(app.db, held_id)
    except HeldNotFound as exc:
        raise click.ClickException(str(exc)) from None
    app.say(f"held move #{held_id} dropped")


@click.command()
@pass_app
def check(app: App) -> None:
    """Check the configuration: every refused setting, the database, IMAP login and folders,
    SMTP (and warn when sender authentication is off)."""
    failed = 0

    def open_db() -> Engine:
        try:
            return app.db
        except KNOWN_ERRORS as exc:  # the message a command would end with, on one line
            raise RuntimeError(explain(exc, app.prog)[0].replace("\n", "; ")) from None

    for name, ok, detail in run_checks(open_db, app.settings):
        app.say(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
        failed += not ok
    for warning in config_warnings(app.settings):
        app.say(f"WARN {warning}")
    sys.exit(EXIT_ATTENTION if failed else 0)
