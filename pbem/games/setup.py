"""Creating a game: check the two seats, seat the players, queue their welcome mails.

`new_game` starts a game at once (a fixed seed) or hands it to `pbem.games.fairplay.games` (a
committed seed, optionally by invitation); a bot seat to move first moves before the mails.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy.engine import Engine

import engine
from pbem.clocks.control import TimeControl
from pbem.config import Settings
from pbem.errors import ServiceError
from pbem.games.bots import is_bot, parse_bot
from pbem.games.fairplay.games import new_committed_game, open_game
from pbem.games.timekeeping import records
from pbem.outbox.queue import refresh_key, seats_of
from pbem.store.db import transaction
from pbem.store.models import Game, Seat, utcnow

__all__ = ["EMAIL_RE", "new_game"]

EMAIL_RE = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$|^[^@\s<>]+@localhost$")


def new_game(
    db: Engine,
    settings: Settings,
    *,
    kennedy: str,
    nixon: str,
    edition: str = "zman",
    options: Iterable[str] = (),
    seed: int | None = None,
    invite: bool = False,
    expires_in: timedelta | None = None,
    now: datetime | None = None,
    clock: TimeControl | None = None,
) -> int:
    """Create a game, seat both players and queue their first mails; returns the game id.

    With ``invite`` both players are invited (`pbem.games.fairplay.games`): the game starts when both
    accept. Without ``seed`` the game's seed is committed (a secret 32-byte seed, revealed at the
    end); a fixed ``seed`` starts at once with no commitment (tests, demos, reproductions).
    A seat may be a computer player, ``bot:heuristic`` or ``bot:search[:SECONDS]`` (not both
    seats: bots play each other with `pbem tournament`); it is never invited (only the human
    is) and, if it is to move first, it moves as the game starts, before the welcome mails.

    ``clock`` is the game's time control (default: the site's, `pbem.clocks`).
    """
    now = now or utcnow()
    control = clock if clock is not None else records.site_control(settings)
    emails = {"kennedy": kennedy.strip().lower(), "nixon": nixon.strip().lower()}
    for side, email in emails.items():
        if is_bot(email):
            try:
                parse_bot(email)
            except ValueError as exc:
                raise ServiceError(f"--{side}: {exc}") from None
        elif not EMAIL_RE.match(email):
            raise ServiceError(
                f"--{side}: {email!r} is not an email address "
                "(or bot:heuristic, bot:search for a computer player)"
            )
    if all(is_bot(e) for e in emails.values()):
        raise ServiceError(
            "both seats are bots: a game by email needs a human "
            "(to watch bots play each other, use `pbem tournament`)"
        )
    if emails["kennedy"] == emails["nixon"]:
        raise ServiceError(
            "the two players need different addresses (the address identifies the side)"
        )
    if seed is not None and invite:
        raise ServiceError(
            "a fixed seed cannot be committed: invitations need the server's own "
            "secret seed (leave out --seed, or start at once with --start)"
        )
    try:
        state = engine.new_game(0 if seed is None else seed, edition=edition, options=options)
    except ValueError as exc:
        raise ServiceError(str(exc)) from None
    if seed is None:
        game_id = new_committed_game(
            db,
            settings,
            emails=emails,
            edition=edition,
            options=list(state["options"]),
            invite=invite,
            now=now,
            expires_in=expires_in,
            clock=records.pending_clock(control),
        )
        return game_id  # its clock starts with the game (pbem.clocks)
    with transaction(db) as s:
        game = Game(
            seed=seed,
            edition=edition,
            options=",".join(state["options"]),
            snapshot=engine.to_json(state),
            created_at=now,
            updated_at=now,
        )
        records.start_clock(game, control, state, now.timestamp())
        s.add(game)
        s.flush()
        assert game.id is not None
        for side, email in emails.items():
            seat = Seat(game_id=game.id, side=side, email=email, key_salt=secrets.token_hex(8))
            refresh_key(seat, state)
            s.add(seat)
        s.flush()
        open_game(s, settings, game, state, seats_of(s, game.id), now)
        return game.id
