"""The pipeline machinery: the per-message context, control-flow exceptions, the `Stage`.

A stage is a small function ``process(ctx)`` with a name and a description (`Stage`), one
module of `pbem.pipeline.stages` each. `run` calls the stages of a pipeline in order; a stage
stops the chain by raising one of:

    StopPipeline                 stop here; ``outcome`` says how the mail ended
    +-- IgnoreMessage            record it, never answer (loops, bulk, forgeries)
    +-- RejectMessage            record it and answer the seat with ``kind``/``error``
    +-- Answered                 fully handled (help/status only), replies queued

Any other exception is a crash: the runner rolls back and quarantines the mail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session

from engine import GameState
from pbem.config import Settings
from pbem.games.orders import book_rows
from pbem.keys import ReplyKey
from pbem.mail import ParsedMessage
from pbem.store.models import Game, InboundMessage, Seat, SeatOrders

__all__ = [
    "Answered",
    "Context",
    "IgnoreMessage",
    "RejectMessage",
    "Stage",
    "StopPipeline",
    "run",
]


class StopPipeline(Exception):
    """Stop processing this mail; ``outcome`` is recorded on the inbound row."""

    outcome = "stopped"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IgnoreMessage(StopPipeline):
    """Drop silently (recorded, never answered: no backscatter, no loops)."""

    outcome = "ignored"


class RejectMessage(StopPipeline):
    """Nothing applied; answer the seat's registered address with a ``kind`` mail."""

    outcome = "rejected"

    def __init__(self, reason: str, *, kind: str = "rejected") -> None:
        super().__init__(reason)
        self.kind = kind


class Answered(StopPipeline):
    """Handled without a move (e.g. only ``help``/``status``); replies already queued."""

    outcome = "answered"


@dataclass
class Context:
    """Everything known about one inbound mail while it passes the stages."""

    session: Session
    settings: Settings
    raw: bytes
    now: datetime
    mailbox: str = ""
    uidvalidity: int | None = None
    uid: int | None = None
    parsed: ParsedMessage | None = None
    inbound: InboundMessage | None = None  # the mail's record, inserted by ``dedupe``
    key: ReplyKey | None = None
    game: Game | None = None
    seat: Seat | None = None
    # The game's rows, loaded once and held here for the mail's transaction (the session's
    # identity map keeps only rows someone holds: a stage asking again would query again).
    seats: dict[str, Seat] = field(default_factory=dict)  # by side, from ``load-game``
    seat_orders: dict[str, SeatOrders] = field(default_factory=dict)  # by side, `seat_orders_of`
    state: GameState | None = None  # the position before this mail
    new_state: GameState | None = None
    lines: list[str] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)  # the lines' canonical commands (the move log)
    ignored: list[str] = field(default_factory=list)
    meta: list[str] = field(default_factory=list)  # help / status requests
    talk: list[str] = field(default_factory=list)  # "say …" table talk for the opponent
    undo: bool = False  # the mail's first line is "undo"
    stale: str = ""  # the mail answers an older report's question (rejected unless 'undo')
    undone: GameState | None = None  # after an accepted undo: the position it took back
    results: list[dict[str, Any]] = field(default_factory=list)
    stage: str = ""
    trace: list[str] = field(default_factory=list)
    orders: Any = (
        None  # pbem.games.orders.MailOrders: notify/standing/then/cancel lines of this mail
    )
    auto: list[Any] = field(
        default_factory=list
    )  # pbem.games.orders.Auto: moves the server applied
    before_bots: set[str] | None = None  # deciding sides when the bots moved (pbem.clocks)
    # pbem.games.bot_turns.Plans: the bots' plans by position, thought outside the transaction
    bot_plans: dict[str, Any] = field(default_factory=dict)
    bots_later: bool = (
        False  # the bots' moves are left to the worker pass (pbem.games.bot_catch_up)
    )
    kept: list[str] = field(default_factory=list)  # answers ahead kept for later questions

    @property
    def side(self) -> str:
        assert self.seat is not None
        return self.seat.side

    def seat_orders_of(self) -> dict[str, SeatOrders]:
        """The seats' orders rows by side (`pbem.games.orders.book_rows`), loaded once."""
        if not self.seat_orders:
            self.seat_orders = book_rows(self.session, self.seats)
        return self.seat_orders


@dataclass(frozen=True)
class Stage:
    """One step of the pipeline: its name (logs, the quarantine's ``stage``, the docs), what it
    does, and the function that does it."""

    name: str
    description: str
    process: Callable[[Context], None]


def run(ctx: Context, stages: tuple[Stage, ...]) -> None:
    """Run the stages in order (StopPipeline propagates to the runner)."""
    for stage in stages:
        ctx.stage = stage.name
        stage.process(ctx)
        ctx.trace.append(stage.name)
