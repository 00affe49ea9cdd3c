"""Observers: people who follow a game's public board by mail and can unsubscribe by mail.

An observer is added by the operator (`pbem observe GAME ADDRESS`) or by a player's
``observe ADDRESS`` line. They get the public view only (``engine.view(state, None)``: no
hand, no campaign-strategy stack, no secret debate pick), one mail per applied player mail,
and the final tally with the reveal. Every mail carries ``List-Unsubscribe`` (RFC 2369)
pointing at ``game+o<id>-<token>@domain``; a mail to that address saying ``unsubscribe``
(or ``stop``) ends the subscription. The token is an HMAC, so nobody can unsubscribe
someone else without having one of their mails.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

import engine
from pbem import keys, report_model
from pbem.config import Settings
from pbem.db import game_facts, note_game_facts
from pbem.fairplay.export import reveal_for
from pbem.fairplay.mails import Note, queue_note, queue_rendered, render_fair
from pbem.models import Commitment, Game, Observer
from pbem.outbox import parts as mailimages

__all__ = ["OBSERVER_RE", "add_observer", "find_observer", "notify_observers", "unsubscribe"]

OBSERVER_RE = re.compile(r"(?<![a-z0-9])o(\d{1,9})-([a-z2-7]{16})(?![a-z0-9])")
EMAIL_RE = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$|^[^@\s<>,;]+@localhost$")
MAX_OBSERVERS = 20


class ObserverError(ValueError):
    """A refused ``observe`` (bad address, too many, a player's own address)."""


def _token(settings: Settings, obs: Observer) -> str:
    msg = f"observer|{obs.id}|{obs.game_id}|{obs.salt}".encode()
    digest = hmac.new(settings.secret.encode(), msg, hashlib.sha256).digest()
    return base64.b32encode(digest[:10]).decode().lower()


def unsubscribe_address(settings: Settings, obs: Observer) -> str:
    local, _, domain = settings.address.lower().partition("@")
    return f"{local}+o{obs.id}-{_token(settings, obs)}@{domain}"


def _headers(settings: Settings, obs: Observer) -> dict[str, str]:
    addr = unsubscribe_address(settings, obs)
    domain = settings.address_domain
    return {
        "List-Unsubscribe": f"<mailto:{addr}?subject=unsubscribe>",
        "List-Id": f"1960 game {obs.game_id} observers <game-{obs.game_id}.observers.{domain}>",
        "Precedence": "list",
    }


def find_observer(session: Session, settings: Settings, *sources: str) -> Observer | None:
    """The observer whose signed unsubscribe address appears in ``sources``, if any."""
    for text in sources:
        for m in OBSERVER_RE.finditer(text.lower()):
            obs = session.get(Observer, int(m.group(1)))
            if obs is not None and hmac.compare_digest(_token(settings, obs), m.group(2)):
                return obs
    return None


def add_observer(
    session: Session, settings: Settings, game: Game, email: str, *, added_by: str, now: datetime
) -> Observer:
    """Subscribe ``email`` to ``game`` (again, if they had unsubscribed) and welcome them."""
    assert game.id is not None
    email = email.strip().strip("<>").lower()
    if not EMAIL_RE.match(email):
        raise ObserverError(f"{email!r} is not an email address")
    from pbem.replies import seats_of

    if email in {seat.email for seat in seats_of(session, game.id).values()}:
        raise ObserverError(f"{email} plays in game #{game.id}: players get their own reports")
    if game.status not in ("invited", "active"):
        raise ObserverError(f"game #{game.id} is {game.status}: there is nothing left to observe")
    obs = session.exec(
        select(Observer).where(Observer.game_id == game.id, Observer.email == email)
    ).first()
    if obs is not None and obs.active:
        raise ObserverError(f"{email} already observes game #{game.id}")
    count = len(
        session.exec(
            select(Observer.id).where(Observer.game_id == game.id, col(Observer.active).is_(True))
        ).all()
    )
    if count >= MAX_OBSERVERS:
        raise ObserverError(
            f"game #{game.id} already has {count} observers (at most {MAX_OBSERVERS})"
        )
    if obs is None:
        obs = Observer(
            game_id=game.id,
            email=email,
            salt=secrets.token_hex(8),
            added_by=added_by,
            created_at=now,
        )
    obs.active, obs.unsubscribed_at, obs.added_by = True, None, added_by
    session.add(obs)
    session.flush()
    note_game_facts(session, game.id, observers=True)
    _welcome(session, settings, game, obs, now)
    return obs


def _welcome(
    session: Session, settings: Settings, game: Game, obs: Observer, now: datetime
) -> None:
    commit = session.get(Commitment, game.id)
    who = (
        "the server's operator"
        if obs.added_by == "operator"
        else f"{obs.added_by.title()}'s player"
    )
    paragraphs = [
        f"You now observe game #{game.id} of 1960: The Making of the President, at the "
        f"request of {who}. You will get the public board after every move: never a "
        "player's hand or secret choices.",
        "To stop, reply to any of these mails with the word 'unsubscribe' (or use your "
        "mail program's unsubscribe button).",
    ]
    facts = [("Commitment (SHA-256)", commit.commitment)] if commit else []
    if commit:
        paragraphs.append(
            "The commitment below is the SHA-256 of the game's secret seed, fixed "
            "before the players added their own words; the seed is revealed at the "
            "end so anyone can check every draw (docs/RANDOMNESS.md)."
        )
    note = Note(
        game_id=game.id or 0,
        subject=f"[1960 #{game.id}] You observe this game",
        title="Observing",
        paragraphs=paragraphs,
        facts=facts,
    )
    _queue_note(session, settings, obs, note, f"obs{obs.id}.welcome{int(now.timestamp())}", now)
    if game.snapshot:
        _queue_report(
            session,
            settings,
            game,
            obs,
            engine.from_json(game.snapshot),
            now,
            since=0,
            cause=f"v{game.version}.join{int(now.timestamp())}",
        )


def _queue_note(
    session: Session, settings: Settings, obs: Observer, note: Note, cause: str, now: datetime
) -> None:
    addr = unsubscribe_address(settings, obs)
    queue_note(
        session,
        settings,
        note,
        kind="observer",
        side=None,
        recipient=obs.email,
        message_id=_message_id(settings, obs, cause),
        reply_to=addr,
        now=now,
        headers=_headers(settings, obs),
    )


def _message_id(settings: Settings, obs: Observer, cause: str) -> str:
    return keys.signed_message_id(settings.secret, settings.address, f"1960.o{obs.id}.{cause}")


def unsubscribe(session: Session, settings: Settings, obs: Observer, now: datetime) -> None:
    """End the subscription and confirm it (one last mail, by request)."""
    obs.active, obs.unsubscribed_at = False, now
    session.add(obs)
    note = Note(
        game_id=obs.game_id,
        subject=f"[1960 #{obs.game_id}] Unsubscribed",
        title="Unsubscribed",
        paragraphs=[
            f"You no longer observe game #{obs.game_id}; no more mail about it will be sent to you."
        ],
    )
    addr = unsubscribe_address(settings, obs)
    queue_note(
        session,
        settings,
        note,
        kind="observer",
        side=None,
        recipient=obs.email,
        message_id=_message_id(settings, obs, f"unsub{int(now.timestamp())}"),
        reply_to=addr,
        now=now,
    )


def notify_observers(
    session: Session,
    settings: Settings,
    game: Game,
    state: engine.GameState,
    *,
    since: int,
    now: datetime,
) -> int:
    """Queue the public report of ``state`` to every active observer; returns how many.

    No query when the game's row was locked in this transaction and it had no observer then
    (`pbem.db.game_facts`; `add_observer` says when one is added since).
    """
    facts = game_facts(session, game.id) if game.id is not None else None
    if facts is not None and not facts.observers:
        return 0
    rows = session.exec(
        select(Observer).where(Observer.game_id == game.id, col(Observer.active).is_(True))
    ).all()
    for obs in rows:
        _queue_report(
            session, settings, game, obs, state, now, since=since, cause=f"v{game.version}"
        )
    return len(rows)


def _queue_report(
    session: Session,
    settings: Settings,
    game: Game,
    obs: Observer,
    state: engine.GameState,
    now: datetime,
    *,
    since: int,
    cause: str,
) -> None:
    v = engine.view(state, None)  # the public view only (R17.1)
    over = v["result"] is not None
    revealed = reveal_for(session, settings, game, now) if over else None
    model: dict[str, Any] = {
        "game_id": game.id,
        "turn": v["turn"],
        "phase": report_model.phase_label(v),
        "decision": v.get("decision", ""),
        "over": over,
        "tally": report_model.final_tally(v.get("result")),
        "board": report_model.board(v),
        "log": [
            {"turn": t["turn"], "entries": [e for e in t["entries"] if not e["private"]]}
            for t in report_model.log_since(v, since)
        ],
        "reveal": revealed[0] if revealed else None,
        "unsubscribe": unsubscribe_address(settings, obs),
    }
    from pbem import boardmap  # the picture's code (Pillow, resvg): for games with observers

    pic = boardmap.picture(v)  # the same public map picture as the players' reports
    model["board"]["map"] = {
        "cid": pic.cid,
        "alt": pic.alt,
        "width": pic.width,
        "height": pic.height,
    }
    mailimages.store(session, [pic])
    text, html = render_fair("observer", model)
    tag = f"[1960 #{game.id}]"
    subject = (
        f"{tag} Turn {v['turn']} — game over"
        if over
        else f"{tag} Turn {v['turn']} — {report_model.phase_label(v)} (observer)"
    )
    queue_rendered(
        session,
        game_id=game.id or 0,
        side=None,
        kind="observer",
        recipient=obs.email,
        subject=subject,
        text=text,
        html=html,
        message_id=_message_id(settings, obs, cause),
        reply_to=model["unsubscribe"],
        now=now,
        headers=_headers(settings, obs),
        attachments=revealed[1] if revealed else (),
    )
