"""A computer player's decision: the command, and the reason in words a player understands.

Every player returns a `Decision`. Its ``reason`` comes from what actually decided: the
search's statistics (``won 64 % of 400 simulated games, against 51 % for 'campaign 17' ...``)
or the heuristic's scoring (``best of 12 options: about +4.5 electoral votes ...``). It reads
only what the deciding side may see (its own commands, card names, state names): the cards of
its own hand among them, so before the opponent or an observer reads it, `hide_cards` words it
without the cards they cannot see. One home for the wording: `readable`, `describe`,
`forced`, `heuristic_reason`, `search_reason`, `hide_cards`.
"""

from __future__ import annotations

import re
from collections.abc import Container, Sequence
from dataclasses import dataclass

import engine

__all__ = [
    "Decision",
    "describe",
    "forced",
    "heuristic_reason",
    "hide_cards",
    "readable",
    "search_reason",
]


@dataclass(frozen=True)
class Decision:
    """A player's command for one decision, why it was chosen, and the playouts that chose it
    (0: forced, or decided without searching)."""

    command: str
    reason: str
    playouts: int = 0


def readable(cmd: str) -> str:
    """A canonical command as a player would write it: ``issue civil_rights`` -> ``issue civil
    rights`` (which the parser reads back, `engine.parse`)."""
    return " ".join(w.replace("_", " ") if w in engine.ISSUES else w for w in cmd.split())


def describe(cmd: str) -> str:
    """A command in quotes with what its numbers and codes stand for:
    ``'campaign 17' (#17 Kennedy's Peace Corps)``, ``'check OH 2' (Ohio)``,
    ``'issue civil rights'``."""
    words = cmd.split()
    if len(words) > 1 and words[1].isdigit() and int(words[1]) in engine.CARDS:
        return f"'{cmd}' (#{words[1]} {engine.CARDS[int(words[1])].name})"
    if len(words) > 1 and words[1] in engine.STATES:
        return f"'{cmd}' ({engine.STATES[words[1]].name})"
    return f"'{readable(cmd)}'"


def forced(cmd: str) -> str:
    return f"{describe(cmd)} was the only legal move"


def _runs(cmds: Sequence[str]) -> list[str]:
    """``support NY, support NY, check OH 1`` -> ``support NY x2, check OH 1``."""
    out: list[tuple[str, int]] = []
    for c in cmds:
        if out and out[-1][0] == c:
            out[-1] = (c, out[-1][1] + 1)
        else:
            out.append((c, 1))
    return [c if n == 1 else f"{c} x{n}" for c, n in out]


def _percent(p: float) -> str:
    return f"{100 * p:.0f} %"


def search_reason(
    chosen: str,
    stats: Sequence[tuple[str, int, float]],
    playouts: int,
    heuristic_first: str,
    plan: Sequence[str] = (),
) -> str:
    """The search's reason: ``stats`` are (command, simulated games, mean result) of the root's
    commands, the search's preferred first; ``plan`` the side's own follow-up decisions it
    expects."""
    by_cmd = {c: (n, q) for c, n, q in stats}
    n, q = by_cmd.get(chosen, (0, 0.0))
    others = [(c, m, p) for c, m, p in stats if c != chosen]
    text = f"{describe(chosen)}: won {_percent(q)} of {n} simulated games"
    if others and _percent(others[0][2]) == _percent(q):  # no better as the reader sees it
        c2, m2, p2 = others[0]
        text += (
            f", as did {describe(c2)} ({_percent(p2)} of {m2}): a toss-up between the two most "
            f"promising of {len(stats)} options tried in {playouts} games"
        )
    elif others:
        c2, m2, p2 = others[0]
        text += (
            f", against {_percent(p2)} of {m2} for {describe(c2)}, "
            f"the next most promising of {len(stats)} options tried in {playouts} games"
        )
    else:
        text += f" ({playouts} in all; no other option came close enough to be tried)"
    if plan:
        text += "; then " + ", ".join(_runs([readable(c) for c in plan]))
    if heuristic_first != chosen:
        text += f" (the rules of thumb alone would have played {describe(heuristic_first)})"
    return text


