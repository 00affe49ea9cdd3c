"""What an observer is sent: the one place that decides, fed by the game's log and events.

An observer's mail holds everything public since their last one: the game log from the
public view (``engine.view(state, None)``, R17.1), grouped by action as in the players'
summaries (`pbem.reports.summary.group_log`), the clock and seat events of the game
(`PUBLIC_EVENTS`: out of time, the autopilot, a claim offered, vacations, a seat change,
resignation, forfeit and claim), the board, and at the end the result with the reveal. Each
observer keeps marks (`pbem.store.models.Observer` ``seen_*``), so whoever moved the game —
a player's mail, a computer seat, the clocks' autopilot, an order the server applied, the
operator — the next `catch_up` sends what is new, once.

`catch_up` runs in the transaction that holds the game's row: the pipeline's ``observers``
stage after every applied mail, and `catch_up_all` in every worker pass for the games whose
observers are behind (everything the server does by itself: ticks, bots, claims, seat
changes). The first mail after an observer's consent carries the welcome and the game so far.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import exists, func, or_
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

import engine
from engine.data import other
from pbem import keys
from pbem.clocks.report import ending_of
from pbem.config import Settings
from pbem.games.bots import reasons_of
from pbem.games.fairplay.export import reveal_for
from pbem.games.fairplay.mails import Note, queue_note, render_fair
from pbem.outbox import parts as mailimages
from pbem.outbox.queue import queue_rendered, seats_of
from pbem.reports import boardmap
from pbem.reports import model as report_model
from pbem.reports.summary import group_log
from pbem.store.db import lock_game, transaction
from pbem.store.models import Commitment, Game, GameEvent, Observer

__all__ = [
    "PUBLIC_EVENTS",
    "catch_up",
    "catch_up_all",
    "headers",
    "last_event_id",
    "message_id",
    "queue_observer_note",
    "token",
    "unsubscribe_address",
]


# the game events an observer is told of, in their words (the rest are a player's own
# business: reminders, answers, addresses)
PUBLIC_EVENTS: dict[str, Callable[[GameEvent], str]] = {
    "out_of_time": lambda e: f"{e.side.title()}'s clock has run out; their grace time runs now.",
    "claim_offered": lambda e: (
        f"{e.side.title()} is out of time and grace: {other(e.side).title()} may claim the win."
    ),
    "autopilot": lambda e: (
        f"{e.side.title()} was out of time and grace, so the server's computer player "
        "moved for them (its moves are below)."
    ),
    "vacation": lambda e: f"{e.side.title()} is on vacation: both clocks are stopped.",
    "vacation_end": lambda e: f"{e.side.title()}'s vacation is over: the clocks run again.",
    "seat": lambda e: f"{e.side.title()}'s seat has a new player.",
    "timeout": lambda e: e.detail.rstrip(".") + ".",
    "resigned": lambda e: e.detail.rstrip(".") + ".",
}


def token(settings: Settings, obs: Observer) -> str:
    """The HMAC in an observer's own reply address (``game+o<id>-<token>@…``)."""
    msg = f"observer|{obs.id}|{obs.game_id}|{obs.salt}".encode()
    digest = hmac.new(settings.secret.encode(), msg, hashlib.sha256).digest()
    return base64.b32encode(digest[:10]).decode().lower()


def unsubscribe_address(settings: Settings, obs: Observer) -> str:
    local, _, domain = settings.address.lower().partition("@")
    return f"{local}+o{obs.id}-{token(settings, obs)}@{domain}"


def headers(settings: Settings, obs: Observer) -> dict[str, str]:
    addr = unsubscribe_address(settings, obs)
    domain = settings.address_domain
    return {
        "List-Unsubscribe": f"<mailto:{addr}?subject=unsubscribe>",
        "List-Id": f"1960 game {obs.game_id} observers <game-{obs.game_id}.observers.{domain}>",
        "Precedence": "list",
    }


def message_id(settings: Settings, obs: Observer, cause: str) -> str:
    return keys.signed_message_id(settings.secret, settings.address, f"1960.o{obs.id}.{cause}")


def queue_observer_note(
    session: Session,
    settings: Settings,
    obs: Observer,
    note: Note,
    cause: str,
    now: datetime,
) -> None:
    """A short note to an observer, answerable at their own address."""
    queue_note(
        session,
        note,
        kind="observer",
        side=None,
        recipient=obs.email,
        message_id=message_id(settings, obs, cause),
        reply_to=unsubscribe_address(settings, obs),
        now=now,
        headers=headers(settings, obs),
    )


def last_event_id(session: Session, game_id: int) -> int:
    found = session.exec(select(func.max(GameEvent.id)).where(GameEvent.game_id == game_id)).one()
    return int(found or 0)


