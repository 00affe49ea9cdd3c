"""What the fair-play stages share (``observer-mail``, ``invitation``, ``fair-play-words``).

They read the writer's own lines (quotes and signatures left out) and their first word, and
answer with a short note to the seat (`pbem.games.fairplay.mails.note_to`).

``accept`` and ``decline`` are invitation replies only while the game is ``invited``: the
``invitation`` stage dispatches on the game's status, so in a running game ``decline`` stays
the engine's verb (declining a trigger or a swap) and never reaches this code.
"""

from __future__ import annotations

from pbem.games.fairplay.mails import note_to
from pbem.pipeline.base import Context
from pbem.pipeline.lines import own_text


def own_lines(text: str, words: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(the writer's own non-empty lines, those of them starting with one of ``words``)."""
    own = [line.strip() for line in own_text(text).lines if line.strip()]
    return own, [line for line in own if line.split()[0].lower() in words]


def first_word(lines: list[str]) -> tuple[str, str]:
    """The first line's first word, lower-cased, and the rest of that line."""
    if not lines:
        return "", ""
    word, _, rest = lines[0].strip().partition(" ")
    return word.lower(), rest


def note(ctx: Context, title: str, paragraphs: list[str]) -> None:
    """Answer the seat with a short note (in reply to its mail)."""
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
