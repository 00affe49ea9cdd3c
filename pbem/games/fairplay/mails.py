"""Render and queue the fair-play mails: invitations and their answers, observer reports.

These mails exist before a game has a position (invitations) or go to people without a seat
(observers), so they are rendered here from the shared Jinja environment of `pbem.reports.render`
(templates ``fair_note`` and ``fair_observer``) and written straight into the outbox, in the
caller's transaction, with deterministic Message-IDs like every other mail.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session

from pbem import keys
from pbem.config import Settings
from pbem.games.bots import is_bot
from pbem.outbox.queue import current_key, queue_rendered
from pbem.reports.render import board_parts, environment, tidy_text
from pbem.store.models import Game, OutboxMessage, Seat

__all__ = ["Note", "note_to", "queue_note", "render_fair"]


@dataclass
class Note:
    """A short mail: a title, paragraphs, optional key/value facts and a closing hint."""

    game_id: int
    subject: str
    title: str
    paragraphs: list[str]
    facts: list[tuple[str, str]] = field(default_factory=list)
    commands: list[tuple[str, str]] = field(default_factory=list)  # (example, what it does)
    footer: str = ""


def render_fair(template: str, model: dict[str, Any]) -> tuple[str, str]:
    """(text, html) of ``fair_<template>`` for ``model``."""
    env = environment()
    if model.get("board") is not None:
        model["board"].setdefault("map", None)  # the map picture, when the caller drew one
        model["board_text"], model["board_html"] = board_parts(model["board"])
    text = env.get_template(f"text/fair_{template}.txt.j2").render(model)
    html = env.get_template(f"html/fair_{template}.html.j2").render(model)
    return tidy_text(text), html


def queue_note(
    session: Session,
    note: Note,
    *,
    kind: str,
    side: str | None,
    recipient: str,
    message_id: str,
    reply_to: str,
    now: datetime,
    references: Sequence[str] = (),
    headers: dict[str, str] | None = None,
) -> OutboxMessage:
    """Render a `Note` (template ``fair_note``) and queue it."""
    text, html = render_fair("note", {**asdict(note), "reply_to": reply_to})
    return queue_rendered(
        session,
        game_id=note.game_id,
        side=side,
        kind=kind,
        recipient=recipient,
        subject=note.subject,
        text=text,
        html=html,
        message_id=message_id,
        reply_to=reply_to,
        now=now,
        references=references,
        headers=headers,
    )


def note_to(
    s: Session,
    settings: Settings,
    game: Game,
    seat: Seat,
    *,
    cause: str,
    subject: str,
    title: str,
    paragraphs: list[str],
    now: datetime,
    in_reply_to: str = "",
    facts: list[tuple[str, str]] | None = None,
) -> None:
    """Queue a fair-play note (`Note`) for ``seat``, answered with its current reply key; a
    computer-played seat is never mailed."""
    if is_bot(seat.email):
        return
    key = current_key(settings, seat)
    note = Note(
        game_id=game.id or 0,
        subject=f"[1960 #{game.id}] {subject}",
        title=title,
        paragraphs=paragraphs,
        facts=facts or [],
    )
    queue_note(
        s,
        note,
        kind="invitation",
        side=seat.side,
        recipient=seat.email,
        message_id=keys.message_id(settings.secret, settings.address, key, cause),
        reply_to=keys.reply_address(settings.address, key),
        now=now,
        references=[seat.thread_root, in_reply_to],
    )
