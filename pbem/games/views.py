"""Operator views of the games: `show`/`show_json` (a side's board), `games` (one row per
game), `game_log` (the move log) and `replay` (rebuild a game from its log, check the snapshot).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

import engine
from engine.data import counted
from engine.schema import LogEntry
from pbem.config import Settings
from pbem.errors import GameNotFound, ServiceError
from pbem.games.fairplay.export import engine_seed_of
from pbem.games.fairplay.games import invitations
from pbem.games.timekeeping.display import clock_line, show_text
from pbem.games.undo import position_differs, replay_moves
from pbem.outbox.queue import render_context, seats_of
from pbem.reports.render import render
from pbem.store.models import Game, Move, Seat, utcnow

__all__ = [
    "SIDE_CHOICES",
    "GameRow",
    "ReplayReport",
    "game_log",
    "games",
    "replay",
    "show",
    "show_json",
]

SIDE_CHOICES = ("kennedy", "nixon", "public")


def _load(s: Session, game_id: int) -> tuple[Game, engine.GameState]:
    game = s.get(Game, game_id)
    if game is None:
        raise GameNotFound(f"no game #{game_id} (see `pbem games`)")
    if not game.snapshot:
        raise ServiceError(
            f"game #{game_id} has not started: it is {game.status} (invitations, see `pbem games`)"
        )
    return game, engine.from_json(game.snapshot)


def _side(as_: str) -> str | None:
    if as_ not in SIDE_CHOICES:
        raise ServiceError(f"--as must be one of {', '.join(SIDE_CHOICES)}")
    return None if as_ == "public" else as_


def show_json(db: Engine, game_id: int, as_: str = "public") -> engine.View:
    """That side's `engine.view` (with its legal commands), for scripts."""
    with Session(db) as s:
        _, state = _load(s, game_id)
    return engine.view(state, _side(as_))


def show(db: Engine, settings: Settings, game_id: int, as_: str = "public") -> str:
    """The text a side's report shows now (``public``: the observer's board)."""
    side = _side(as_)
    with Session(db) as s:
        game, state = _load(s, game_id)
        seats = seats_of(s, game_id)
        if side is None:
            return _public_text(game, state) + show_text(game, utcnow())
        seat = seats[side]
        other = seats["nixon" if side == "kennedy" else "kennedy"]
        ctx = render_context(settings, game, seat, state, opponent=other.email, since=seat.last_log)
    return render("status", ctx).text


def _public_text(game: Game, state: engine.GameState) -> str:
    v = engine.view(state, None)
    lines = [
        f"Game #{game.id} ({game.edition}) turn {v['turn']}, phase {v['phase']}",
        f"Decision: {v['decision']}",
        f"Momentum K {v['momentum']['kennedy']} / N {v['momentum']['nixon']}; "
        f"hands K {v['hand_sizes']['kennedy']} / N {v['hand_sizes']['nixon']}",
    ]
    for code, sp in sorted(v["states"].items()):
        if sp["cubes"]:
            lines.append(f"  {code:3} {sp['side'] or '-':8} {sp['cubes']}")
    if v["result"]:
        lines.append("Result: " + json.dumps(v["result"], sort_keys=True))
    return "\n".join(lines)


@dataclass(frozen=True)
class GameRow:
    id: int
    edition: str
    status: str
    turn: int
    phase: str
    waiting_for: str
    kennedy: str
    nixon: str
    moves: int
    updated_at: datetime
    clocks: str = ""  # who is on the move and for how long (pbem.clocks)


def games(db: Engine) -> list[GameRow]:
    """One summary row per game, newest first."""
    out = []
    with Session(db) as s:
        for game in s.exec(select(Game).order_by(col(Game.id).desc())).all():
            seats = seats_of(s, game.id or 0)
            if not game.snapshot:  # invited (or declined/expired before it started)
                out.append(_unstarted_row(s, game, seats))
                continue
            state = engine.from_json(game.snapshot)
            n = len(s.exec(select(Move.id).where(Move.game_id == game.id)).all())
            waiting = (
                "" if game.status != "active" else ", ".join(sorted(engine.active_sides(state)))
            )
            out.append(
                GameRow(
                    game.id or 0,
                    game.edition,
                    game.status,
                    state["turn"],
                    state["phase"],
                    waiting,
                    seats["kennedy"].email,
                    seats["nixon"].email,
                    n,
                    game.updated_at,
                    clock_line(game, utcnow()),
                )
            )
    return out


def _unstarted_row(s: Session, game: Game, seats: dict[str, Seat]) -> GameRow:

    rows = invitations(s, game.id or 0)
    pending = [r.side for r in rows if r.status == "pending"]
    expires = rows[0].expires_at if rows else None
    waiting = (
        "accept: " + ", ".join(pending) + (f" (until {expires:%Y-%m-%d %H:%M})" if expires else "")
        if game.status == "invited"
        else "-"
    )
    return GameRow(
        game.id or 0,
        game.edition,
        game.status,
        0,
        "invitation",
        waiting,
        seats["kennedy"].email,
        seats["nixon"].email,
        0,
        game.updated_at,
    )


def game_log(db: Engine, game_id: int) -> list[Move]:
    """The move log in order."""
    with Session(db) as s:
        _load(s, game_id)
        return list(s.exec(select(Move).where(Move.game_id == game_id).order_by(col(Move.seq))))


@dataclass(frozen=True)
class ReplayReport:
    """What `replay` found: ``ok`` when the position rebuilt is the one stored; ``problem``
    says what differs, ``wording`` how the log's text differs when only that does."""

    game_id: int
    moves: int
    ok: bool
    problem: str = ""
    wording: str = ""


def replay(db: Engine, game_id: int) -> ReplayReport:
    """Rebuild the game from (seed, edition, options) + the move log; compare with the snapshot.

    The position (every key but the log) must be the same. The log is the engine's wording of
    what happened: a newer engine may word a line differently or add one, which changes no
    position, so that is reported (``wording``) but is no mismatch."""
    with Session(db) as s:
        game, snapshot = _load(s, game_id)
        moves = list(s.exec(select(Move).where(Move.game_id == game_id).order_by(col(Move.seq))))
        seed = engine_seed_of(s, game)
    replayed = replay_moves(game, moves, seed=seed)  # 'undo' moves restore a mail's position
    if replayed.error:
        return ReplayReport(game_id, len(moves), False, replayed.error)
    state = replayed.state
    diff = position_differs(state, snapshot)
    if diff:
        return ReplayReport(game_id, len(moves), False, "snapshot differs in: " + ", ".join(diff))
    return ReplayReport(game_id, len(moves), True, wording=_wording(state["log"], snapshot["log"]))


def _wording(replayed: list[LogEntry], stored: list[LogEntry]) -> str:
    """How the replayed log reads against the stored one ("" when alike)."""
    if replayed == stored:
        return ""
    if len(replayed) != len(stored):
        return f"the log has {len(replayed)} lines as this engine words it, {len(stored)} stored"
    changed = sum(a != b for a, b in zip(replayed, stored, strict=True))
    return f"{counted(changed, 'log line')} of {len(stored)} worded differently by this engine"
