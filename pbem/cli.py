"""The `pbem` command: a thin click shell over `pbem.service` (every option has an envvar).

Exit status: 0 done (or nothing to do), 1 usage or user error, 3 something
needs an operator (a mail was quarantined, an outbox mail failed for good, a
replay mismatch, a failed check), 4 a mail server could not be reached,
75 another pbem worker holds the lock (try again later).
"""

from __future__ import annotations

import json
import logging
import sys
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import click
from sqlalchemy.engine import Engine

from pbem import service
from pbem.config import ConfigError, Settings, load_settings
from pbem.db import make_engine, migrate
from pbem.lock import Locked, RunLock

EXIT_ATTENTION = 3
EXIT_UNREACHABLE = 4
EXIT_LOCKED = 75


@dataclass
class App:
    """The context object: settings and the database engine (opened lazily)."""

    settings: Settings
    verbose: bool = False

    @cached_property
    def db(self) -> Engine:
        return make_engine(self.settings.database_url)

    def say(self, text: str) -> None:
        click.echo(text)

    def note(self, text: str) -> None:
        if self.verbose:
            click.echo(text, err=True)


pass_app = click.make_pass_decorator(App)


@click.group()
@click.option("--config", "config_file", envvar="PBEM_CONFIG", type=click.Path(dir_okay=False),
              help="TOML file with the PBEM_* settings.")
