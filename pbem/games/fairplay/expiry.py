"""Invitations left unanswered past their deadline (`pbem.games.fairplay.games`): the game expires
(`expire_invitations`, in every worker pass) and both players are told.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.engine import Engine
from sqlmodel import col, select

from pbem.config import Settings
from pbem.games.fairplay.mails import note_to
from pbem.outbox.queue import seats_of
from pbem.store.db import transaction
from pbem.store.models import Commitment, Game, Invitation

__all__ = ["expire_invitations"]


def expire_invitations(db: Engine, settings: Settings, now: datetime) -> list[int]:
    """Expire invited games past their deadline; tell both players. Returns the game ids."""
    done: list[int] = []
    with transaction(db) as s:
        rows = s.exec(
            select(Game, Commitment)
            .join(Commitment, col(Commitment.game_id) == Game.id)
            .where(Game.status == "invited", col(Commitment.expires_at) <= now)
        ).all()
        for game, commit in rows:
            assert game.id is not None
            seats = seats_of(s, game.id)
            invs = {
                i.side: i for i in s.exec(select(Invitation).where(Invitation.game_id == game.id))
            }
            silent = [side for side, i in sorted(invs.items()) if i.status == "pending"]
            for i in invs.values():
                if i.status == "pending":
                    i.status = "expired"
                    s.add(i)
            game.status, game.updated_at = "expired", now
            s.add(game)
            who = " and ".join(f"{seats[x].email} ({x.title()})" for x in silent) or "nobody"
            for seat in seats.values():
                note_to(
                    s,
                    settings,
                    game,
                    seat,
                    cause="expired",
                    subject="Invitation expired",
                    title="Invitation expired",
                    paragraphs=[
                        f"The invitation to game #{game.id} expired on "
                        f"{commit.expires_at:%Y-%m-%d %H:%M} UTC without an answer from "
                        f"{who}. The game is cancelled; nothing more will be sent."
                    ],
                    now=now,
                )
            done.append(game.id)
    return done
