"""Whole games played locally, with no mail setup: `pbem demo` and `pbem tournament`.

`demo` plays by email on embedded mail servers with two scripted players; `tournament`
lets computer players play each other and prints the statistics.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict

import click

from pbem.cli.app import EDITION_CHOICE, EXIT_ATTENTION, App, pass_app
from pbem.worker.demo import run_demo


@click.command()
@click.option(
    "--seed",
    type=int,
    default=1960,
    show_default=True,
    envvar="PBEM_DEMO_SEED",
    help="Seed of the scripted players' choices (the deal comes from the committed seed).",
)
@click.option(
    "--edition",
    type=EDITION_CHOICE,
    default="zman",
    show_default=True,
    envvar="PBEM_DEMO_EDITION",
)
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False),
    envvar="PBEM_DEMO_DIR",
    help="Put the files here and keep them (default: a temporary folder, removed).",
)
@click.option(
    "--keep",
    is_flag=True,
    envvar="PBEM_DEMO_KEEP_FILES",
    help="Keep the files (database, mail, export) and print commands to look at them.",
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
    app: App,
    seed: int,
    edition: str,
    folder: str | None,
    keep: bool,
    max_moves: int,
    keep_running: bool,
) -> None:
    """Play a whole game by email on embedded local mail servers, with two scripted players.

    The invitations with the seed's commitment, both players accepting with their own words,
    the game, the reveal and the verification of the game's export.
    """
    result = run_demo(
        seed=seed,
        edition=edition,
        folder=folder,
        max_moves=max_moves,
        keep=keep,
        keep_running=keep_running,
        prog=app.prog,
    )
    sys.exit(0 if result.finished else EXIT_ATTENTION)


@click.command()
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
    type=EDITION_CHOICE,
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
    from bots import tournament as t  # the tournament runner (the bots, ~0.1 s): this command only

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
