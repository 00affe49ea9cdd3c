"""Queue player mail: render a kind for one seat from `engine.view` and add it to the outbox.

Everything a player is sent is rendered from ``engine.view(state, seat.side)``
only (R17), so no report can carry the other side's hand or stack. The
Message-ID is deterministic (seat key + cause), ``Reply-To`` carries the
seat's current reply key, and ``References`` threads the game per player.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypedDict, Unpack

from sqlmodel import Session, select

import engine
from engine.question import question
from pbem import keys
from pbem.clocks.report import clock_context
from pbem.config import Settings
from pbem.outbox import notes as tabletalk
from pbem.outbox import parts as mailimages
from pbem.reports.onetap import shortcuts
from pbem.reports.render import ANSWER_KINDS, render
from pbem.store.models import Game, OutboxMessage, Seat

__all__ = [
    "MailOptions",
    "current_key",
    "decision_sig",
    "queue_mail",
    "queue_rendered",
    "refresh_key",
    "seats_of",
]


def seats_of(session: Session, game_id: int) -> dict[str, Seat]:
    """The game's seats by side."""
    return {s.side: s for s in session.exec(select(Seat).where(Seat.game_id == game_id))}


def current_key(settings: Settings, seat: Seat) -> keys.ReplyKey:
    assert seat.id is not None
    return keys.key_for(settings.secret, seat.game_id, seat.side, seat.key_gen, seat.key_salt)


def decision_sig(state: engine.GameState, side: str) -> str:
    """A fingerprint of what ``side`` must decide now (its prompt and legal commands)."""
    if engine.result(state) is not None:
        return "over"
    data = [engine.decision(state, side), engine.legal_commands(state, side)]
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()


def refresh_key(seat: Seat, state: engine.GameState) -> bool:
    """Start a new key generation if the seat's decision changed (older keys become stale)."""
    sig = decision_sig(state, seat.side)
    if sig == seat.decision_sig:
        return False
    seat.decision_sig = sig
    seat.key_gen += 1
    return True


def render_context(
    settings: Settings,
    game: Game,
    seat: Seat,
    state: engine.GameState,
    *,
    opponent: str,
    since: int,
    results: Sequence[dict[str, Any]] = (),
    error: str | None = None,
    ignored: Sequence[str] = (),
    now: datetime | None = None,
    view: engine.View | None = None,
    kind: str = "report",
) -> dict[str, Any]:
    """The ``ctx`` dict `pbem.reports.render.render` takes for mail ``kind`` (``view``:
    ``engine.view(state, seat.side)`` if the caller holds it)."""

    return {
        **clock_context(game, seat.side, now),  # "clock", "ending" (pbem.clocks)
        "game_id": game.id,
        "side": seat.side,
        "view": engine.view(state, seat.side) if view is None else view,
        "since": since,
        "results": list(results),
        "ignored": list(ignored),  # lines of the mail that were not read as commands
        "error": error,
        "opponent": opponent,
        "reply_to": keys.reply_address(settings.address, current_key(settings, seat)),
        # whole-action one-tap answers, for the kinds whose HTML offers them
        "shortcuts": shortcuts(state, seat.side) if kind in ANSWER_KINDS else [],
        "edition": game.edition,
        "options": game.option_list,
    }


class MailOptions(TypedDict, total=False):
    """What a queued mail may carry besides its kind, seat and state (see `queue_mail`)."""

    results: Sequence[dict[str, Any]]
    error: str | None
    in_reply_to: str | None
    advance_log: bool  # default True
    ignored: Sequence[str]
    seats: dict[str, Seat] | None
    since: int | None
    extra: dict[str, Any] | None
    context: dict[str, Any] | None
    view: engine.View | None
    reveal: tuple[dict[str, Any], list[dict[str, str]]] | None


