"""The fair-play operator commands: `pbem export`, `pbem verify`, `pbem observe`.

Exit status as for every `pbem` command (`pbem.cli.app.EXIT_STATUSES`); for `verify`, 0
verified, 1 a difference found, 2 an export that cannot be verified (unreadable, not revealed).
Each command imports its module when it runs: every `pbem` command (a cron poll too) imports
this one, and the export loads the mail layer (`pbem.outbox.queue`: Jinja2, the map picture).
"""

from __future__ import annotations

import json
import sys

import click
from sqlmodel import Session

from pbem.cli.app import App, UsageFailure
from pbem.games.fairplay.export import build_export, export_json
from pbem.games.fairplay.observers import ObserverError, add_observer
from pbem.games.fairplay.verify import verify_export
from pbem.store.db import transaction
from pbem.store.models import Game, utcnow


def _app() -> App:
    app: App = click.get_current_context().obj  # the group's `pbem.cli.app.App`
    return app


@click.command()
@click.argument("game", type=int)
def export(game: int) -> None:
    """Print a game's export as JSON (the seed and draws only once the game has ended)."""
    app = _app()
    with Session(app.db) as s:
        row = s.get(Game, game)
        if row is None:
            raise click.ClickException(f"no game #{game} (see `pbem games`)")
        data = build_export(s, app.settings, row)
    click.echo(export_json(data), nl=False)


@click.command()
@click.argument(
    "export_file", metavar="EXPORT.json", type=click.Path(dir_okay=False, allow_dash=True)
)
def verify(export_file: str) -> None:
    """Recompute a game export: commitment, engine seed, every draw and position.

    Prints "verified ..." (exit 0) or the first point of difference (exit 1); exit 2 when the
    export cannot be checked (unreadable, or the game has not ended so the seed is secret).
    """
    try:
        with click.open_file(export_file, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise UsageFailure(f"cannot read {export_file}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise UsageFailure(f"{export_file} is not a game export (not JSON: {exc})") from None

    verdict = verify_export(data)
    if verdict.ok:
        click.echo(verdict.message)
        return
    click.echo(f"NOT VERIFIED: {verdict.message}", err=True)
    sys.exit(verdict.code)


@click.command()
@click.argument("game", type=int)
@click.argument("address")
def observe(game: int, address: str) -> None:
    """Ask ADDRESS to follow GAME's public board by mail (queued; send with `pbem send`).

    The address gets a confirmation code; the mails start when it replies with it."""
    app = _app()
    with transaction(app.db) as s:
        row = s.get(Game, game)
        if row is None:
            raise click.ClickException(f"no game #{game} (see `pbem games`)")
        try:
            obs = add_observer(s, app.settings, row, address, added_by="operator", now=utcnow())
        except ObserverError as exc:
            raise click.ClickException(str(exc)) from None
        email = obs.email
    app.say(f"{email} asked to observe game #{game}: it starts when they reply with the code")
