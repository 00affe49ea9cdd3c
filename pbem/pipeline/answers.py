"""The server words answered by a mail of their own (help, status, history, card).

`meta_request` tells such a line from a game line (``help 17`` asks for one card, as ``card 17``
does); `queue_meta` queues the answers. The ``meta-commands`` stage answers a mail of these words
alone, ``report`` answers them after the mail's moves; ``undo`` and ``orders`` use `meta_request`
to see that a mail changes nothing in the game.
"""

from __future__ import annotations

from typing import Any

from pbem.games.mailing import queue_mail
from pbem.pipeline.base import Context
from pbem.reports import cardtext
from pbem.server_words import SERVER_WORDS, words_of

ANSWERED = words_of("answered")  # the server words answered by a mail of their own


# those of them that may name a card ('help 17', 'card 17'): one card's mail
ASK_CARD = tuple(w for w in ANSWERED if SERVER_WORDS[w].args.lstrip("?") == "card")


def meta_request(line: str) -> str:
    """``help``, ``status``, ``history`` or ``card QUERY`` for a server-word line, else ``""``.

    ``help 17`` / ``help nixon's knee`` ask for one card, as ``card 17`` does.
    """
    word, _, arg = line.strip().partition(" ")
    word, arg = word.lower().rstrip(":"), arg.strip()
    if word not in ANSWERED or (arg and word not in ASK_CARD):
        return ""
    if word in ASK_CARD and arg:
        return f"card {arg}"
    return word


def queue_meta(ctx: Context) -> None:
    """Queue one answer per request of the mail (``ctx.meta``), one mail per card asked for."""
    assert ctx.game is not None and ctx.seat is not None and ctx.state is not None
    assert ctx.inbound is not None and ctx.parsed is not None
    for n, request in enumerate(dict.fromkeys(ctx.meta)):
        kind, _, arg = request.partition(" ")
        context: dict[str, Any] = {}
        cause = f"in{ctx.inbound.id}"
        if kind == "card":
            found = cardtext.find(arg)
            if len(found) == 1:
                context = {"card": found[0]}
            else:
                context = {"card_query": arg, "card_matches": found[:8]}
            cause += f".{n}"  # one mail per card asked for
        queue_mail(
            ctx.session,
            ctx.settings,
            kind=kind,
            game=ctx.game,
            seat=ctx.seat,
            state=ctx.state,
            cause=cause,
            now=ctx.now,
            in_reply_to=ctx.parsed.message_id,
            advance_log=False,
            context=context,
        )
