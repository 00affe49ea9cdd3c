"""Fair-play pipeline handlers: observer unsubscribes, invitation replies, ``observe``, observer reports.

    ... filter-loops -> observer-mail -> identify-seat -> check-sender -> invitation
        -> load-game -> check-fresh -> extract -> fair-play-words -> meta-commands
        -> apply -> record -> report -> observers

``accept`` and ``decline`` are invitation replies only while the game is ``invited``: the
`invitation` handler dispatches on the game's status, so in a running game ``decline`` stays
the engine's verb (declining a trigger or a swap) and never reaches this code.
"""

from __future__ import annotations

import re
from typing import NoReturn

from pbem.games.fairplay import games as fair_games
from pbem.games.fairplay.mails import note_to
from pbem.games.fairplay.observers import (
    ObserverError,
    add_observer,
    find_observer,
    notify_observers,
    unsubscribe,
)
from pbem.mail.extract import reply_text
from pbem.pipeline.base import Answered, Context, IgnoreMessage, handler
from pbem.pipeline.inbound import key_sources
from pbem.store.db import lock_game
from pbem.store.models import Game

__all__ = ["fair_play_words", "invitation", "observer_mail", "observers"]

STOP_WORDS = ("unsubscribe", "stop")


@handler("observer-mail", "a mail to an observer's unsubscribe address: 'unsubscribe' ends it")
def observer_mail(ctx: Context) -> None:
    assert ctx.parsed is not None and ctx.inbound is not None
    obs = find_observer(ctx.session, ctx.settings, *key_sources(ctx.raw, ctx.parsed))
    if obs is None:
        return
    ctx.inbound.game_id = obs.game_id
    _, found = _own_lines(ctx.parsed.text, STOP_WORDS)
    asked = any(w in ctx.parsed.subject.lower().split() for w in STOP_WORDS) or bool(found)
    if not asked:
        raise IgnoreMessage(f"mail to observer {obs.id}'s address without 'unsubscribe'")
    if not obs.active:
        raise IgnoreMessage(f"observer {obs.id} had already unsubscribed")
    unsubscribe(ctx.session, ctx.settings, obs, ctx.now)
    raise Answered(f"observer {obs.email} unsubscribed from game {obs.game_id}")


def _own_lines(text: str, words: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(the writer's own non-empty lines, those of them starting with one of ``words``)."""
    own = [line.strip() for line in reply_text(text).lines if line.strip()]
    return own, [line for line in own if line.split()[0].lower() in words]


def _first_word(lines: list[str]) -> tuple[str, str]:
    if not lines:
        return "", ""
    word, _, rest = lines[0].strip().partition(" ")
    return word.lower(), rest


@handler("invitation", "while a game awaits its players: 'accept [words]' or 'decline'")
def invitation(ctx: Context) -> None:
    assert ctx.seat is not None and ctx.parsed is not None and ctx.inbound is not None
    stale_invite = ctx.key is not None and ctx.key.gen == 0  # answers the invitation mail
    game = lock_game(ctx.session, ctx.seat.game_id)
    if game is None or game.status == "over" or (game.status == "active" and not stale_invite):
        return  # a running game's mail: `decline` here is the engine's verb
    own, answers = _own_lines(ctx.parsed.text, ("accept", "decline"))
    word, rest = _first_word(answers)
    if game.status == "active":
        if word in ("accept", "decline"):
            _already_started(ctx, game, word)
        return
    ctx.game = game
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
        _note(
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


def _already_started(ctx: Context, game: Game, word: str) -> NoReturn:
    """An ``accept``/``decline`` answering the invitation after the game began."""
    assert ctx.seat is not None and ctx.inbound is not None
    ctx.game = game
    ctx.inbound.game_id, ctx.inbound.side = game.id, ctx.seat.side
    _note(
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
    _note(
        ctx,
        f"This invitation is closed ({game.status})",
        [
            f"Game #{game.id} was {game.status} and will not start. Ask the operator for a "
            "new invitation if you still want to play."
        ],
    )
    raise Answered(f"reply to a {game.status} invitation")


def _note(ctx: Context, title: str, paragraphs: list[str]) -> None:
    assert ctx.game is not None and ctx.seat is not None and ctx.inbound is not None
    assert ctx.parsed is not None
    note_to(
        ctx.session,
        ctx.settings,
        ctx.game,
        ctx.seat,
        cause=f"in{ctx.inbound.id}",
        subject=title,
        title=title,
        paragraphs=paragraphs,
        now=ctx.now,
        in_reply_to=ctx.parsed.message_id or "",
    )


@handler("fair-play-words", "answer 'observe ADDRESS' (and a stray 'accept') in a running game")
def fair_play_words(ctx: Context) -> None:
    assert ctx.game is not None and ctx.seat is not None
    keep, answered = [], []
    for line in ctx.lines:
        word, rest = _first_word([line])
        if word == "observe":
            answered.append(_observe(ctx, rest))
        elif word == "accept":
            answered.append("accept: the game is already running")
            _note(
                ctx,
                "Nothing to accept",
                [
                    "'accept' answers an invitation; this game is "
                    "already running, so the line was not used."
                ],
            )
        else:
            keep.append(line)
    ctx.lines = keep
    if answered and not keep:
        raise Answered("; ".join(answered))


def _observe(ctx: Context, address: str) -> str:
    assert ctx.game is not None and ctx.seat is not None
    address = re.sub(r"^mailto:", "", address.strip(), flags=re.I)
    try:
        obs = add_observer(
            ctx.session, ctx.settings, ctx.game, address, added_by=ctx.seat.side, now=ctx.now
        )
    except ObserverError as exc:
        _note(ctx, "Observer not added", [f"'observe {address}': {exc}."])
        return f"observe refused: {exc}"
    _note(
        ctx,
        "Observer added",
        [
            f"{obs.email} now gets the public board of game "
            f"#{ctx.game.id} after every move (never your hand or secret "
            "choices) and can unsubscribe at any time."
        ],
    )
    return f"observer {obs.email} added"


@handler("observers", "queue the public report to the game's observers")
def observers(ctx: Context) -> None:

    assert ctx.game is not None and ctx.new_state is not None and ctx.state is not None
    notify_observers(
        ctx.session, ctx.settings, ctx.game, ctx.new_state, since=len(ctx.state["log"]), now=ctx.now
    )