@click.option("--database-url", envvar="PBEM_DATABASE_URL", help="SQLAlchemy URL (default sqlite:///pbem.db).")
@click.option("-v", "--verbose", is_flag=True, envvar="PBEM_VERBOSE", help="Say more (on stderr).")
@click.version_option(package_name="pbem1960")
@click.pass_context
def cli(ctx: click.Context, config_file: str | None, database_url: str | None, verbose: bool) -> None:
    """Play-by-email server for 1960: The Making of the President."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        settings = load_settings(config_file, database_url=database_url)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    ctx.obj = App(settings, verbose)


@cli.command()
@pass_app
def init(app: App) -> None:
    """Create the database, or migrate it to the newest schema."""
    before, after = migrate(app.db)
    if before == after:
        app.say(f"database is up to date (revision {after})")
    else:
        app.say(f"database migrated: {before or 'empty'} -> {after}")


@cli.command()
@click.option("--kennedy", required=True, envvar="PBEM_KENNEDY",
              help="Kennedy's email address, or bot:heuristic / bot:search[:SECONDS].")
@click.option("--nixon", required=True, envvar="PBEM_NIXON",
              help="Nixon's email address, or bot:heuristic / bot:search[:SECONDS].")
@click.option("--edition", type=click.Choice(["zman", "gmt"]), default="zman", show_default=True,
              envvar="PBEM_EDITION")
@click.option("--option", "options", multiple=True, envvar="PBEM_OPTIONS",
              help="Rules option (GMT): vice_presidents, restricted_positioning.")
@click.option("--start", is_flag=True, envvar="PBEM_START",
              help="Start at once, without invitations (for scripts; no player entropy).")
@click.option("--seed", type=int, envvar="PBEM_SEED",
              help="Fixed seed, no commitment (implies --start; for tests and reproductions).")
@pass_app
def new(app: App, kennedy: str, nixon: str, edition: str, options: tuple[str, ...],
        start: bool, seed: int | None) -> None:
    """Invite both players to a game with a committed seed (send with `pbem send`).

    The game starts when both reply `accept`; with --start it starts at once.
    """
    migrate(app.db)
    invite = not start and seed is None
    game_id = _user(lambda: service.new_game(app.db, app.settings, kennedy=kennedy, nixon=nixon,
                                             edition=edition, options=options, seed=seed,
                                             invite=invite))
    app.say(f"game #{game_id} created: Kennedy {kennedy}, Nixon {nixon} ({edition}); "
            + ("invitations queued" if invite else "welcome mails queued"))


def _user(fn: Any) -> Any:
    try:
        return fn()
    except service.ServiceError as exc:
        raise click.ClickException(str(exc)) from None


@cli.command()
@click.option("--no-send", is_flag=True, envvar="PBEM_NO_SEND", help="Process mail, don't send.")
@pass_app
def poll(app: App, no_send: bool) -> None:
    """One pass for cron: fetch and process new mail, send the outbox, exit."""
    try:
        with RunLock(app.settings.lock_path):
            code = _poll(app, no_send)
    except Locked as exc:
        app.note(str(exc))
        sys.exit(EXIT_LOCKED)
    sys.exit(code)


def _poll(app: App, no_send: bool) -> int:
    migrate(app.db)
    code = 0
    try:
        with service.open_mailbox(app.settings) as inbox:
            inbox.ensure_folders()
            stats = service.poll_once(app.db, app.settings, inbox)
    except OSError as exc:
        click.echo(f"IMAP {app.settings.imap_host}:{app.settings.imap_port}: {exc}", err=True)
        return EXIT_UNREACHABLE
    if stats.total:
        app.say("in: " + stats.summary())
    code = EXIT_ATTENTION if stats.outcomes["quarantined"] else 0
    if not no_send:
        code = max(code, _send(app))
    return code


def _send(app: App) -> int:
    sent = service.drain_outbox(app.db, app.settings, service.make_sender(app.settings))
    if sent.sent or sent.retrying or sent.failed:
        app.say("out: " + sent.summary())
    if sent.failed:
        return EXIT_ATTENTION
    return EXIT_UNREACHABLE if sent.retrying and not sent.sent else 0


@cli.command()
@pass_app
def send(app: App) -> None:
    """Send the outbox only (retrying earlier temporary failures that are due)."""
    try:
        with RunLock(app.settings.lock_path):
            migrate(app.db)
            code = _send(app)
    except Locked as exc:
        app.note(str(exc))
        sys.exit(EXIT_LOCKED)
    sys.exit(code)


@cli.command()
@click.option("--embedded", is_flag=True, envvar="PBEM_EMBEDDED",
              help="Run local SMTP+IMAP servers on 127.0.0.1 for mail clients to use.")
@click.option("--idle-timeout", type=float, default=300.0, show_default=True,
              envvar="PBEM_IDLE_TIMEOUT", help="Seconds per IDLE before a routine re-poll.")
@click.option("--smtp-port", type=int, default=2525, show_default=True, envvar="PBEM_EMBEDDED_SMTP_PORT")
@click.option("--imap-port", type=int, default=1143, show_default=True, envvar="PBEM_EMBEDDED_IMAP_PORT")
@pass_app
def serve(app: App, embedded: bool, idle_timeout: float, smtp_port: int, imap_port: int) -> None:
    """Run until SIGTERM/SIGINT: IMAP IDLE plus periodic poll and outbox drain."""
    from pbem.serve import Stopper
    from pbem.serve import serve as run_serve

    stopper = Stopper()
    stopper.install()
    try:
        with RunLock(app.settings.lock_path):
            migrate(app.db)
            if embedded:
                _serve_embedded(app, stopper, idle_timeout, smtp_port, imap_port)
            else:
                run_serve(app.db, app.settings, lambda: service.open_mailbox(app.settings),
                          service.make_sender(app.settings), stopper=stopper,
                          idle_timeout=idle_timeout, on_pass=app.note)
    except Locked as exc:
        click.echo(str(exc), err=True)
        sys.exit(EXIT_LOCKED)
    app.say("stopped")


def _serve_embedded(app: App, stopper: Any, idle_timeout: float, smtp_port: int,
                    imap_port: int) -> None:
    from pbem.mail.embedded import EmbeddedMailServers
    from pbem.serve import serve as run_serve

    domain = app.settings.address_domain
    with EmbeddedMailServers(smtp_port=smtp_port, imap_port=imap_port, domain=domain) as mail:
        settings = app.settings.with_(imap_host=mail.host, imap_port=mail.imap_port,
                                      imap_ssl=False, imap_user=app.settings.address,
                                      imap_password="x", smtp_host=mail.host,
                                      smtp_port=mail.smtp_port, smtp_tls=False, smtp_user="")
        app.say("embedded mail: " + mail.address_note)
        app.say(f"game mailbox: {settings.address}; stop with Ctrl-C")
        run_serve(app.db, settings, lambda: service.open_mailbox(settings),
                  service.make_sender(settings), stopper=stopper, idle_timeout=idle_timeout,
                  on_pass=app.note)


@cli.command()
@pass_app
def games(app: App) -> None:
    """List the games."""
    rows = service.games(app.db)
    if not rows:
        app.say("no games")
    for r in rows:
        app.say(f"#{r.id:<4} {r.status:6} {r.edition:4} turn {r.turn} {r.phase:10} "
                f"waiting for {r.waiting_for or '-':14} moves {r.moves:<4} "
                f"K {r.kennedy}  N {r.nixon}")


@cli.command()
@click.argument("game", type=int)
@click.option("--as", "as_", type=click.Choice(service.SIDE_CHOICES), default="public",
              show_default=True, envvar="PBEM_AS", help="Whose view to show.")
@click.option("--json", "as_json", is_flag=True, envvar="PBEM_JSON",
              help="Print that side's engine view (with legal commands) as JSON.")
@pass_app
def show(app: App, game: int, as_: str, as_json: bool) -> None:
    """Show a game as one side's report shows it (or the public board)."""
    if as_json:
        app.say(json.dumps(_user(lambda: service.show_json(app.db, game, as_)), indent=2))
    else:
        app.say(_user(lambda: service.show(app.db, app.settings, game, as_)))


