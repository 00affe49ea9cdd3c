"""Observers: people who follow a game's public board by mail, with their consent.

An observer is asked for by the operator (`pbem observe GAME ADDRESS`) or by a player's
``observe ADDRESS`` line. The address gets one mail with a confirmation code and nothing else
until it replies ``confirm CODE`` (`confirm`); then both players are told who observes, and
the observer gets the welcome with the game so far, and from then on everything public
(`pbem.games.fairplay.observer_feed`, the one place that decides what an observer is sent).
Every mail to an observer is answerable at ``game+o<id>-<token>@domain`` (their own signed
address, also in ``List-Unsubscribe``, RFC 2369); a mail there saying ``unsubscribe`` (or
``stop``) ends the subscription, or declines the request. The token is an HMAC, so nobody
can confirm or unsubscribe for someone else without having one of their mails.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from datetime import datetime

from sqlmodel import Session, col, select

import engine
from pbem.config import Settings
from pbem.games.fairplay import observer_feed
from pbem.games.fairplay.mails import Note, queue_note
from pbem.games.fairplay.observer_feed import last_event_id, message_id, queue_observer_note
from pbem.games.timekeeping.records import notify, record_event
from pbem.outbox.queue import seats_of
from pbem.store.db import lock_game
from pbem.store.models import Game, Observer

__all__ = [
    "OBSERVER_RE",
    "ObserverError",
    "add_observer",
    "confirm",
    "confirm_code",
    "find_observer",
    "unsubscribe",
]

OBSERVER_RE = re.compile(r"(?<![a-z0-9])o(\d{1,9})-([a-z2-7]{16})(?![a-z0-9])")
EMAIL_RE = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$|^[^@\s<>,;]+@localhost$")
MAX_OBSERVERS = 20  # observers and open requests of one game


class ObserverError(ValueError):
    """A refused ``observe`` (bad address, too many, a player's own address)."""


def find_observer(session: Session, settings: Settings, *sources: str) -> Observer | None:
    """The observer whose signed address appears in ``sources``, if any."""
    for text in sources:
        for m in OBSERVER_RE.finditer(text.lower()):
            obs = session.get(Observer, int(m.group(1)))
            if obs is not None and hmac.compare_digest(
                observer_feed.token(settings, obs), m.group(2)
            ):
                return obs
    return None


def confirm_code(settings: Settings, obs: Observer) -> str:
    """The code an observer sends back (``confirm CODE``) to consent to the mails."""
    msg = f"observer-consent|{obs.id}|{obs.game_id}|{obs.salt}".encode()
    digest = hmac.new(settings.secret.encode(), msg, hashlib.sha256).digest()
    return base64.b32encode(digest[:5]).decode()[:6]


def requester(obs: Observer) -> str:
    """Who asked for the observer, in words: the operator or a side's player."""
    if obs.added_by == "operator":
        return "the server's operator"
    return f"{obs.added_by.title()}'s player"


def add_observer(
    session: Session, settings: Settings, game: Game, email: str, *, added_by: str, now: datetime
) -> Observer:
    """Ask ``email`` to observe ``game``: one mail with a confirmation code, nothing more until
    they send it back (`confirm`). Asked again after an unsubscribe, with a new mail."""
    assert game.id is not None
    email = email.strip().strip("<>").lower()
    if not EMAIL_RE.match(email):
        raise ObserverError(f"{email!r} is not an email address")

    if email in {seat.email for seat in seats_of(session, game.id).values()}:
        raise ObserverError(f"{email} plays in game #{game.id}: players get their own reports")
    if game.status not in ("invited", "active"):
        raise ObserverError(f"game #{game.id} is {game.status}: there is nothing left to observe")
    obs = session.exec(
        select(Observer).where(Observer.game_id == game.id, Observer.email == email)
    ).first()
    if obs is not None and obs.active:
        raise ObserverError(f"{email} already observes game #{game.id}")
    if obs is not None and obs.pending:
        raise ObserverError(f"{email} was already asked and has not confirmed yet")
    count = len(
        session.exec(
            select(Observer.id).where(
                Observer.game_id == game.id,
                col(Observer.active).is_(True) | col(Observer.pending).is_(True),
            )
        ).all()
    )
    if count >= MAX_OBSERVERS:
        raise ObserverError(
            f"game #{game.id} already has {count} observers (at most {MAX_OBSERVERS})"
        )
    if obs is None:
        obs = Observer(game_id=game.id, email=email, salt=secrets.token_hex(8), created_at=now)
    obs.active, obs.pending, obs.unsubscribed_at = False, True, None
    obs.added_by, obs.created_at = added_by, now
    session.add(obs)
    session.flush()
    code = confirm_code(settings, obs)
    note = Note(
        game_id=game.id,
        subject=f"[1960 #{game.id}] Do you want to observe this game?",
        title="An invitation to observe",
        paragraphs=[
            f"{requester(obs).capitalize()} asked that you follow game #{game.id} of 1960: "
            "The Making of the President (Kennedy against Nixon) by email: the public board "
            "after every move, never a player's hand or secret choices.",
            "Nothing more is sent to you unless you agree. To agree, reply to this mail with "
            f"the line: confirm {code}",
            "Not interested? Ignore this mail (or reply 'unsubscribe'): nothing more about "
            "this game will come.",
        ],
        commands=[(f"confirm {code}", "start observing (both players are told who observes)")],
    )
    queue_observer_note(session, settings, obs, note, f"ask{int(now.timestamp())}", now)
    return obs


def confirm(session: Session, settings: Settings, obs: Observer, now: datetime) -> None:
    """The observer sent their code: subscribe them, tell both players who observes, and send
    the welcome with the game so far (one mail: the welcome never comes after the board)."""
    game = lock_game(session, obs.game_id)
    assert game is not None and game.id is not None
    obs.active, obs.pending, obs.confirmed_at = True, False, now
    obs.seen_version, obs.seen_log, obs.seen_end = -1, 0, False
    session.add(obs)
    session.flush()
    who = requester(obs)
    ev = record_event(session, game, "", "observer", f"{obs.email} observes (asked by {who})", now)
    obs.seen_event = last_event_id(session, game.id)  # their own event is no news to them
    seats = seats_of(session, game.id)
    if game.snapshot:
        state = engine.from_json(game.snapshot)
        for side in sorted(seats):
            notify(
                session,
                settings,
                game,
                state,
                side,
                ev,
                now,
                seats=seats,
                subject=f"{obs.email} now observes this game",
                lines=[
                    f"{obs.email} now observes game #{game.id}, asked by {who}: they get "
                    "the public board after every move, never your hand or your secret "
                    "choices."
                ],
            )
        observer_feed.catch_up(session, settings, game, now, welcome=obs)
        return
    note = Note(  # invited, not started: the welcome now, the opening board when it starts
        game_id=game.id,
        subject=f"[1960 #{game.id}] You observe this game",
        title="Observing",
        paragraphs=[
            f"Thank you: you will observe game #{game.id} once both players have accepted "
            "their invitations; you will get the opening board then."
        ],
    )
    queue_observer_note(session, settings, obs, note, f"welcome{int(now.timestamp())}", now)


def unsubscribe(session: Session, settings: Settings, obs: Observer, now: datetime) -> None:
    """End the subscription and confirm it (one last mail, by request); a request not yet
    confirmed is simply closed."""
    was_active = obs.active
    obs.active, obs.pending, obs.unsubscribed_at = False, False, now
    session.add(obs)
    if not was_active:
        return
    note = Note(
        game_id=obs.game_id,
        subject=f"[1960 #{obs.game_id}] Unsubscribed",
        title="Unsubscribed",
        paragraphs=[
            f"You no longer observe game #{obs.game_id}; no more mail about it will be sent to you."
        ],
    )
    queue_note(
        session,
        note,
        kind="observer",
        side=None,
        recipient=obs.email,
        message_id=message_id(settings, obs, f"unsub{int(now.timestamp())}"),
        reply_to=observer_feed.unsubscribe_address(settings, obs),
        now=now,
    )
