"""The ``observer-mail`` stage: a mail to an observer's unsubscribe address.

Observers (`pbem.games.fairplay.observers`) get the public board of a game after every move;
each mail they get carries their own reply address. A mail to it that says ``unsubscribe`` (or
``stop``), in its subject or as a line of its own, ends the subscription; anything else sent
there is ignored. Mail to a seat's address passes on.
"""

from __future__ import annotations

from pbem.games.fairplay.observers import find_observer, unsubscribe
from pbem.pipeline.base import Answered, Context, IgnoreMessage, Stage
from pbem.pipeline.fairplay import own_lines
from pbem.pipeline.reply_keys import key_sources

STOP_WORDS = ("unsubscribe", "stop")


def observer_mail(ctx: Context) -> None:
    assert ctx.parsed is not None and ctx.inbound is not None
    obs = find_observer(ctx.session, ctx.settings, *key_sources(ctx.raw, ctx.parsed))
    if obs is None:
        return
    ctx.inbound.game_id = obs.game_id
    _, found = own_lines(ctx.parsed.text, STOP_WORDS)
    asked = any(w in ctx.parsed.subject.lower().split() for w in STOP_WORDS) or bool(found)
    if not asked:
        raise IgnoreMessage(f"mail to observer {obs.id}'s address without 'unsubscribe'")
    if not obs.active:
        raise IgnoreMessage(f"observer {obs.id} had already unsubscribed")
    unsubscribe(ctx.session, ctx.settings, obs, ctx.now)
    raise Answered(f"observer {obs.email} unsubscribed from game {obs.game_id}")


STAGE = Stage(
    "observer-mail",
    "a mail to an observer's unsubscribe address: 'unsubscribe' ends it",
    observer_mail,
)