@cli.command("log")
@click.argument("game", type=int)
@pass_app
def log_(app: App, game: int) -> None:
    """Print a game's move log (sequence, side, command)."""
    for m in _user(lambda: service.game_log(app.db, game)):
        app.say(f"{m.seq:5} {m.created_at:%Y-%m-%d %H:%M} {m.side:8} {m.command}")


@cli.command()
@click.argument("game", type=int)
@pass_app
def replay(app: App, game: int) -> None:
    """Rebuild a game from its move log and compare it with the stored snapshot."""
    report = _user(lambda: service.replay(app.db, game))
    if report.ok:
        app.say(f"game #{game}: {report.moves} moves replayed, snapshot matches")
        return
    click.echo(f"game #{game}: MISMATCH after {report.moves} moves: {report.problem}", err=True)
    sys.exit(EXIT_ATTENTION)


@cli.command()
@pass_app
def check(app: App) -> None:
    """Check the configuration: database, IMAP login and folders, SMTP."""
    from pbem.checks import run_checks

    failed = 0
    for name, ok, detail in run_checks(app.db, app.settings):
        app.say(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
        failed += not ok
    sys.exit(EXIT_ATTENTION if failed else 0)


@cli.command()
@click.option("--seed", type=int, default=1960, show_default=True, envvar="PBEM_DEMO_SEED")
@click.option("--edition", type=click.Choice(["zman", "gmt"]), default="zman", show_default=True,
              envvar="PBEM_DEMO_EDITION")
@click.option("--dir", "folder", type=click.Path(file_okay=False), envvar="PBEM_DEMO_DIR",
              help="Keep the database here (default: a temporary folder).")
@click.option("--max-moves", type=int, default=5000, show_default=True, envvar="PBEM_DEMO_MAX_MOVES")
@click.option("--keep-running", is_flag=True, envvar="PBEM_DEMO_KEEP",
              help="Keep the mail servers up after the game, to read the mail.")
@pass_app
def demo(app: App, seed: int, edition: str, folder: str | None, max_moves: int,
         keep_running: bool) -> None:
    """Play a whole game by email on embedded local mail servers, with two scripted players."""
    from pbem.demo import run_demo

    result = run_demo(seed=seed, edition=edition, folder=folder, max_moves=max_moves,
                      keep_running=keep_running)
    sys.exit(0 if result.finished else EXIT_ATTENTION)


@cli.command()
@click.argument("player_a", metavar="A")
@click.argument("player_b", metavar="B")
@click.option("--games", type=click.IntRange(min=1), default=20, show_default=True,
              envvar="PBEM_TOURNAMENT_GAMES", help="Games in all; A and B take each side alternately.")
@click.option("--edition", type=click.Choice(["zman", "gmt"]), default="zman", show_default=True,
              envvar="PBEM_EDITION")
@click.option("--workers", type=click.IntRange(min=1), envvar="PBEM_TOURNAMENT_WORKERS",
              help="Parallel processes (default: one per CPU).")
@click.option("--seed", type=int, default=1, show_default=True, envvar="PBEM_TOURNAMENT_SEED",
              help="First game seed (games 2k and 2k+1 share seed+k).")
@click.option("--json", "json_file", type=click.Path(dir_okay=False), envvar="PBEM_TOURNAMENT_JSON",
              help="Also write every game's record to this JSON file.")
@pass_app
def tournament(app: App, player_a: str, player_b: str, games: int, edition: str,
               workers: int | None, seed: int, json_file: str | None) -> None:
    """Let two computer players play each other: random, heuristic, search[:SECONDS|:Ni].

    Prints wins per player and side with 95% intervals, mean electoral votes and decision
    times. Example: pbem tournament --games 100 search:0.5 heuristic
    """
    import time
    from dataclasses import asdict

    from bots import tournament as t

    started = time.perf_counter()

    def progress(r: t.GameRecord) -> None:
        app.note(f"game {r.index + 1}/{games}: {r.players['kennedy']} (K) vs "
                 f"{r.players['nixon']} (N): {r.winner} wins {r.electoral_votes}")

    try:
        records = t.run(player_a, player_b, games=games, edition=edition, workers=workers,
                        seed=seed, on_game=progress)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    summary = t.summarise(records, player_a, player_b, time.perf_counter() - started)
    app.say(t.format_table(summary))
    if json_file:
        with open(json_file, "w", encoding="utf-8") as fh:
            json.dump([asdict(r) for r in records], fh)


from pbem.fairplay.commands import export, observe, verify  # noqa: E402  (they use App)

cli.add_command(export)
cli.add_command(verify)
cli.add_command(observe)


def main() -> None:  # pragma: no cover
    cli(prog_name="pbem")


from pbem import cli_orders as _cli_orders  # noqa: E402, F401  (registers `notify`, `standing`)
