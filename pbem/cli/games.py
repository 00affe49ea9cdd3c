"""The game commands: `pbem new`, `seat`, `games`, `show`, `log` and `replay`.

Create a game and change its seats; list, show, log and replay the games in the database.
"""

from __future__ import annotations

import json
import sys

import click

import engine
from pbem.cli.app import EDITION_CHOICE, EXIT_ATTENTION, App, pass_app
from pbem.clocks.control import ClockSpecError, parse_control
from pbem.games import setup as game_setup
from pbem.games import views as game_views
from pbem.games.seats import change_seat
from pbem.games.timekeeping.display import events_of
from pbem.store.move_log import SOURCE_NOTES


@click.command()
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
    type=EDITION_CHOICE,
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
    invite = not start and seed is None
    game_id = game_setup.new_game(
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
    app.say(
        f"game #{game_id} created: Kennedy {kennedy}, Nixon {nixon} ({edition}); "
        f"clock {control.spec}, expiry {control.expiry}; "
        + ("invitations queued" if invite else "welcome mails queued")
    )


@click.command()
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
    app.say(change_seat(app.db, app.settings, game, side, address))
    app.say("mails queued (send with `pbem send`)")


@click.command()
@pass_app
def games(app: App) -> None:
    """List the games."""
    rows = game_views.games(app.db)
    if not rows:
        app.say("no games")
    for r in rows:
        app.say(
            f"#{r.id:<4} {r.status:6} {r.edition:4} turn {r.turn} {r.phase:10} "
            f"waiting for {r.waiting_for or '-':14} moves {r.moves:<4} "
            f"K {r.kennedy}  N {r.nixon}" + (f"  clocks: {r.clocks}" if r.clocks else "")
        )


@click.command()
@click.argument("game", type=int)
@click.option(
    "--as",
    "as_",
    type=click.Choice([*engine.SIDES, "public"]),  # = game_views.SIDE_CHOICES, not imported
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
        app.say(json.dumps(game_views.show_json(app.db, game, as_), indent=2))
    else:
        app.say(game_views.show(app.db, app.settings, game, as_))


@click.command("log")
@click.argument("game", type=int)
@pass_app
def log_(app: App, game: int) -> None:
    """Print a game's move log (sequence, side, command)."""
    for m in game_views.game_log(app.db, game):
        app.say(
            f"{m.seq:5} {m.created_at:%Y-%m-%d %H:%M} {m.side:8} {m.command}"
            + (f"   ({SOURCE_NOTES[m.source]})" if m.source in SOURCE_NOTES else "")
        )
    events = events_of(app.db, game)
    if events:
        app.say("clock and seat events:")
    for e in events:
        app.say(f"      {e.created_at:%Y-%m-%d %H:%M} {e.side or '-':8} {e.kind}: {e.detail}")


@click.command()
@click.argument("game", type=int)
@pass_app
def replay(app: App, game: int) -> None:
    """Rebuild a game from its move log and compare it with the stored snapshot."""
    report = game_views.replay(app.db, game)
    if report.ok:
        app.say(f"game #{game}: {report.moves} moves replayed, the position matches")
        if report.wording:
            app.say(f"game #{game}: {report.wording} (the position is the same)")
        return
    click.echo(f"game #{game}: MISMATCH after {report.moves} moves: {report.problem}", err=True)
    sys.exit(EXIT_ATTENTION)
