"""One-tap answers: the report's legal commands as ``mailto:`` links that open a ready reply.

A tap on a link opens the player's mail program with a new mail to the seat's reply address,
the report's subject with ``Re:``, and the command as the whole body; Send plays it. The
HTML part shows one link per legal command of the decision (`engine.legal_commands`, through
the view) and a few whole lines that answer more than one step at once:

* a card's campaign and position split, as the heuristic bot would spend its CP
  (``campaign 17: NY 2, PA 1``, ``position 17: defense 2``);
* Election Day's whole order (``resolve 36, 58, 55``);
* the engine's own line answering ahead (the view's ``ahead_example``, e.g.
  ``strategy 70: first kennedy``).

The splits are `shortcuts`, computed where the mail is queued (the only place that holds the
game state): the heuristic plays them on a *determinisation* of the state for the seat
(`engine.determinize`), a state built from what that seat may see and a generator seeded by the
public move counter, so a shortcut can tell the player nothing the view does not (R17). A
shortcut is what the bot played on that state, so it applies to the real one too (hidden
cards and the draws to come change neither a split's legality nor an order's). Cards worth
the same CP for a use share their split: the bot spends equal points the same way. The links
themselves are built from the rendered model only (`answers`).

**What a link carries, and why a forwarded report gives nothing away.** A link holds the
reply address (``game+<key>@…``, already in the report's ``Reply-To`` header and written in
its "How to reply" section), the report's own subject, and a command the report already
lists. So anyone who can read the links could already write the same mail by hand. What
plays a mail is unchanged: the pipeline accepts a reply key only from the seat's registered
From address (a forged From is dropped without an answer), optionally only with a passing
DKIM/DMARC verdict, and a key goes stale when the seat's decision changes, so an old link is
answered with the current report, never applied to a later question. The links hold no
token, no game state and nothing of the other seat.

**The URL** follows RFC 6068: the address is written as it is (``+`` is an ordinary address
character there), and each header value is percent-encoded UTF-8, leaving only RFC 6068's
``unreserved`` and ``some-delims`` characters bare except ``+`` (``%2B``: some programs
decode a query's ``+`` as a space), so a space is ``%20`` and a line break ``%0D%0A``.
Mail programs (Gmail, Apple Mail, Outlook, K-9/Thunderbird) put ``body=`` in a new mail as
typed text; some add a signature ("Sent from my iPhone") or, when replying in a thread, the
quoted report; the pipeline reads the command line and drops the rest as usual
(`pbem.mail.extract`, `pbem.pipeline.lines`).
"""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import quote

import engine
from engine.determinize import determinize, playout_copy, sampler
from engine.effects import cp_value
from pbem.reports.model import CARD_VERBS

__all__ = ["VERB_ORDER", "answers", "mailto", "shortcuts"]

# Most used first: how often the heuristic bot picked each verb where a decision offered more
# than one (six self-play games); the rest follow in the engine's order, 'travel' last.
VERB_ORDER = (
    "support",
    "issue",
    "campaign",
    "position",
    "event",
    "resolve",
    "strategy",
    "first",
    "decline",
    "trigger",
    "swap",
    "candidate",
    "endorsement",
    "momentum",
    "check",
    "remove",
    "advertise",
    "media",
    "take",
    "preempt",
    "pass",
    "done",
    "travel",
)
_SAFE = "!$'()*,;:@"  # RFC 6068 some-delims without "+", besides the unreserved characters
_SPLIT_STEPS = {"campaign": "campaign", "position": "position"}  # the card play's point step
_ELECTION = ("election_card",)
_BY_HAND = ", you choose where"  # the group of card plays whose points the next mail asks for
_MAX_STEPS = 40  # a split never needs more (10 CP at most, one point per step)


def mailto(address: str, subject: str, body: str) -> str:
    """An RFC 6068 ``mailto:`` URL: a new mail to ``address`` with ``subject`` and ``body``."""
    body = body.replace("\r\n", "\n").replace("\n", "\r\n")
    return (
        f"mailto:{quote(address, safe='@+.-_')}"
        f"?subject={quote(subject, safe=_SAFE)}&body={quote(body, safe=_SAFE)}"
    )


# --- shortcuts: whole lines the heuristic would play (computed where the state is known) -------


def shortcuts(state: engine.GameState, side: str) -> list[str]:
    """Whole-action lines for ``side``'s current decision: each card's campaign and position
    split and Election Day's order, as the heuristic plays them on a determinisation (see the
    module docstring); ``[]`` when the decision has none."""
    if side not in engine.active_sides(state) or engine.result(state) is not None:
        return []
    step = state["stack"][-1]["step"]
    if step not in ("action", *_ELECTION):
        return []
    from bots.heuristic import Heuristic  # heavy (the bots package): only for these decisions

    seed = int(state["seq"])
    sample = determinize(state, side, sampler(seed))
    bot = Heuristic(random.Random(seed), simulate=False)
    legal = engine.legal_commands(sample, side)
    if step == "action":
        known: dict[tuple[str, int], str] = {}  # (step, CP) -> split: same for every such card
        lines = [
            _split(sample, side, cmd, bot, known)
            for cmd in legal
            if cmd.split()[0] in _SPLIT_STEPS and not cmd.endswith(" preempt")
        ]
    else:
        lines = [_election_order(sample, side, bot)]
    return [line for line in dict.fromkeys(lines) if line]


