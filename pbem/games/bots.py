"""Computer-played seats: ``pbem new --nixon bot:search`` (or ``bot:heuristic``, ``bot:search:5``).

A seat whose address is ``bot:KIND[:BUDGET]`` is played by `bots.decide` from its side's view
only (R17). A bot thinks outside any database transaction: `think` reads nothing but the
position it is given and returns a `Plan` (every bot command due until a human must decide,
each with its reason); `play_bots`, inside the transaction that holds the game's row,
records a plan made from exactly the position it finds, or raises `ThinkFirst` so the caller
rolls back, thinks and tries again (the pipeline's ``bot-moves`` stage, `pbem.pipeline.runner`;
`pbem.games.bot_catch_up` in every worker pass settles anything left). Only game creation and
the clock's autopilot still think in their own transaction (``think_here``), the rare moments
a bot must open a game or answer at once. A bot error never costs a human's mail: it is logged
and retried. The bot's commands go into the move log like a player's, each with its reason in
words anyone may read (`public_reason`); it is never mailed.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlmodel import Session, col, select

import engine
from pbem.config import Settings
from pbem.store import move_log
from pbem.store.models import Game, Move, Seat
from pbem.store.move_log import BOT, NewMove

if TYPE_CHECKING:
    import bots

# `bots` (the search and heuristic players, ~0.1 s of imports) is imported by the functions
# that play or parse a bot seat: every poll imports this module, few games have a bot

__all__ = [
    "BOT_PREFIX",
    "MAX_BOT_MOVES",
    "MAX_THINKS",
    "Plan",
    "Step",
    "ThinkFirst",
    "due",
    "is_bot",
    "parse_bot",
    "play_bots",
    "public_cards",
    "public_reason",
    "public_words",
    "reasons_of",
    "robots_of",
    "store",
    "think",
]

log = logging.getLogger("pbem.bots")

BOT_PREFIX = "bot:"
MAX_BOT_MOVES = 2000  # one pass never plays more than this many bot commands (a whole game ~600)
MAX_THINKS = 3  # thoughts per position change before the bots are left to the next pass
_CARD_NUMBER = re.compile(r"#(\d+)\b")


def is_bot(address: str) -> bool:
    """Whether a seat's address names a computer player."""
    return address.strip().lower().startswith(BOT_PREFIX)


def parse_bot(address: str) -> tuple[str, bots.Budget | None]:
    """``bot:heuristic`` -> ("heuristic", None); ``bot:search:5`` -> ("search", 5 s). ValueError if bad."""
    import bots

    return bots.parse_kind(address.strip().lower()[len(BOT_PREFIX) :])


def robots_of(seats: dict[str, Seat]) -> dict[str, str]:
    """The computer-played seats' addresses by side."""
    return {side: seat.email for side, seat in seats.items() if is_bot(seat.email)}


def due(state: engine.GameState, robots: dict[str, str]) -> list[str]:
    """The computer-played sides that must decide now."""
    if not robots or engine.result(state) is not None:
        return []
    return sorted(s for s in engine.active_sides(state) if s in robots)


def _seed(settings: Settings, game_id: int, seq: int, side: str) -> int:
    """The bot's private randomness: from the server secret, never from the game's seed (R17.3)."""
    text = f"{settings.secret}:{game_id}:{seq}:{side}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


@dataclass(frozen=True)
class Step:
    """One bot command of a plan: its public reason and the log line it belongs to."""

    side: str
    command: str
    reason: str  # `public_reason`
    log_index: int | None  # the first public log line the command wrote (None: it wrote none)


@dataclass(frozen=True)
class Plan:
    """The bots' commands thought from one position (``position``: its `engine.to_json`),
    until a human must decide; ``failed``: a bot raised after these steps (logged)."""

    game_id: int
    position: str
    steps: tuple[Step, ...]
    failed: bool = False


class ThinkFirst(Exception):
    """A bot must decide and no plan was made from this position: roll back, `think`, retry.
    ``chained``: the position is a later round of the same bots' turn, reached through a plan
    and a human's standing order (`pbem.games.bot_turns`), not a position that changed."""

    def __init__(
        self,
        game_id: int,
        state: engine.GameState,
        robots: dict[str, str],
        *,
        chained: bool = False,
    ) -> None:
        super().__init__(f"game #{game_id}: a computer player must think first")
        self.game_id, self.state, self.robots = game_id, state, robots
        self.chained = chained