# how the heuristic's score of a step reads (its units, see bots.heuristic)
_PER_POINT = frozenset({"campaign", "position"})
_POINT_STEPS = frozenset(
    {"advertise", "place_support", "debate_bonus", "remove_support", "space_points"}
)


def heuristic_reason(step: str, ranked: Sequence[tuple[float, str]]) -> str:
    """The heuristic's reason, from its scored commands (best first, scores in electoral-vote
    margin; per CP spent at the campaign and position steps)."""
    (top, chosen), rest = ranked[0], ranked[1:]
    unit = (
        "electoral votes per CP"
        if step in _PER_POINT
        else "electoral votes for this point"
        if step in _POINT_STEPS
        else "electoral votes"
    )
    if rest and f"{rest[0][0]:+.1f}" == f"{top:+.1f}":  # no better as the reader sees it
        return (
            f"{describe(chosen)}: a toss-up by the rules of thumb with {describe(rest[0][1])}, "
            f"both worth about {top:+.1f} {unit} (of {len(ranked)} options)"
        )
    text = f"{describe(chosen)}: best of {len(ranked)} options by the rules of thumb, worth about {top:+.1f} {unit}"
    if rest:
        second, cmd2 = rest[0]
        text += f", against {second:+.1f} for {describe(cmd2)}"
    return text


HIDDEN = "a hidden card"
_CARD_VERBS = sorted(
    (v for v, spec in engine.VERBS.items() if spec.args and spec.args[0].lstrip("?") == "card"),
    key=len,
    reverse=True,
)
# a command naming a card, quoted or not, with what `describe` adds: 'campaign 17 preempt' (#17 …)
_CARD_COMMAND = re.compile(
    r"(?P<q>')?\b(?P<verb>" + "|".join(_CARD_VERBS) + r") (?P<n>\d+)"
    r"(?P<rest>(?: (?:preempt|kennedy|nixon))*)(?(q)')(?: \(#(?P=n) [^)]*\))?"
)
_CARD_NAME = re.compile(r"#(?P<n>\d+)\b")
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def _nth(i: int) -> str:
    """``first`` for 0, ``second`` for 1 ...; ``9th`` beyond the words."""
    return _ORDINALS[i] if i < len(_ORDINALS) else f"{i + 1}th"


def hide_cards(text: str, shown: Container[int]) -> str:
    """``text`` (a reason, or commands) worded without the cards not in ``shown``: a command
    naming one reads ``'campaign' with a hidden card``, a ``#17 Name`` reads ``a hidden card``.
    Further hidden cards read ``a second hidden card`` and so on, and one named again ``the same
    hidden card`` (``the first hidden card`` once there are two), so options with different hidden
    cards do not read as one."""
    order: list[int] = []  # the hidden cards in the order the text names them

    def hidden(n: int) -> str:
        if n in order:
            return (
                "the same hidden card"
                if len(order) == 1
                else f"the {_nth(order.index(n))} hidden card"
            )
        order.append(n)
        return HIDDEN if len(order) == 1 else f"a {_nth(len(order) - 1)} hidden card"

    out: list[str] = []
    pos = 0
    while True:
        cmd = _CARD_COMMAND.search(text, pos)
        name = _CARD_NAME.search(text, pos)
        if cmd is not None and (name is None or cmd.start() <= name.start()):
            n = int(cmd["n"])
            if n not in engine.CARDS or n in shown:
                out.append(text[pos : cmd.end()])
            else:
                q = cmd["q"] or ""
                out.append(f"{text[pos : cmd.start()]}{q}{cmd['verb']}{q} with {hidden(n)}")
            pos = cmd.end()
        elif name is not None:
            n = int(name["n"])
            end = name.end()
            if n in engine.CARDS and n not in shown:
                label = f"#{n} {engine.CARDS[n].name}"
                end = name.start() + len(label) if text.startswith(label, name.start()) else end
                out.append(f"{text[pos : name.start()]}{hidden(n)}")
            else:
                out.append(text[pos:end])
            pos = end
        else:
            out.append(text[pos:])
            return "".join(out)
