"""The `pbem` command: a thin click shell over `pbem.service` (every option has an envvar).

Exit status: 0 done (or nothing to do), 1 usage or user error, 3 something
needs an operator (a mail was quarantined, an outbox mail failed for good or bounced, a
replay mismatch, a failed check), 4 a mail server could not be reached,
75 another pbem worker holds the lock (try again later).
"""

from __future__ import annotations

import imaplib
import json
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import click
from sqlalchemy.engine import Engine

from pbem import service
from pbem.config import ConfigError, Settings, identity_problem, load_settings
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

    def require_identity(self) -> None:
        """Refuse to handle games or mail on a default or example secret/address (exit 1)."""
        problem = identity_problem(self.settings)
        if problem:
            raise click.ClickException(f"refusing to run: {problem}")
        from pbem.mail import dkimcheck

        if self.settings.dkim_verify and not dkimcheck.available():
            raise click.ClickException(
                "refusing to run: PBEM_DKIM_VERIFY is on but dkimpy is not "
                "installed (pip install 'pbem1960[dkim]')"
            )


pass_app = click.make_pass_decorator(App)


@click.group()
@click.option(
    "--config",
    "config_file",
    envvar="PBEM_CONFIG",
    type=click.Path(dir_okay=False),
    help="TOML file with the PBEM_* settings.",
)
@click.option(
    "--database-url", envvar="PBEM_DATABASE_URL", help="SQLAlchemy URL (default sqlite:///pbem.db)."
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
@click.option(
    "--kennedy",
    required=True,
    envvar="PBEM_KENNEDY",
    help="Kennedy's email address, or bot:heuristic / bot:search[:SECONDS].",
)
@click.option(
    "--nixon",
    required=True,
    envvar="PBEM_NIXON",
    help="Nixon's email address, or bot:heuristic / bot:search[:SECONDS].",
)
@click.option(
    "--edition",
    type=click.Choice(["zman", "gmt"]),
    default="zman",
    show_default=True,
    envvar="PBEM_EDITION",
)
@click.option(
    "--option",
    "options",
    multiple=True,
    envvar="PBEM_OPTIONS",
    help="Rules option (GMT): vice_presidents, restricted_positioning.",
)
@click.option(
    "--start",
    is_flag=True,
    envvar="PBEM_START",
    help="Start at once, without invitations (for scripts; no player entropy).",
)
@click.option(
    "--seed",
    type=int,
    envvar="PBEM_SEED",
    help="Fixed seed, no commitment (implies --start; for tests and reproductions).",
)
@click.option(
    "--clock",
    "clock_spec",
    envvar="PBEM_NEW_CLOCK",
    help="Time control: INITIAL+INCREMENT/CAP (72h+36h/240h), TIME/move (3d/move) "
    "or none. Default: the site's PBEM_CLOCK.",
)
@click.option(
    "--expiry",
    type=click.Choice(["forfeit", "claim", "autopilot"]),
    envvar="PBEM_NEW_EXPIRY",
    help="When a clock and its grace run out (default: site's).",
)
@click.option("--grace", envvar="PBEM_NEW_GRACE", help="Grace after a clock runs out, e.g. 24h.")
@click.option(
    "--reminders",
    envvar="PBEM_NEW_REMINDERS",
    help="Reminder ladder, e.g. 50%,90%,24h,2h (or none).",
)
@click.option(
    "--weekend-pause/--no-weekend-pause",
    default=None,
    envvar="PBEM_NEW_WEEKEND_PAUSE",
    help="Stop the clocks on Saturdays and Sundays (UTC).",
)
@click.option(
    "--no-vacation",
    is_flag=True,
    envvar="PBEM_NEW_NO_VACATION",
    help="Players may not take vacation in this game.",
)
@click.option(
    "--vacation-days",
    type=int,
    envvar="PBEM_NEW_VACATION_DAYS",
    help="Vacation days per player and calendar year (default: site's).",
)
@pass_app
def new(
    app: App,
    kennedy: str,
    nixon: str,
    edition: str,
    options: tuple[str, ...],
    start: bool,
    seed: int | None,
    clock_spec: str | None,
    expiry: str | None,
    grace: str | None,
    reminders: str | None,
    weekend_pause: bool | None,
    no_vacation: bool,
    vacation_days: int | None,
) -> None:
    """Invite both players to a game with a committed seed (send with `pbem send`).

    The game starts when both reply `accept`; with --start it starts at once. Its clock
    (--clock and friends, default the site's) starts with the game.
    """
    app.require_identity()
    from pbem.clocks.control import ClockSpecError, parse_control

    s = app.settings
    try:
        control = parse_control(
            clock_spec or s.clock,
            expiry=expiry or s.clock_expiry,
            grace=grace or s.clock_grace,
            reminders=s.clock_reminders if reminders is None else reminders,
            weekend_pause=s.clock_weekend_pause if weekend_pause is None else weekend_pause,
            vacation=not no_vacation,
            vacation_days=s.vacation_days if vacation_days is None else vacation_days,
        )
    except ClockSpecError as exc:
        raise click.UsageError(str(exc)) from None
    migrate(app.db)
    invite = not start and seed is None
    game_id = _user(
        lambda: service.new_game(
            app.db,
            app.settings,
            kennedy=kennedy,
            nixon=nixon,
            edition=edition,
            options=options,
            seed=seed,
            invite=invite,
            clock=control,
        )
    )
    app.say(
        f"game #{game_id} created: Kennedy {kennedy}, Nixon {nixon} ({edition}); "
        f"clock {control.spec}, expiry {control.expiry}; "
        + ("invitations queued" if invite else "welcome mails queued")
    )


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
    app.require_identity()
    try:
        with RunLock(app.settings.lock_path):
            code = _poll(app, no_send)
    except Locked as exc:
        app.note(str(exc))
        sys.exit(EXIT_LOCKED)
    sys.exit(code)


def _poll(app: App, no_send: bool) -> int:
    migrate(app.db)
    # the outage guard before any move is read; reminders and expiries after the mail
    # (a move waiting in the inbox is played, not forfeited): pbem.clocks.service.worker_pass
    if no_send:
        return _with_clocks(app, lambda: _fetch(app, None))
    from pbem.outbox_pump import OutboxPump

    with OutboxPump(app.db, app.settings, service.make_sender(app.settings)) as pump:
        code = _with_clocks(app, lambda: _fetch(app, pump.nudge))  # reports sent during the next
    return max(code, _sent_code(app, pump.stats))


def _with_clocks(app: App, fetch: Callable[[], int]) -> int:
    from pbem.clocks.service import worker_pass

    report, code = worker_pass(app.db, app.settings, fetch)
    return max(code, _tick_code(app, report))


def _fetch(app: App, after_each: Any) -> int:
    """Read and process the inbox (when this worker leads the IMAP fetch); the exit code."""
    from pbem.leader import ImapLeader, mailbox_of

    st = app.settings
    try:
        with ImapLeader(app.db, mailbox_of(st)) as lead:
            if not lead.is_leader:  # PostgreSQL: another worker reads the mailbox now
                app.note("another worker leads the IMAP fetch; sending only")
                stats = service.PollStats()
            else:
                with service.open_mailbox(st) as inbox:
                    inbox.ensure_folders()
                    stats = service.poll_once(app.db, st, inbox, after_each=after_each)
    except (OSError, imaplib.IMAP4.error) as exc:  # refused, timed out, login refused, garbage
        click.echo(
            f"IMAP {app.settings.imap_host}:{app.settings.imap_port}: {type(exc).__name__}: {exc}",
            err=True,
        )
        return EXIT_UNREACHABLE
    if stats.total:
        app.say("in: " + stats.summary())
    code = 0
    if stats.outcomes["quarantined"] or stats.outcomes["bounced"]:  # an operator should look
        code = EXIT_ATTENTION
    if stats.outcomes["deferred"]:  # the database was busy or unreachable: the next run retries
        code = max(code, EXIT_UNREACHABLE)
    return code


def _send(app: App) -> int:
    return _sent_code(
        app, service.drain_outbox(app.db, app.settings, service.make_sender(app.settings))
    )


def _sent_code(app: App, sent: service.SendStats) -> int:
    if sent.sent or sent.retrying or sent.failed:
        app.say("out: " + sent.summary())
    if sent.failed:
        return EXIT_ATTENTION
    return EXIT_UNREACHABLE if sent.unreachable or (sent.retrying and not sent.sent) else 0


def _tick(app: App) -> int:
    from pbem.clocks.service import tick as run_tick

    return _tick_code(app, run_tick(app.db, app.settings))


def _tick_code(app: App, report: Any) -> int:
    if report.summary() != "nothing due":
        app.say("clocks: " + report.summary())
    return EXIT_ATTENTION if report.outage or report.failed else 0


@cli.command()
@click.option("--no-send", is_flag=True, envvar="PBEM_NO_SEND", help="Queue the mails, don't send.")
@pass_app
def tick(app: App, no_send: bool) -> None:
    """The clock work for cron: reminders, timeouts, vacations ending; then send the outbox.

    Idempotent: overlapping or repeated runs record each reminder and timeout once.
    `pbem poll` and `pbem serve` do the same work on every pass. Exit 3 after an outage
    (the gap was credited to every clock) or when a game failed.
    """
    try:
        with RunLock(app.settings.lock_path):
            migrate(app.db)
            code = _tick(app)
            if not no_send:
                code = max(code, _send(app))
    except Locked as exc:
        app.note(str(exc))
        sys.exit(EXIT_LOCKED)
    sys.exit(code)


@cli.command()
@click.argument("game", type=int)
@click.argument("side", type=click.Choice(["kennedy", "nixon"]))
@click.option(
    "--address",
    required=True,
    envvar="PBEM_SEAT_ADDRESS",
    help="The seat's new address (a new player, or the same player's new address).",
)
@pass_app
def seat(app: App, game: int, side: str, address: str) -> None:
    """Give a side's seat to ADDRESS with a fresh reply key; both players are mailed."""
    from pbem.clocks.seats import change_seat

    migrate(app.db)
    app.say(_user(lambda: change_seat(app.db, app.settings, game, side, address)))
    app.say("mails queued (send with `pbem send`)")


@cli.command()
@pass_app
def send(app: App) -> None:
    """Send the outbox only (retrying earlier temporary failures that are due)."""
    app.require_identity()
    try:
        with RunLock(app.settings.lock_path):
            migrate(app.db)
            code = _send(app)
    except Locked as exc:
        app.note(str(exc))
        sys.exit(EXIT_LOCKED)
    sys.exit(code)


@cli.command()
@click.option(
    "--embedded",
    is_flag=True,
    envvar="PBEM_EMBEDDED",
    help="Run local SMTP+IMAP servers on 127.0.0.1 for mail clients to use.",
)
@click.option(
    "--idle-timeout",
    type=float,
    default=300.0,
    show_default=True,
    envvar="PBEM_IDLE_TIMEOUT",
    help="Seconds per IDLE before a routine re-poll.",
)
@click.option(
    "--standby-interval",
    type=float,
    default=5.0,
    show_default=True,
    envvar="PBEM_STANDBY_INTERVAL",
    help="PostgreSQL, several workers: seconds between a standby worker's attempts to "
    "take the IMAP lead (and its clock/outbox passes).",
)
@click.option(
    "--smtp-port", type=int, default=2525, show_default=True, envvar="PBEM_EMBEDDED_SMTP_PORT"
)
@click.option(
    "--imap-port", type=int, default=1143, show_default=True, envvar="PBEM_EMBEDDED_IMAP_PORT"
)
@pass_app
def serve(
    app: App,
    embedded: bool,
    idle_timeout: float,
    standby_interval: float,
    smtp_port: int,
    imap_port: int,
) -> None:
    """Run until SIGTERM/SIGINT: IMAP IDLE plus periodic poll and outbox drain.

    On PostgreSQL several workers (on several machines) may serve one mailbox: one leads the
    IMAP fetch, the others stand by (sending, ticking clocks) and take over when it dies.
    """
    from pbem.serve import Stopper
    from pbem.serve import serve as run_serve

    app.require_identity()
    stopper = Stopper()
    stopper.install()
    try:
        with RunLock(app.settings.lock_path):
            migrate(app.db)
            if embedded:
                _serve_embedded(app, stopper, idle_timeout, smtp_port, imap_port)
            else:
                run_serve(
                    app.db,
                    app.settings,
                    lambda: service.open_mailbox(app.settings),
                    service.make_sender(app.settings),
                    stopper=stopper,
                    idle_timeout=idle_timeout,
                    standby_interval=standby_interval,
                    on_pass=app.note,
                )
    except Locked as exc:
        click.echo(str(exc), err=True)
        sys.exit(EXIT_LOCKED)
    app.say("stopped")


def _serve_embedded(
    app: App, stopper: Any, idle_timeout: float, smtp_port: int, imap_port: int
) -> None:
    from pbem.mail.embedded import EmbeddedMailServers
    from pbem.serve import serve as run_serve

    domain = app.settings.address_domain
    with EmbeddedMailServers(smtp_port=smtp_port, imap_port=imap_port, domain=domain) as mail:
        settings = app.settings.with_(
            imap_host=mail.host,
            imap_port=mail.imap_port,
            imap_ssl=False,
            imap_user=app.settings.address,
            imap_password="x",
            smtp_host=mail.host,
            smtp_port=mail.smtp_port,
            smtp_tls=False,
            smtp_user="",
        )
        app.say("embedded mail: " + mail.address_note)
        app.say(f"game mailbox: {settings.address}; stop with Ctrl-C")
        run_serve(
            app.db,
            settings,
            lambda: service.open_mailbox(settings),
            service.make_sender(settings),
            stopper=stopper,
            idle_timeout=idle_timeout,
            on_pass=app.note,
        )


@cli.group(invoke_without_command=True)
@click.pass_context
def held(ctx: click.Context) -> None:
    """Moves held because the sender failed DMARC/DKIM (list; `release ID`, `drop ID`)."""
    if ctx.invoked_subcommand is not None:
        return
    from pbem.held import list_held

    app = ctx.find_object(App)
    assert app is not None
    migrate(app.db)
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
    from pbem.held import HeldNotFound, release

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
    from pbem.held import HeldNotFound, drop

    try:
        drop(app.db, held_id)
    except HeldNotFound as exc:
        raise click.ClickException(str(exc)) from None
    app.say(f"held move #{held_id} dropped")


@cli.command()
@pass_app
def games(app: App) -> None:
    """List the games."""
    rows = service.games(app.db)
    if not rows:
        app.say("no games")
    for r in rows:
        app.say(
            f"#{r.id:<4} {r.status:6} {r.edition:4} turn {r.turn} {r.phase:10} "
            f"waiting for {r.waiting_for or '-':14} moves {r.moves:<4} "
            f"K {r.kennedy}  N {r.nixon}" + (f"  clocks: {r.clocks}" if r.clocks else "")
        )


@cli.command()
@click.argument("game", type=int)
@click.option(
    "--as",
    "as_",
    type=click.Choice(service.SIDE_CHOICES),
    default="public",
    show_default=True,
    envvar="PBEM_AS",
    help="Whose view to show.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    envvar="PBEM_JSON",
    help="Print that side's engine view (with legal commands) as JSON.",
)
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
    from pbem.clocks.service import events_of

    for m in _user(lambda: service.game_log(app.db, game)):
        app.say(
            f"{m.seq:5} {m.created_at:%Y-%m-%d %H:%M} {m.side:8} {m.command}"
            + ("   (autopilot)" if m.source == "autopilot" else "")
        )
    events = events_of(app.db, game)
    if events:
        app.say("clock and seat events:")
    for e in events:
        app.say(f"      {e.created_at:%Y-%m-%d %H:%M} {e.side or '-':8} {e.kind}: {e.detail}")


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
@click.option(
    "--edition",
    type=click.Choice(["zman", "gmt"]),
    default="zman",
    show_default=True,
    envvar="PBEM_DEMO_EDITION",
)
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False),
    envvar="PBEM_DEMO_DIR",
    help="Keep the database here (default: a temporary folder).",
)
@click.option(
    "--max-moves", type=int, default=5000, show_default=True, envvar="PBEM_DEMO_MAX_MOVES"
)
@click.option(
    "--keep-running",
    is_flag=True,
    envvar="PBEM_DEMO_KEEP",
    help="Keep the mail servers up after the game, to read the mail.",
)
@pass_app
def demo(
    app: App, seed: int, edition: str, folder: str | None, max_moves: int, keep_running: bool
) -> None:
    """Play a whole game by email on embedded local mail servers, with two scripted players."""
    from pbem.demo import run_demo

    result = run_demo(
        seed=seed, edition=edition, folder=folder, max_moves=max_moves, keep_running=keep_running
    )
    sys.exit(0 if result.finished else EXIT_ATTENTION)


