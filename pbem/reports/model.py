"""Turn an engine view into the plain data the mail templates lay out.

Everything here is computed from ``engine.view(state, side)`` (passed in
``ctx["view"]``) and public card data (`engine.card_info`, `engine.VERBS`),
never from the game state itself, so a report cannot show more than the view
holds for its recipient (R17). The templates only arrange these values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from itertools import zip_longest
from typing import Any

import engine
from engine.data import other
from pbem.clocks.report import clock_model
from pbem.reports import cardtext
from pbem.server_words import SERVER_WORDS, words_of

SIDE_LETTER = {"kennedy": "K", "nixon": "N"}
ICON_NAME = {"kennedy": "Kennedy", "nixon": "Nixon", "both": "both"}
EDITION_LABEL = {"zman": "Z-Man 2nd edition", "gmt": "GMT edition (2017)"}
CARD_VERBS = {
    name for name, v in engine.VERBS.items() if v.args and v.args[0].lstrip("?") == "card"
}
_PASSIVE = ("done", "pass", "decline")
_ANY_STATE_MIN = 35  # list "any state except ..." once this many states are legal


def support_label(space: dict[str, Any]) -> str:
    """``K3`` / ``N2`` for a space's support, ``·`` when empty."""
    if not space.get("side") or not space.get("cubes"):
        return "·"
    return f"{SIDE_LETTER[space['side']]}{space['cubes']}"


def card_row(n: int, cp_now: dict[str, int] | None = None) -> dict[str, Any]:
    """A card as printed (R1.7): number, name, CP, rest cubes, icon, debate issue, state,
    its event text (short form) and, from ``cp_now`` (the view's ``hand_cp``), what it is worth
    this turn when effects in force change that (R6.5)."""
    c = engine.card_info(n)
    icon = {"kennedy": "K", "nixon": "N", "both": "K/N"}.get(c["icon"], c["icon"])
    return {
        "number": n,
        "name": c["name"],
        "label": f"#{n} {c['name']}",
        "cp": c["cp"],
        "cp_note": cp_note(c["cp"], cp_now),
        "rest": c["rest"],
        "icon": icon,
        "issue": engine.issue_name(c["issue"]) if c["issue"] else "—",
        "state": c["state"] or "—",
        "text": cardtext.event_text(n),
        "facts": " · ".join(
            x
            for x in (
                f"{c['cp']} CP",
                f"{c['rest']} rest",
                f"icon {ICON_NAME.get(c['icon'], c['icon'])}",
                f"debate {engine.issue_name(c['issue'])}" if c["issue"] else "",
                f"Election Day state {c['state']}" if c["state"] else "",
            )
            if x
        ),
    }


def cp_note(printed: int, now: dict[str, int] | None) -> str:
    """``"4 CP this turn"`` / ``"campaign 4, position 2 this turn"``; empty when as printed."""
    if not now or all(v == printed for v in now.values()):
        return ""
    values = set(now.values())
    if len(values) == 1:
        return f"{values.pop()} CP this turn"
    return ", ".join(f"{use} {v}" for use, v in now.items()) + " CP this turn"


def phase_label(v: Mapping[str, Any]) -> str:
    phase = v["phase"]
    if phase == "activity":
        return f"activity phase {v['round']} of 5"
    return {
        "setup": "setup",
        "initiative": "initiative",
        "momentum": "momentum phase",
        "strategy": "campaign strategy phase",
        "debates": "the debates",
        "election": "Election Day",
        "over": "game over",
    }.get(phase, str(phase))


