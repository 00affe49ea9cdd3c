"""The ``observer-mail`` stage: a mail to an observer's own address (confirm, unsubscribe).

Every mail to an observer, the request for their consent included, carries their own signed
reply address (`pbem.games.fairplay.observers`). A mail to it with the line ``confirm CODE``
(the code of the request) starts the subscription; ``unsubscribe`` (or ``stop``), in its
subject or as a line of its own, ends it or declines the request. Anything else sent there is
ignored. Mail to a seat's address passes on.
"""

from __future__ import annotations

from pbem.games.fairplay.observers import confirm, confirm_code, find_observer, unsubscribe
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
    _, found = own_lines(ctx.parsed.text, (*STOP_WORDS, "confirm"))
    stop = [line for line in found if line.split()[0].lower() in STOP_WORDS]
    if any(w in ctx.parsed.subject.lower().split() for w in STOP_WORDS) or stop:
        if not (obs.active or obs.pending):
            raise IgnoreMessage(f"observer {obs.id} had already unsubscribed")
        unsubscribe(ctx.session, ctx.settings, obs, ctx.now)
        raise Answered(f"observer {obs.email} unsubscribed from game {obs.game_id}")
    codes = [line.split()[1].upper() for line in found if len(line.split()) > 1]
    if obs.pending and confirm_code(ctx.settings, obs) in codes:
        confirm(ctx.session, ctx.settings, obs, ctx.now)
        raise Answered(f"observer {obs.email} confirmed for game {obs.game_id}")
    raise IgnoreMessage(f"mail to observer {obs.id}'s address without 'confirm' or 'unsubscribe'")


STAGE = Stage(
    "observer-mail",
    "a mail to an observer's own address: 'confirm CODE' starts, 'unsubscribe' ends it",
    observer_mail,
)
