"""The game export (JSON) and the reveal at the end of a game.

`build_export` writes what `pbem export` prints and what is attached to the final mails:
the game's set-up, the commitment, both players' entropy and every accepted command in order.
Once the game is over it also holds ``server_seed``, the derived ``engine_seed``, and for the
deal and each move the draws (``[bound, value]`` of every ``below`` call), the new log lines
and a hash of the position, so `pbem.games.fairplay.verify` can name the first point of difference.
Before the end none of the secret parts is in it.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

import engine
from pbem import __version__
from pbem.config import Settings
from pbem.games.bots import is_bot
from pbem.games.fairplay.verify import EXPORT_FORMAT, replay_records
from pbem.outbox.queue import seats_of
from pbem.store.models import Commitment, Game, Invitation, Move, Seat

__all__ = ["build_export", "engine_seed_of", "export_json", "reveal_for"]

log = logging.getLogger("pbem.games.fairplay")
ENDED = ("over",)


def build_export(session: Session, settings: Settings, game: Game) -> dict[str, Any]:
    """The export of ``game`` (secret parts only once the game has ended)."""
    assert game.id is not None
    commit = session.get(Commitment, game.id)
    moves = list(session.exec(select(Move).where(Move.game_id == game.id).order_by(col(Move.seq))))
    seats = seats_of(session, game.id)
    revealed = game.status in ENDED
    state = engine.from_json(game.snapshot) if game.snapshot else None
    data: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "server": settings.address,
        "software": f"pbem1960 {__version__}",
        "game": game.id,
        "edition": game.edition,
        "options": game.option_list,
        "status": game.status,
        "created_at": game.created_at.isoformat(),
        "players": {side: seat.email for side, seat in sorted(seats.items())},
        "commitment": commit.commitment if commit else None,
        "server_seed": commit.server_seed if commit and revealed else None,
        "engine_seed": None,
        "entropy": (
            {"kennedy": commit.entropy_kennedy, "nixon": commit.entropy_nixon}
            if commit and revealed
            else None
        ),
        "result": engine.result(state) if state is not None else None,
        "setup": None,
        "moves": [{"seq": m.seq, "side": m.side, "command": m.command} for m in moves],
    }
    if not revealed:
        return data
    seed = int(commit.engine_seed) if commit and commit.engine_seed else game.seed
    data["engine_seed"] = str(seed)
    if commit is None:  # a game started with a fixed seed: no commitment, replay only
        data["fixed_seed"] = True
    setup, records = replay_records(
        seed, game.edition, game.option_list, [(m.side, m.command) for m in moves]
    )
    data["setup"] = setup
    for out, rec in zip(data["moves"], records, strict=True):
        out.update(draws=rec["draws"], log=rec["log"], position=rec["position"])
    return data


def export_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def reveal_for(
    session: Session, settings: Settings, game: Game, now: datetime
) -> tuple[dict[str, Any], list[dict[str, str]]] | None:
    """(template facts, attachments) for a final mail of a committed game; None otherwise.

    The export is made once, at the first final mail, and kept with the commitment.
    """
    if game.id is None or game.status not in ENDED:
        return None
    commit = session.get(Commitment, game.id)
    if commit is None or not commit.engine_seed:
        return None
    if not commit.export:
        commit.export = export_json(build_export(session, settings, game))
        commit.revealed_at = now
        session.add(commit)
        log.info("game %s: seed revealed, export of %d bytes", game.id, len(commit.export))
    invited = session.exec(select(Invitation.id).where(Invitation.game_id == game.id)).first()
    seats = seats_of(session, game.id)
    filename = f"game-{game.id}-export.json"
    facts: dict[str, Any] = {
        "commitment": commit.commitment,
        "invited": invited is not None,  # else the commitment was never mailed before the deal
        "server_seed": commit.server_seed,
        "entropy_kennedy": _words(commit.entropy_kennedy, seats.get("kennedy")),
        "entropy_nixon": _words(commit.entropy_nixon, seats.get("nixon")),
        "engine_seed": commit.engine_seed,
        "filename": filename,
    }
    return facts, [
        {"filename": filename, "content_type": "application/json", "text": commit.export}
    ]


def _words(entropy: str, seat: Seat | None) -> str:
    """A side's words as the reveal shows them (the empty words of a side that added none)."""
    if entropy:
        return entropy
    if seat is not None and is_bot(seat.email):
        return "(none: a computer player)"
    return "(none)"


def engine_seed_of(session: Session, game: Game) -> int:
    """The seed `engine.new_game` was given: derived for committed games, else ``Game.seed``."""
    commit = session.get(Commitment, game.id)
    if commit is not None and commit.engine_seed:
        return int(commit.engine_seed)
    return game.seed