def board(v: Mapping[str, Any]) -> dict[str, Any]:
    """The public board (R17.1): states by region, tracks, bag, tokens."""
    regions: list[dict[str, Any]] = []
    by_region: dict[str, list[dict[str, Any]]] = {region: [] for region in engine.REGIONS}
    for s, info in engine.STATES.items():  # one pass, each region's states in the usual order
        sp = v["states"].get(s)
        if sp is not None and sp["region"] in by_region:
            by_region[sp["region"]].append(
                {
                    "abbr": s,
                    "name": info.name,
                    "ev": sp["ev"],
                    "side": sp["side"],
                    "cubes": sp["cubes"],
                    "sup": support_label(sp),
                }
            )
    for region in engine.REGIONS:
        cells = by_region[region]
        ev = {
            side: sum(c["ev"] for c in cells if c["side"] == side and c["cubes"])
            for side in engine.SIDES
        }
        regions.append(
            {
                "key": region,
                "name": region.capitalize(),
                "states": cells,
                "ev": ev,
                "media": support_label(v["media"][region]),
                "endorsement": support_label(v["endorsements"][region]),
            }
        )
    rows = [list(r) for r in zip_longest(*(r["states"] for r in regions))]
    ev_total = {side: sum(r["ev"][side] for r in regions) for side in engine.SIDES}
    ev_all = sum(int(sp["ev"]) for sp in v["states"].values())
    persistent: dict[str, list[int]] = v.get("persistent", {})
    tokens = {
        side: {"abbr": st, "name": engine.STATES[st].name if st in engine.STATES else st}
        for side, st in v["tokens"].items()
    }
    return {
        "regions": regions,
        "rows": rows,
        "ev": ev_total,
        "ev_open": ev_all - sum(ev_total.values()),
        "ev_needed": ev_all // 2 + 1,
        "issues": [
            {"name": engine.issue_name(i["issue"]), "sup": support_label(i)} for i in v["issues"]
        ],
        "momentum": v["momentum"],
        "rest": v.get("rest", {}),
        "bag": v["bag"],
        "tokens": tokens,
        "candidates": v["candidates"],
        "hand_sizes": v.get("hand_sizes", {}),
        "stack_sizes": v.get("stack_sizes", {}),
        "deck_size": v.get("deck_size", 0),
        "discard_size": len(v.get("discard", [])),
        "effects": [
            f"#{e['card']} {e['name']} ({e['side'].title()})" for e in v.get("effects", [])
        ],
        "persistent": [
            card_row(n)["label"] for kind in sorted(persistent) for n in persistent[kind]
        ],
        "debate": debate(v.get("debate")),
    }


def _issue_rank(issue: str) -> int:
    return engine.ISSUES.index(issue) if issue in engine.ISSUES else len(engine.ISSUES)


def debate(d: dict[str, Any] | None) -> dict[str, Any] | None:
    """The debate board (R12) as the view shows it; ``None`` outside the debates."""
    if d is None:
        return None
    rows = []
    for issue in sorted(d["board"], key=_issue_rank):
        sides = d["board"][issue]
        rows.append(
            {
                "name": engine.issue_name(issue),
                "cards": {s: [card_row(n)["label"] for n in cards] for s, cards in sides.items()},
                "totals": d.get("totals", {}).get(issue, {}),
                "resolved": issue in d["resolved"],
            }
        )
    return {
        "initiative": (d.get("initiative") or "").title(),
        "rows": rows,
        "hand": [card_row(n) for n in d.get("hand", [])],
        "hand_sizes": d.get("hand_sizes", {}),
        "my_pick": " ".join(str(x) for x in d["my_pick"]) if d.get("my_pick") else "",
        "revealed": [card_row(n)["label"] for n in d.get("revealed", []) if n in engine.CARDS],
    }


def as_written(cmd: str) -> str:
    """A canonical command as a player writes it: ``swap civil_rights defense`` -> ``swap civil
    rights defense`` (the parser reads the issue's name; the key is no word of the rules)."""
    return cmd.replace("civil_rights", "civil rights")


