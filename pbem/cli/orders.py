"""`pbem notify` and `pbem standing`: a player's mail preference and standing orders, by CLI.

The same settings a player makes by mail (``notify ...``, ``standing ...``); for an operator
acting on a player's request. Exit status 1 for a bad game, side or order.
"""

from __future__ import annotations

import click

from pbem.cli.app import App, pass_app
from pbem.games import notify, orders
from pbem.store.models import utcnow

SIDES = click.Choice(["kennedy", "nixon"])


@click.command("notify")
@click.argument("game", type=int)
@click.argument("side", type=SIDES)
@click.argument("mode", type=click.Choice(orders.NOTIFY_MODES))
@click.option(
    "--hour",
    type=click.IntRange(0, 23),
    envvar="PBEM_DIGEST_HOUR",
    help="Digest hour (UTC) for 'digest'.",
)
@pass_app
def notify_cmd(app: App, game: int, side: str, mode: str, hour: int | None) -> None:
    """When a seat is mailed: decisions (default), every (after every move) or digest (daily)."""
    try:
        app.say(notify.set_notify(app.db, game, side, mode, hour, now=utcnow()))
    except (ValueError, orders.OrdersError) as exc:
        raise click.ClickException(str(exc)) from None


@click.command("standing")
@click.argument("game", type=int)
@click.argument("side", type=SIDES)
@click.argument("order", nargs=-1)
@pass_app
def standing_cmd(app: App, game: int, side: str, order: tuple[str, ...]) -> None:
    """Set one standing order (e.g. 'trigger never'), 'clear' them, or show them (no ORDER)."""
    try:
        lines = notify.set_standing(app.db, game, side, list(order))
    except (ValueError, orders.OrdersError) as exc:
        raise click.ClickException(str(exc)) from None
    app.say(f"game {game} {side} standing orders:")
    for line in lines:
        app.say("  " + line)
