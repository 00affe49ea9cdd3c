"""The ``fair-play-words`` stage: ``observe ADDRESS`` (and a stray ``accept``) in a running game.

``observe`` adds an observer who then gets the public board after every move
(`pbem.games.fairplay.observers`); an ``accept`` in a running game is answered with a note.
Both lines are taken out of the mail; a mail of these lines alone is answered here.
"""

from __future__ import annotations

import re

from pbem.games.fairplay.observers import ObserverError, add_observer
from pbem.pipeline.base import Answered, Context, Stage
from pbem.pipeline.fairplay import first_word, note


def fair_play_words(ctx: Context) -> None:
    assert ctx.game is not None and ctx.seat is not None
    keep, answered = [], []
    for line in ctx.lines:
        word, rest = first_word([line])
        if word == "observe":
            answered.append(_observe(ctx, rest))
        elif word == "accept":
            answered.append("accept: the game is already running")
            note(
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


STAGE = Stage(
    "fair-play-words",
    "answer 'observe ADDRESS' (and a stray 'accept') in a running game",
    fair_play_words,
)


def _observe(ctx: Context, address: str) -> str:
    assert ctx.game is not None and ctx.seat is not None
    address = re.sub(r"^mailto:", "", address.strip(), flags=re.I)
    try:
        obs = add_observer(
            ctx.session, ctx.settings, ctx.game, address, added_by=ctx.seat.side, now=ctx.now
        )
    except ObserverError as exc:
        note(ctx, "Observer not added", [f"'observe {address}': {exc}."])
        return f"observe refused: {exc}"
    note(
        ctx,
        "Observer added",
        [
            f"{obs.email} now gets the public board of game "
            f"#{ctx.game.id} after every move (never your hand or secret "
            "choices) and can unsubscribe at any time."
        ],
    )
    return f"observer {obs.email} added"