def group_legal(legal: list[str], own_cards: set[int]) -> list[dict[str, str]]:
    """Group canonical commands by verb into one compact line each.

    ``support AL``, ``support AK`` ... become ``support`` + ``any state except
    ...``; ``check CA 1``, ``check CA 2`` become ``CA 1-2``; ``campaign 14 preempt``
    becomes a note on ``campaign 14``. Cards not in the player's own hand or
    stack carry their names.
    """
    by_verb: dict[str, list[str]] = {}
    for cmd in map(as_written, legal):
        verb, _, rest = cmd.partition(" ")
        by_verb.setdefault(verb, []).append(rest)
    out = []
    for verb, args in by_verb.items():
        out.append({"verb": verb, "args": _compact(verb, [a for a in args if a], own_cards)})
    return out


def _compact(verb: str, args: list[str], own_cards: set[int]) -> str:
    if not args:
        return ""
    if verb == "check":
        ranges: dict[str, list[int]] = {}
        for a in args:
            st, _, n = a.partition(" ")
            ranges.setdefault(st, []).append(int(n))
        return ", ".join(
            f"{st} {min(ns)}" if len(ns) == 1 else f"{st} {min(ns)}-{max(ns)}"
            for st, ns in ranges.items()
        )
    flagged = [a[: -len(" preempt")] for a in args if a.endswith(" preempt")]
    plain = [a for a in args if not a.endswith(" preempt")]
    if all(a in engine.STATES for a in plain) and len(plain) >= _ANY_STATE_MIN:
        missing = [s for s in engine.STATES if s not in plain]
        text = "any state" + (" except " + " ".join(missing) if missing else "")
    elif verb in CARD_VERBS:
        text = ", ".join(_card_arg(a, own_cards) for a in _alternatives(plain))
    else:
        text = (", " if any(" " in a for a in plain) else " ").join(_alternatives(plain))
    if flagged and flagged == plain:
        text += "   (add 'preempt' to any of them to preempt, R6.8)"
    elif flagged:
        text += f"   (add 'preempt' to preempt with: {', '.join(flagged)}, R6.8)"
    return text


def _alternatives(args: list[str]) -> list[str]:
    """``10 kennedy``, ``10 nixon`` -> ``10 kennedy/nixon`` (two-word args sharing a first word);
    with ``10`` alone legal too, ``10 [kennedy/nixon]`` (the second word optional), never the
    ambiguous ``10, 10 kennedy, 10 nixon``."""
    groups: dict[str, list[str]] = {}
    for a in args:
        first, _, rest = a.partition(" ")
        groups.setdefault(first, []).append(rest)
    out = []
    for first, rests in groups.items():
        words = [r for r in rests if r]
        if len(words) > 1 and all(" " not in r for r in words):
            alt = "/".join(words)
            out.append(f"{first} [{alt}]" if len(words) < len(rests) else f"{first} {alt}")
        else:
            out.extend(f"{first} {r}".rstrip() for r in rests)
    return out


def _card_arg(arg: str, own_cards: set[int]) -> str:
    first = arg.partition(" ")[0]
    if first.isdigit() and int(first) in engine.CARDS and int(first) not in own_cards:
        return f"{arg} ({engine.card_info(int(first))['name']})"
    return arg


def decision_cards(v: dict[str, Any], own: set[int]) -> list[dict[str, Any]]:
    """The cards a decision is about, quoted (a trigger or preempt question names the card):
    those written as ``#N`` in the prompt and cards in legal commands that are not the
    player's own (theirs are listed with their text under the hand) — every one of them: a
    choice from the discard pile is made on the cards' texts."""
    numbers = cardtext.cards_named(v.get("decision", ""))
    for cmd in v.get("legal", []):
        verb, _, rest = cmd.partition(" ")
        first = rest.partition(" ")[0]
        if verb in CARD_VERBS and first.isdigit() and int(first) in engine.CARDS:
            numbers.append(int(first))
    return [card_row(n) for n in dict.fromkeys(numbers) if n not in own]


EXAMPLE_COLUMNS = 68  # a reply example, indented 4 in the 72-column text part