def catch_up(
    session: Session,
    settings: Settings,
    game: Game,
    now: datetime,
    *,
    welcome: Observer | None = None,
) -> int:
    """Send each active observer of ``game`` what is public and new since their last mail;
    returns the mails queued. The caller holds the game's row; ``welcome``: the observer who
    just confirmed (their first mail opens with the welcome)."""
    assert game.id is not None
    rows = (
        [welcome]
        if welcome is not None
        else session.exec(
            select(Observer).where(Observer.game_id == game.id, col(Observer.active).is_(True))
        ).all()
    )
    if not rows or not game.snapshot:  # most games have no observer
        return 0
    over = game.status == "over"
    last = last_event_id(session, game.id)
    behind = [
        o
        for o in rows
        if o.seen_version != game.version or o.seen_event < last or (over and not o.seen_end)
    ]
    if not behind:
        return 0
    state = engine.from_json(game.snapshot)
    first = min(o.seen_event for o in behind)
    events = list(
        session.exec(
            select(GameEvent)
            .where(GameEvent.game_id == game.id, col(GameEvent.id) > first)
            .order_by(col(GameEvent.id))
        )
    )
    v = engine.view(state, None)  # the public view only (R17.1)
    reasons = reasons_of(session, game.id, seats_of(session, game.id))  # words for anyone
    sent = 0
    for obs in behind:
        news = [
            PUBLIC_EVENTS[e.kind](e)
            for e in events
            if (e.id or 0) > obs.seen_event and e.kind in PUBLIC_EVENTS
        ]
        undone = obs.seen_log > len(state["log"])  # a move was taken back (undo)
        groups = group_log(v["log"], min(obs.seen_log, len(state["log"])), None)
        report_model.with_reasons(groups, reasons)
        end = over and not obs.seen_end
        if news or groups or end or undone or obs is welcome:
            _queue_report(
                session,
                settings,
                game,
                obs,
                v,
                now,
                groups=groups,
                news=news,
                undone=undone,
                welcome=obs is welcome,
                cause=("welcome." if obs is welcome else "")
                + f"v{game.version}.e{last}"
                + (".end" if end else ""),
            )
            sent += 1
        obs.seen_version, obs.seen_log, obs.seen_event = game.version, len(state["log"]), last
        obs.seen_end = over
        session.add(obs)
    return sent


def catch_up_all(db: Engine, settings: Settings, now: datetime) -> int:
    """Every game whose observers are behind (a move, an event, the end), each in its own
    transaction; returns the mails queued."""
    newer = exists().where(
        col(GameEvent.game_id) == col(Observer.game_id),
        col(GameEvent.id) > col(Observer.seen_event),
    )
    with Session(db) as s:
        ids = sorted(
            set(
                s.exec(
                    select(Observer.game_id)
                    .join(Game, col(Game.id) == col(Observer.game_id))
                    .where(
                        col(Observer.active).is_(True),
                        or_(
                            col(Game.version) != col(Observer.seen_version),
                            (col(Game.status) == "over") & col(Observer.seen_end).is_(False),
                            newer,
                        ),
                    )
                ).all()
            )
        )
    sent = 0
    for game_id in ids:
        with transaction(db) as s:
            game = lock_game(s, game_id)
            if game is not None:
                sent += catch_up(s, settings, game, now)
    return sent


def _welcome(session: Session, game: Game, obs: Observer) -> dict[str, Any]:
    commit = session.get(Commitment, game.id)
    who = (
        "the server's operator"
        if obs.added_by == "operator"
        else f"{obs.added_by.title()}'s player"
    )
    paragraphs = [
        f"Thank you: you now observe game #{game.id} of 1960: The Making of the President, "
        f"at the request of {who}; both players have been told. You will get the public "
        "board after every move, never a player's hand or secret choices. Below is the game "
        "so far.",
    ]
    if commit:
        paragraphs.append(
            "The commitment below is the SHA-256 of the game's secret seed, fixed before the "
            "players added their own words; the seed is revealed at the end so anyone can "
            "check every draw (docs/RANDOMNESS.md)."
        )
    return {"paragraphs": paragraphs, "commitment": commit.commitment if commit else ""}


def _queue_report(
    session: Session,
    settings: Settings,
    game: Game,
    obs: Observer,
    v: engine.View,
    now: datetime,
    *,
    groups: list[Any],
    news: list[str],
    undone: bool,
    welcome: bool,
    cause: str,
) -> None:
    ending = ending_of(game)
    over = game.status == "over"
    revealed = reveal_for(session, settings, game, now) if over else None
    model: dict[str, Any] = {
        "game_id": game.id,
        "turn": v["turn"],
        "phase": report_model.phase_label(v),
        "decision": v.get("decision", ""),
        "over": over,
        "tally": report_model.final_tally(v.get("result")),
        "ending": ending,
        "board": report_model.board(v),
        "events": news,
        "undone": undone,
        "groups": groups,
        "welcome": _welcome(session, game, obs) if welcome else None,
        "reveal": revealed[0] if revealed else None,
        "unsubscribe": unsubscribe_address(settings, obs),
    }
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
    if welcome:
        subject = f"{tag} You observe this game: turn {v['turn']}, {report_model.phase_label(v)}"
    elif over:
        winner = ending["winner"] if ending else (model["tally"] or {}).get("winner")
        subject = f"{tag} Turn {v['turn']} — game over" + (f": {winner} wins" if winner else "")
    else:
        subject = f"{tag} Turn {v['turn']} — {report_model.phase_label(v)} (observer)"
    queue_rendered(
        session,
        game_id=game.id or 0,
        side=None,
        kind="observer",
        recipient=obs.email,
        subject=subject,
        text=text,
        html=html,
        message_id=message_id(settings, obs, cause),
        reply_to=model["unsubscribe"],
        now=now,
        headers=headers(settings, obs),
        attachments=revealed[1] if revealed else (),
    )