def _split(
    sample: engine.GameState, side: str, play: str, bot: Any, known: dict[tuple[str, int], str]
) -> str:
    """``campaign 17: NY 2, PA 1``: the points of ``play`` spent as the bot would spend them
    (``known``: the splits found for the same step and CP, which the bot spends the same way)."""
    verb, card = play.split()[:2]
    step = _SPLIT_STEPS[verb]
    key = (step, cp_value(sample, side, engine.CARDS[int(card)].cp, verb))  # R6.5
    if key in known:
        return f"{play}: {known[key]}" if known[key] else ""
    g = playout_copy(sample)
    engine.apply_in_place(g, side, play)
    top = g["stack"][-1] if g["stack"] else {}
    spent: dict[str, int] = {}
    for _ in range(_MAX_STEPS):
        if not g["stack"] or g["stack"][-1]["step"] != step or side not in engine.active_sides(g):
            break
        cmd = bot.choose(g, side)
        words = cmd.split()
        if words[0] == "done":
            break
        if words[0] == "travel":
            return ""  # a move of the token has no place in the one-line form
        where = words[1] if step == "campaign" else words[1].replace("_", " ")
        spent[where] = spent.get(where, 0) + (int(words[2]) if words[0] == "check" else 1)
        engine.apply_in_place(g, side, cmd)
    points = ", ".join(f"{where} {n}" for where, n in spent.items())
    if top.get("step") == step:
        known[key] = points
    return f"{play}: {points}" if points else ""


def _election_order(sample: engine.GameState, side: str, bot: Any) -> str:
    """``resolve 36, 58, 55``: the order the bot resolves its Election Day cards in."""
    g = playout_copy(sample)
    order: list[str] = []
    for _ in range(_MAX_STEPS):
        if not g["stack"] or side not in engine.active_sides(g):
            break
        cmd = bot.choose(g, side)  # an event's question on the way: the bot answers it too
        if g["stack"][-1]["step"] in _ELECTION:
            order.append(cmd.split()[1])
        engine.apply_in_place(g, side, cmd)
    return "resolve " + ", ".join(order) if len(order) > 1 else ""


# --- the links -------------------------------------------------------------------------------


def answers(m: dict[str, Any], subject: str) -> list[dict[str, Any]]:
    """The one-tap answers of the report model ``m``, grouped by verb, most used first:
    ``[{"verb", "links": [{"label", "command", "href"}]}]``; ``[]`` when there is nothing to
    answer or no reply address."""
    if not m.get("view") or not m.get("my_move") or m.get("over") or not m.get("reply_to"):
        return []
    reply = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    whole = [*m.get("shortcuts", []), *([m["ahead"]] if m.get("ahead") else [])]
    split = {line.partition(":")[0] for line in whole if ":" in line}  # 'campaign 17' of …
    groups: dict[str, list[str]] = {}
    for cmd in [*whole, *m["legal"]]:  # a card play whose split is shown: chosen by hand
        verb = _group_of(cmd) + (_BY_HAND if cmd in split else "")
        groups.setdefault(verb, []).append(cmd)
    out = []
    for verb in sorted(groups, key=_rank):
        links = [
            {"label": _label(cmd), "command": cmd, "href": mailto(m["reply_to"], reply, cmd)}
            for cmd in dict.fromkeys(groups[verb])
        ]
        out.append({"verb": verb, "links": links})
    return out


def _group_of(cmd: str) -> str:
    verb = cmd.split()[0].rstrip(":")
    return "preempt" if cmd.endswith(" preempt") else verb


def _rank(verb: str) -> tuple[int, str]:
    if verb.endswith(_BY_HAND):  # after the whole lines and the events, before 'advertise'
        return (2 * VERB_ORDER.index("advertise") - 1, verb)
    where = VERB_ORDER.index(verb) if verb in VERB_ORDER else VERB_ORDER.index("preempt")
    return (2 * where, verb)


def _label(cmd: str) -> str:
    """What a link shows: the command without its verb, cards with their names
    (``#17 Peace Corps: NY 2, PA 1``); a preempt names its use (``campaign #17 …``)."""
    verb, _, rest = cmd.partition(" ")
    head, colon, tail = rest.partition(":")
    words = head.split()
    if verb in CARD_VERBS and words and words[0].isdigit() and int(words[0]) in engine.CARDS:
        words[0] = f"#{words[0]} {engine.card_info(int(words[0]))['name']}"
    if words and words[-1] == "preempt":
        words = [verb, *words[:-1]]
    if verb == "resolve" and "," in rest:
        return f"all, in this order: {rest}"
    text = " ".join(words).replace("_", " ")
    if colon:
        text = f"{text}:{tail}" if text else tail.strip()
    return text or cmd