def fit_example(line: str) -> str:
    """A one-line answer ahead (``endorsement: south, swap …, strategy 48 59, first kennedy``)
    cut to its first parts that fit the text part: what is left out is asked later anyway."""
    parts = line.split(", ")
    while len(", ".join(parts)) > EXAMPLE_COLUMNS and len(parts) > 1:
        parts.pop()
    return ", ".join(parts)


def examples(legal: list[str], limit: int = 3) -> list[str]:
    """Up to ``limit`` commands from the legal list, one per verb, active verbs first."""
    picked: list[str] = []
    seen: set[str] = set()
    for cmd in sorted(legal, key=lambda c: c.split()[0] in _PASSIVE):
        verb = cmd.split()[0]
        if verb not in seen:
            seen.add(verb)
            picked.append(as_written(cmd))
    return picked[:limit]


def _plays_own_card(cmd: str, own: set[int]) -> bool:
    verb, _, rest = cmd.partition(" ")
    first = rest.partition(" ")[0]
    return verb in CARD_VERBS and first.isdigit() and int(first) in own


def log_since(v: Mapping[str, Any], since: int) -> list[dict[str, Any]]:
    """Log entries from index ``since`` on, grouped by turn; private ones flagged (``private``:
    the reader's own; ``was_private``: the other side's, which the view shows once the game is
    over, R17)."""
    turns: list[dict[str, Any]] = []
    me = v.get("side")
    for e in v["log"]:
        if e["i"] < since:
            continue
        if not turns or turns[-1]["turn"] != e["turn"]:
            turns.append({"turn": e["turn"], "entries": []})
        to = e["to"]
        text = explained_for(e, me)
        turns[-1]["entries"].append(
            {
                "i": e["i"],
                "text": text,
                "private": to is not None and to == me,
                "was_private": (to or "").title() if to and to != me else "",
                "why": "",
            }
        )
    return turns


def with_reasons(turns: Sequence[Any], reasons: Mapping[int, str]) -> None:
    """Give each log entry of ``turns`` (`log_since`'s, or `pbem.reports.summary.group_log`'s)
    the reason of the computer player's move that wrote it (``why``): ``reasons`` by the log
    index of the move's first public line (`pbem.games.bots`), worded for anyone to read."""
    if not reasons:
        return
    for turn in turns:
        for entry in turn["entries"]:
            why = reasons.get(entry["i"])
            if why:
                entry["why"] = why if why.endswith(".") else why + "."


_RULE_TAIL = re.compile(r" \((R\d+(?:\.\d+)?)\)(\.?)$")  # a line's closing "(R10.5)."
_BARE_RULE = re.compile(r"R\d+(?:\.\d+)?")


def explained(entry: Mapping[str, Any]) -> str:
    """A log line with its cause (the entry's ``why``) when the text does not already say it:
    after a line that names no card and no rule, in parentheses; beside the rule a line closes
    with when the cause is more than that rule and no card (``... in the South (R10.5; leads
    Economy, the 2nd issue, R10.3).``)."""
    text, why = str(entry["text"]), str(entry.get("why") or "")
    if not why or "#" in text or why in text or text.startswith(("Turn ", "End of turn")):
        return text
    if "(R" in text:
        m = _RULE_TAIL.search(text)
        if m is None or _BARE_RULE.fullmatch(why) or why.startswith("#") or m[1] in why:
            return text  # nothing more, or the card whose event line came just before
        return f"{text[: m.start()]} ({m[1]}; {why}){m[2]}"
    return f"{text[:-1]} ({why})." if text.endswith(".") else f"{text} ({why})"


_SECOND_PERSON = {"draw": "drew", "put": "put", "choose": "chose"}
_YOU = re.compile(r"^You (draw|put|choose)\b")


def explained_for(entry: Mapping[str, Any], reader: str | None) -> str:
    """`explained`, with another side's private line (shown once the game is over, R17) told
    in the third person: "You draw: …" written for Nixon reads "Nixon drew: …" to anyone else."""
    text, to = explained(entry), entry.get("to")
    if not to or to == reader:
        return text
    m = _YOU.match(text)
    if m is None:
        return text
    rest = text[m.end() :].replace(" your ", " their ")
    return f"{str(to).title()} {_SECOND_PERSON[m.group(1)]}{rest}"