def public_cards(state: engine.GameState) -> set[int]:
    """The cards anyone may see in ``state`` (the observer's view, R17.1): played (named in
    the public log), discarded, removed, in force, on the debate board; all once it is over."""
    if engine.result(state) is not None:
        return set(engine.CARDS)
    v = engine.view(state, None)
    shown = set(v["discard"]) | set(v["removed"]) | {e["card"] for e in v["effects"]}
    for cards in v["persistent"].values():
        shown.update(cards)
    debate = v["debate"]
    if debate is not None:
        shown.update(debate["revealed"])
        for sides in debate["board"].values():
            for cards in sides.values():
                shown.update(cards)
    for e in v["log"]:
        shown.update(int(n) for n in _CARD_NUMBER.findall(e["text"]))
    return shown


def public_words(text: str, state: engine.GameState) -> str:
    """``text`` (a reason, commands) without the cards the public cannot see in ``state``
    (each reads "a hidden card", `bots.decision.hide_cards`)."""
    from bots.decision import hide_cards  # with `bots`: see the note at the top

    return hide_cards(text, public_cards(state))


def public_reason(command: str, reason: str, after: engine.GameState) -> str:
    """A bot's reason as its opponent and observers read it, beside the log line of its move:
    without the command it starts with, and without any card they cannot see in ``after``
    (a card still in the bot's hand reads "a hidden card", `bots.decision.hide_cards`)."""
    from bots.decision import describe  # with `bots`: see the note at the top

    prefix = describe(command) + ": "
    text = reason[len(prefix) :] if reason.startswith(prefix) else reason
    return public_words(text, after)


def think(
    settings: Settings, game_id: int, state: engine.GameState, robots: dict[str, str]
) -> Plan:
    """Every bot command due from ``state`` (not changed) until a human must decide; reads
    nothing else, so it runs outside any transaction. A bot that fails ends the plan there."""
    import bots

    g = engine.copy_state(state)
    steps: list[Step] = []
    failed = False
    for _ in range(MAX_BOT_MOVES):
        sides = due(g, robots)
        if not sides:
            break
        side = sides[0]
        kind, budget = parse_bot(robots[side])
        started = time.perf_counter()
        before = len(g["log"])
        try:
            d = bots.decide(g, side, kind, budget, _seed(settings, game_id, g["seq"], side))
            engine.apply_in_place(g, side, d.command)
        except Exception:  # the human's move stands; `catch_up` tries again next pass
            log.exception("game #%s: the %s bot (%s) failed to move", game_id, side, kind)
            failed = True
            break
        lines = [i for i in range(before, len(g["log"])) if g["log"][i]["to"] is None]
        steps.append(
            Step(
                side, d.command, public_reason(d.command, d.reason, g), lines[0] if lines else None
            )
        )
        log.info(
            "game #%s: %s bot (%s) plays %r in %.2fs: %s",
            game_id,
            side,
            kind,
            d.command,
            time.perf_counter() - started,
            d.reason,
        )
    return Plan(game_id, engine.to_json(state), tuple(steps), failed)


def play_bots(
    session: Session,
    settings: Settings,
    game: Game,
    state: engine.GameState,
    seats: dict[str, Seat],
    now: datetime,
    plan: Plan | None = None,
    *,
    think_here: bool = True,
) -> list[Move]:
    """Play every bot seat that must decide, in ``state`` (mutated), until a human must.

    Records ``plan`` if it was made from exactly this position; else thinks now if
    ``think_here``, or raises `ThinkFirst`. Adds a `Move` per command (no inbound mail, its
    reason beside it) and returns them; the caller stores the snapshot.
    """
    robots = robots_of(seats)
    if not due(state, robots):
        return []
    assert game.id is not None
    if plan is None or plan.game_id != game.id or plan.position != engine.to_json(state):
        if not think_here:
            raise ThinkFirst(game.id, engine.copy_state(state), robots)
        plan = think(settings, game.id, state, robots)
    for step in plan.steps:
        engine.apply_in_place(state, step.side, step.command)
    return move_log.append(
        session,
        game.id,
        (
            NewMove(step.side, step.command, BOT, reason=step.reason, log_index=step.log_index)
            for step in plan.steps
        ),
        now,
    )


def store(game: Game, state: engine.GameState, now: datetime) -> None:
    """Write the snapshot after bot moves (and mark the game over if it is)."""
    game.snapshot = engine.to_json(state)
    game.updated_at = now
    if engine.result(state) is not None:
        game.status = "over"


def reasons_of(session: Session, game_id: int, seats: dict[str, Seat]) -> dict[int, str]:
    """The reasons of the game's computer-played moves by the log index they belong to (what
    reports show beside the log, `pbem.reports.model.with_reasons`); none without a bot seat."""
    if not robots_of(seats):
        return {}
    rows = session.exec(
        select(Move.log_index, Move.reason).where(
            Move.game_id == game_id, col(Move.log_index).is_not(None), col(Move.reason).is_not(None)
        )
    ).all()
    return {int(i): str(r) for i, r in rows if i is not None and r}