def queue_mail(
    session: Session,
    settings: Settings,
    *,
    kind: str,
    game: Game,
    seat: Seat,
    state: engine.GameState,
    cause: str,
    now: datetime,
    **opt: Unpack[MailOptions],
) -> OutboxMessage:
    """Add ``kind`` for ``seat`` to the outbox, rendered, in the same transaction as the change
    (its pictures and files stored beside it, `pbem.outbox.parts`).

    The caller decides who is mailed and what the mail carries beyond the view (the game's
    policies do: `pbem.games.mailing.queue_mail`): ``extra`` adds template data (standing
    orders, `pbem.games.notify`), ``reveal`` a committed game's final facts and attachments.

    ``seats``: the game's seats by side (`seats_of`) when the caller holds them. ``since``
    (default: the seat's last reported log index) starts the log; ``context`` adds to the
    render context (e.g. ``card`` for a card mail); ``view`` is ``engine.view(state,
    seat.side)`` when the caller made it already (`pbem.games.notify.mail_seat`).
    """
    assert game.id is not None
    seats = opt.get("seats")
    if seats is None:
        seats = seats_of(session, game.id)
    others = [s for s in seats.values() if s.side != seat.side]
    since = opt.get("since")
    ctx = render_context(
        settings,
        game,
        seat,
        state,
        opponent=others[0].email if others else "",
        since=seat.last_log if since is None else since,
        results=opt.get("results", ()),
        error=opt.get("error"),
        ignored=opt.get("ignored", ()),
        now=now,
        view=opt.get("view"),
        kind=kind,
    )
    extra = opt.get("extra")
    tabletalk.remember_question(
        session, game.id, seat.side, seat.key_gen, question(state, seat.side)
    )
    if kind not in ("help", "key_problem", "card"):  # kinds that show table talk
        talk = tabletalk.take(session, game.id, seat.side, now)
        if talk:
            extra = {**(extra or {}), "talk": talk}
    if extra:
        ctx["extra"] = extra
    reveal = opt.get("reveal")
    if reveal is not None:  # a committed game's final mail reveals the seed (pbem.games.fairplay)
        ctx["reveal"], attachments = reveal
    else:
        attachments = []
    ctx = {**ctx, **(opt.get("context") or {})}
    mail = render(kind, ctx)
    mailimages.store(session, [*mail.images, *mail.attachments])
    key = current_key(settings, seat)
    message_id = keys.message_id(settings.secret, settings.address, key, f"{cause}.{kind}")
    refs = [r for r in (seat.thread_root, opt.get("in_reply_to")) if r]
    if not seat.thread_root:
        seat.thread_root = message_id
    if opt.get("advance_log", True):
        seat.last_log = len(state["log"])
    session.add(seat)
    return queue_rendered(
        session,
        game_id=game.id,
        side=seat.side,
        kind=kind,
        recipient=seat.email,
        subject=mail.subject,
        text=mail.text,
        html=mail.html,
        message_id=message_id,
        reply_to=ctx["reply_to"],
        now=now,
        references=refs,
        attachments=attachments,
    )


def queue_rendered(
    session: Session,
    *,
    game_id: int,
    side: str | None,
    kind: str,
    recipient: str,
    subject: str,
    text: str,
    html: str,
    message_id: str,
    reply_to: str,
    now: datetime,
    references: Sequence[str] = (),
    headers: dict[str, str] | None = None,
    attachments: Sequence[dict[str, str]] = (),
) -> OutboxMessage:
    """Add one rendered mail to the outbox (same transaction as the change that caused it)."""
    refs = [r for r in dict.fromkeys(references) if r]
    extras: dict[str, Any] = {}
    if headers:
        extras["headers"] = headers
    if attachments:
        extras["attachments"] = list(attachments)
    row = OutboxMessage(
        message_id=message_id,
        game_id=game_id,
        side=side,
        kind=kind[:16],
        recipient=recipient,
        reply_to=reply_to,
        subject=subject,
        text=text,
        html=html,
        in_reply_to=refs[-1] if refs else "",
        references=" ".join(refs),
        next_attempt_at=now,
        created_at=now,
        extras=json.dumps(extras) if extras else "",
    )
    session.add(row)
    return row
