"""The ``invitation`` stage: while a game awaits its players, ``accept [words]`` or ``decline``.

The game starts when both players have accepted (the words after ``accept`` are entropy for
its seed, `pbem.games.fairplay.games`); one ``decline`` closes the invitation. A reply to a
closed invitation, or an ``accept``/``decline`` answering the invitation mail after the game
began, gets a note; every other mail of a running game passes on (there ``decline`` is the
engine's verb).
"""

from __future__ import annotations

from typing import NoReturn

from pbem.games.fairplay import games as fair_games
from pbem.pipeline.base import Answered, Context, Stage
from pbem.pipeline.fairplay import first_word, note, own_lines
from pbem.store.db import lock_game
from pbem.store.models import Game


def invitation(ctx: Context) -> None:
    assert ctx.seat is not None and ctx.parsed is not None and ctx.inbound is not None
    stale_invite = ctx.key is not None and ctx.key.gen == 0  # answers the invitation mail
    game = ctx.game = lock_game(ctx.session, ctx.seat.game_id)  # ``load-game`` goes on with it
    if game is None or game.status == "over" or (game.status == "active" and not stale_invite):
        return  # a running game's mail: `decline` here is the engine's verb
    own, answers = own_lines(ctx.parsed.text, ("accept", "decline"))
    word, rest = first_word(answers)
    if game.status == "active":
        if word in ("accept", "decline"):
            _already_started(ctx, game, word)
        return
    ctx.inbound.game_id, ctx.inbound.side = game.id, ctx.seat.side
    cause = f"in{ctx.inbound.id}"
    mid = ctx.parsed.message_id or f"sha256:{ctx.inbound.content_hash}"
    if game.status != "invited":
        _invitation_closed(ctx, game)
    if word == "accept":
        answer = fair_games.accept(
            ctx.session,
            ctx.settings,
            game,
            ctx.seat,
            rest,
            message_id=mid,
            cause=cause,
            now=ctx.now,
        )
    elif word == "decline":
        answer = fair_games.decline(
            ctx.session, ctx.settings, game, ctx.seat, message_id=mid, cause=cause, now=ctx.now
        )
    else:
        note(
            ctx,
            "Please accept or decline",
            [
                f"Game #{game.id} starts when both players have accepted. Reply with 'accept' "
                "(optionally followed by any words: your entropy) or 'decline'."
                + (f" Your mail began with {own[0]!r}." if own else "")
            ],
        )
        raise Answered("invitation reply without accept/decline")
    raise Answered(answer.detail)


STAGE = Stage(
    "invitation", "while a game awaits its players: 'accept [words]' or 'decline'", invitation
)


def _already_started(ctx: Context, game: Game, word: str) -> NoReturn:
    """An ``accept``/``decline`` answering the invitation after the game began."""
    assert ctx.seat is not None and ctx.inbound is not None
    ctx.inbound.game_id, ctx.inbound.side = game.id, ctx.seat.side
    note(
        ctx,
        "The game has already started",
        [
            f"Game #{game.id} is already running: both players accepted, and the first "
            "acceptance of each stands. Answer your newest report instead (send 'status' "
            "for a fresh one)."
        ],
    )
    raise Answered(f"'{word}' in a running game: already started")


def _invitation_closed(ctx: Context, game: Game) -> NoReturn:
    """A reply to an invitation that was declined or expired."""
    note(
        ctx,
        f"This invitation is closed ({game.status})",
        [
            f"Game #{game.id} was {game.status} and will not start. Ask the operator for a "
            "new invitation if you still want to play."
        ],
    )
    raise Answered(f"reply to a {game.status} invitation")
