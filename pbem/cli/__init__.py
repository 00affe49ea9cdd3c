"""The `pbem` command: a thin click shell over the wings' operations (every option has an envvar).

Exit status: 0 done (or nothing to do), 1 usage or user error, 3 something
needs an operator (a mail was quarantined, an outbox mail failed for good or bounced, a
replay mismatch, a failed check, a database that cannot be written), 4 a mail server or the
database could not be reached (or it stayed locked), 75 another pbem worker holds the lock.

The commands live by domain: `pbem.cli.games` (new, seat, games, show, log, replay),
`pbem.cli.worker` (poll, tick, send, serve), `pbem.cli.operator` (init, check, held),
`pbem.cli.backup` (backup, restore),
`pbem.cli.demo` (demo, tournament), `pbem.cli.orders` (notify, standing) and
`pbem.cli.fairplay` (export, verify, observe); this module holds the root group.
"""

from __future__ import annotations

import logging

import click

from pbem.cli.app import App, PbemGroup, exit_status_help
from pbem.cli.backup import backup, restore
from pbem.cli.demo import demo, tournament
from pbem.cli.fairplay import export, observe, verify
from pbem.cli.games import games, log_, new, replay, seat, show
from pbem.cli.operator import check, held, init
from pbem.cli.orders import notify_cmd, standing_cmd
from pbem.cli.worker import poll, send, serve, tick
from pbem.config import load_settings

__all__ = ["cli"]


@click.group(cls=PbemGroup, epilog=exit_status_help())
@click.option(
    "--config",
    "config_file",
    envvar="PBEM_CONFIG",
    type=click.Path(dir_okay=False),
    help="TOML file with the PBEM_* settings.",
)
@click.option(
    "--database-url",
    envvar="PBEM_DATABASE_URL",
    help="sqlite:///pbem.db (the default) or postgresql+psycopg://user:pw@host/db.",
)
@click.option("-v", "--verbose", is_flag=True, envvar="PBEM_VERBOSE", help="Say more (on stderr).")
@click.version_option(package_name="pbem1960")
@click.pass_context
def cli(
    ctx: click.Context, config_file: str | None, database_url: str | None, verbose: bool
) -> None:
    """Play-by-email server for 1960: The Making of the President."""
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    settings = load_settings(config_file, database_url=database_url)  # ConfigError: exit 2
    ctx.obj = App(settings, verbose, prog=ctx.command_path)


for _command in (init, new, poll, tick, seat, send, serve, held, games, show, log_, replay):
    cli.add_command(_command)
for _command in (check, demo, tournament, export, verify, observe, notify_cmd, standing_cmd):
    cli.add_command(_command)
for _command in (backup, restore):
    cli.add_command(_command)