def card_whereabouts(v: dict[str, Any], n: int) -> str:
    """Where card ``n`` is, as far as the reader's view tells (R17: nothing hidden)."""
    if n in v.get("hand", []):
        return "in your hand"
    if n in v.get("stack", []):
        return "on your campaign-strategy stack"
    if n in ((v.get("debate") or {}).get("hand") or []):
        return "in your debate hand"
    if any(n in cards for cards in v.get("persistent", {}).values()):
        return "on the board: its event is in force"
    if n in v.get("discard", []):
        return "in the discard pile"
    if n in v.get("removed", []):
        return "removed from the game"
    if v.get("edition") != "gmt" and engine.CARDS[n].gmt_only:
        return "not in this game: a GMT-edition card"
    return "not seen yet: in the deck, or in a hand or stack you cannot see"


def all_cards(edition: str) -> list[dict[str, Any]]:
    """Every card of the edition's deck, in number order, with its event text (help mail)."""
    return [card_row(n) for n in engine.CARDS if edition == "gmt" or not engine.CARDS[n].gmt_only]


def final_tally(result: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The result (R13.6, R14) with sides in a fixed order."""
    if not result:
        return None
    ev = result.get("electoral_votes", {})
    won = result.get("states_won", {})
    cubes = result.get("support_cubes", {})
    winner = result.get("winner")
    return {
        "winner": winner.title() if winner else "nobody",
        "rows": [
            {
                "side": s.title(),
                "ev": ev.get(s, 0),
                "states": won.get(s, 0),
                "cubes": cubes.get(s, 0),
            }
            for s in engine.SIDES
        ],
        "tie_break": result.get("tie_break"),
        "unpledged": [
            engine.STATES[s].name if s in engine.STATES else s for s in result.get("unpledged", [])
        ],
    }


def help_entries() -> list[dict[str, str]]:
    """The game's command reference, straight from the registry (`engine.VERBS`)."""
    return [
        _entry(v.name, v.args, v.help, v.example)
        for v in sorted(engine.VERBS.values(), key=lambda v: v.name)
    ]


def _meta_entries() -> list[dict[str, str]]:
    """The server's words (`pbem.server_words`), in their table's order."""
    return [_entry(w.name, w.args.split(), w.help, w.example) for w in SERVER_WORDS.values()]


def _entry(name: str, args: Sequence[str], what: str, example: str) -> dict[str, str]:
    usage = " ".join([name, *(_arg_usage(a) for a in args)])
    return {"name": name, "usage": usage, "help": what, "example": example}


_ARG_WORDS = {"preempt": "preempt", "use": "campaign|advertise|position", "side": "kennedy|nixon"}


def _arg_usage(kind: str) -> str:
    """An argument kind as the player types it: ``STATE``, ``[CARD]``, ``[preempt]``."""
    bare = kind.lstrip("?")
    word = _ARG_WORDS.get(bare, bare.upper())
    return f"[{word}]" if kind.startswith("?") else word


def build(kind: str, ctx: dict[str, Any]) -> dict[str, Any]:
    """The template model for mail ``kind``; ``ctx`` as documented in `pbem.reports.render`."""
    side = ctx["side"]
    v = ctx.get("view")
    m: dict[str, Any] = {
        "kind": kind,
        "game_id": ctx["game_id"],
        "side": side,
        "Side": side.title(),
        "Other": other(side).title(),
        "opponent": ctx.get("opponent") or "",
        "reply_to": ctx.get("reply_to") or "",
        "error": ctx.get("error"),
        "results": list(ctx.get("results") or []),
        "ignored": [str(x) for x in (ctx.get("ignored") or [])],
        "verbs": help_entries(),
        "meta_words": _meta_entries(),
        # the examples of the words answered by a mail of their own ('help', 'card 17' …)
        "answered_examples": [SERVER_WORDS[w].example for w in words_of("answered")],
        "log_title": "So far" if kind == "welcome" else "Since your last report",
        "view": None,
        # whole-action lines for the one-tap answers (`pbem.reports.onetap.shortcuts`)
        "shortcuts": [str(x) for x in (ctx.get("shortcuts") or [])],
        "answers": [],  # the one-tap answers, made with the subject (`pbem.reports.render`)
    }
    edition = ctx.get("edition") or (v or {}).get("edition") or "zman"
    m["edition"] = EDITION_LABEL.get(edition, edition)
    options = ctx.get("options")
    if options is None:
        options = (v or {}).get("options", [])
    m["options"] = [o.replace("_", " ") for o in options]
    if v is not None:
        m.update(_from_view(v, side, int(ctx.get("since") or 0)))
    if kind == "help":
        m["cards"] = all_cards(edition)
    if kind == "card":
        n = ctx.get("card")
        m["card"] = card_row(n) if n in engine.CARDS else None
        m["card_where"] = card_whereabouts(v, n) if v is not None and n in engine.CARDS else ""
        m["card_query"] = str(ctx.get("card_query") or n or "")
        m["card_matches"] = [card_row(x) for x in ctx.get("card_matches") or []]
    if kind == "game_over" and v is not None:
        m["full_log"] = log_since(v, 0)
    if kind == "history" and v is not None:
        m["history"] = log_since(v, 0)
        m["history_entries"] = sum(len(t["entries"]) for t in m["history"])
    m.update(
        ctx.get("extra") or {}
    )  # summary / orders / log_title (pbem.games.notify, pbem.reports.summary)
    reasons = ctx.get("reasons") or {}  # a computer opponent's reasons (pbem.games.bots)
    for key in ("log", "full_log", "history"):
        with_reasons(m.get(key) or [], reasons)
    with_reasons((m.get("summary") or {}).get("groups") or [], reasons)
    m.update(clock_model(m, ctx))  # clocks, a timeout or resignation, a notice (pbem.clocks)
    return m


def _from_view(v: dict[str, Any], side: str, since: int) -> dict[str, Any]:
    own = set(v.get("hand", [])) | set(v.get("stack", []))
    if v.get("debate"):
        own |= set(v["debate"].get("hand", []))
    legal = list(v.get("legal", []))
    active = [s.title() for s in v.get("active", [])]
    revealed = [
        {
            "side": r["side"].title(),
            "turn": r.get("turn"),
            "cards": [card_row(n)["label"] for n in r.get("cards", [])],
            "by": card_row(r["card"])["label"] if r.get("card") in engine.CARDS else "",
        }
        for r in v.get("revealed", [])
    ]
    return {
        "view": True,
        "turn": v["turn"],
        "phase": phase_label(v),
        "over": v.get("result") is not None,
        "my_move": side in v.get("active", []),
        "waiting_for": " and ".join(a for a in active if a != side.title()) or "nobody",
        "decision": v.get("decision", ""),
        "legal": legal,
        "legal_groups": group_legal(legal, own),
        "ahead": v.get("ahead_example", ""),
        # the decision plays a card from the hand: the hand goes right below it (HTML)
        "hand_first": any(_plays_own_card(cmd, own) for cmd in legal),
        "examples": [fit_example(v["ahead_example"]), *examples(legal, 2)]
        if v.get("ahead_example")
        else examples(legal),
        "board": board(v),
        "hand": [card_row(n, v.get("hand_cp", {}).get(str(n))) for n in v.get("hand", [])],
        "decision_cards": decision_cards(v, own),
        "stack": [card_row(n) for n in v.get("stack", [])],
        "first_ahead": str(v.get("first_ahead", "")).title(),
        "revealed": revealed,
        "log": log_since(v, since),
        "tally": final_tally(v.get("result")),
    }