@cli.command()
@click.argument("player_a", metavar="A")
@click.argument("player_b", metavar="B")
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    envvar="PBEM_TOURNAMENT_GAMES",
    help="Games in all; A and B take each side alternately.",
)
@click.option(
    "--edition",
    type=click.Choice(["zman", "gmt"]),
    default="zman",
    show_default=True,
    envvar="PBEM_EDITION",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    envvar="PBEM_TOURNAMENT_WORKERS",
    help="Parallel processes (default: one per CPU).",
)
@click.option(
    "--seed",
    type=int,
    default=1,
    show_default=True,
    envvar="PBEM_TOURNAMENT_SEED",
    help="First game seed (games 2k and 2k+1 share seed+k).",
)
@click.option(
    "--json",
    "json_file",
    type=click.Path(dir_okay=False),
    envvar="PBEM_TOURNAMENT_JSON",
    help="Also write every game's record to this JSON file.",
)
@pass_app
def tournament(
    app: App,
    player_a: str,
    player_b: str,
    games: int,
    edition: str,
    workers: int | None,
    seed: int,
    json_file: str | None,
) -> None:
    """Let two computer players play each other: random, heuristic, search[:SECONDS|:Ni].

    Prints wins per player and side with 95% intervals, mean electoral votes and decision
    times. Example: pbem tournament --games 100 search:0.5 heuristic
    """
    import time
    from dataclasses import asdict

    from bots import tournament as t

    started = time.perf_counter()

    def progress(r: t.GameRecord) -> None:
        app.note(
            f"game {r.index + 1}/{games}: {r.players['kennedy']} (K) vs "
            f"{r.players['nixon']} (N): {r.winner} wins {r.electoral_votes}"
        )

    try:
        records = t.run(
            player_a,
            player_b,
            games=games,
            edition=edition,
            workers=workers,
            seed=seed,
            on_game=progress,
        )
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
