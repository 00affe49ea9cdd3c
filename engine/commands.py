"""The command language: lenient reading, strict meaning, precise errors.

`parse(text, legal)` turns one line a person wrote into a list of canonical
commands (the same text `legal_commands` lists), or raises a
`CommandSyntaxError` / `AmbiguousCommandError`. Names are resolved against the
legal commands first, as python-chess resolves SAN against legal moves:
cards by number or unique name prefix, states by postal code or name, issues
and regions by name, all case-insensitive.

A compact form expands to steps: ``campaign 17: NY 2, PA 1`` is the card play
followed by two points in New York and one in Pennsylvania, travel costed
along the way; ``support NY 2`` spends two points in New York (a bare
``support NY`` is the one canonical point). A counted ``Spend``
is resolved against the position when it is reached: ``check ST N`` where
support checks are required (R7.4, R16.3: the whole number declared at once),
otherwise N × ``support ST``.

Two compact forms declare, before a draw, what to do with its outcome (`Declared` steps):
``advertise 17: east 2, west 1`` places the successes of the support checks in that order,
as far as they go (R8.1; successes beyond the declared points are still asked), and
``resolve 36, 58, 55`` resolves Election Day cards in that order (R13.3, R13.4), and
``endorsement: south, swap defense economy, strategy 40`` answers the 2nd-issue award and the
player's later questions of that Momentum phase (R10.3-R10.6, R11.1). A declared
step that no longer applies when it is reached is dropped, never an error: an error after the
draw would tell a player about a draw in a mail that is not applied (R17).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.data import CARDS, REGIONS, STATES
from engine.errors import AmbiguousCommandError, CommandSyntaxError
from engine.vocabulary import SYNONYMS, VERBS, Verb, verb

__all__ = ["SYNONYMS", "VERBS", "Command", "Declared", "Spend", "Verb", "parse", "verb"]


@dataclass(frozen=True)
class Spend:
    """A compact-form intent: spend ``n`` points in ``state``."""

    state: str
    n: int


@dataclass(frozen=True)
class Declared:
    """A step declared before a draw: ``command``, applied ``n`` times while it is legal in one
    of ``steps`` (the decision it was written for), otherwise dropped (see module docstring)."""

    command: str
    n: int
    steps: tuple[str, ...]


ADVERTISING = ("advertise",)  # the step of R8.1's placement
ELECTION = ("election_card", "election_event")  # the steps of R13.3 / R13.4
ENDORSE_REGION = ("endorse_region",)  # R10.5's "any region" choice
ISSUE_SWAP = ("issue_swap",)  # R10.6
STRATEGY = ("strategy",)  # R11.1
INITIATIVE = ("choose_first",)  # R5.2, the next turn's: kept until then (engine.phases.turn)

Command = str | Spend | Declared

_PUNCT = re.compile(r"[,:;()=]+")


def _norm(s: str) -> str:
    s = s.lower().replace("&", " and ").replace("’", "'").replace("pre-empt", "preempt")
    s = re.sub(r"['\".!?]", "", s)
    return re.sub(r"[^a-z0-9_#+ -]+", " ", s).replace("-", " ").strip()


_CARD_NAMES: list[tuple[str, int]] = sorted(
    {(_norm(n), c.number) for c in CARDS.values() for n in (c.name, *c.aliases)}
)
_STATE_NAMES: dict[str, str] = {
    **{_norm(i.name): a for a, i in STATES.items()},
    **{a.lower(): a for a in STATES},
}
_ISSUE_NAMES = {
    "defense": "defense",
    "defence": "defense",
    "economy": "economy",
    "civil rights": "civil_rights",
    "civil_rights": "civil_rights",
    "civilrights": "civil_rights",
}
_REGION_NAMES = {r: r for r in REGIONS} | {"mid west": "midwest"}
_SIDE_NAMES = {"kennedy": "kennedy", "jfk": "kennedy", "nixon": "nixon", "rmn": "nixon"}
_USES = ("campaign", "advertise", "position")


class _Reader:
    def __init__(self, text: str, words: list[str], legal: list[str]) -> None:
        self.text = text
        self.words = words
        self.i = 0
        self.legal = legal

    def more(self) -> bool:
        return self.i < len(self.words)

    def peek(self) -> str:
        return self.words[self.i] if self.more() else ""

    def fail(self, what: str) -> CommandSyntaxError:
        got = " ".join(self.words[self.i :]) or "nothing"
        return CommandSyntaxError(self.text, f"expected {what}, got {got!r}", legal=self.legal)

    def phrase(self, table: dict[str, str], what: str) -> str:
        for k in range(min(3, len(self.words) - self.i), 0, -1):
            key = " ".join(self.words[self.i : self.i + k])
            if key in table:
                self.i += k
                return table[key]
        raise self.fail(what)

    def number(self) -> int:
        w = self.peek().lstrip("#")
        if not w.isdigit():
            raise self.fail("a number")
        self.i += 1
        return int(w)

    def card(self) -> int:
        w = self.peek().lstrip("#")
        if w.isdigit():
            self.i += 1
            n = int(w)
            if n not in CARDS:
                raise CommandSyntaxError(self.text, f"there is no card #{n}", legal=self.legal)
            return n
        for k in range(len(self.words) - self.i, 0, -1):
            key = " ".join(self.words[self.i : self.i + k])
            found = sorted({n for name, n in _CARD_NAMES if name.startswith(key)})
            exact = sorted({n for name, n in _CARD_NAMES if name == key})
            if exact:
                found = exact
            if not found:
                continue
            if len(found) > 1:
                in_play = [n for n in found if _mentioned(n, self.legal)]
                if len(in_play) == 1:
                    found = in_play
            if len(found) > 1:
                names = ", ".join(f"#{n} {CARDS[n].name}" for n in found[:8])
                raise AmbiguousCommandError(
                    self.text, f"{key!r} could be any of: {names}", legal=self.legal
                )
            self.i += k
            return found[0]
        raise self.fail("a card number or name")


def _mentioned(card: int, legal: list[str]) -> bool:
    s = str(card)
    return any(s in c.split() for c in legal)


def parse(text: str, legal: list[str]) -> list[Command]:
    """Read one command line into canonical commands (see module docstring)."""
    words = _PUNCT.sub(" ", _norm(text)).split()
    if not words:
        raise CommandSyntaxError(text, "empty command", legal=legal)
    name = SYNONYMS.get(words[0], words[0])
    if name not in VERBS:
        raise CommandSyntaxError(text, f"unknown command word {words[0]!r}", legal=legal)
    r = _Reader(text, words, legal)
    r.i = 1
    parts = [name]
    for kind in VERBS[name].args:
        optional = kind.startswith("?")
        kind = kind.lstrip("?")
        if optional and not _starts(r, kind):
            continue
        parts.append(_read(r, kind))
    first = " ".join(parts)
    if not r.more():
        return [first]
    return _compact(r, name, first)


def _starts(r: _Reader, kind: str) -> bool:
    w = r.peek()
    if not w:
        return False
    if kind == "preempt":
        return w in ("preempt", "pre-empt", "preempting")
    if kind == "side":
        return w in _SIDE_NAMES
    if kind == "card":
        return w.lstrip("#").isdigit() or any(n.startswith(w) for n, _ in _CARD_NAMES)
    return True


def _read(r: _Reader, kind: str) -> str:
    if kind == "card":
        return str(r.card())
    if kind == "n":
        return str(r.number())
    if kind == "state":
        return r.phrase(_STATE_NAMES, "a state (postal code or name)")
    if kind == "region":
        return r.phrase(_REGION_NAMES, "a region (west, midwest, south, east)")
    if kind == "issue":
        return r.phrase(_ISSUE_NAMES, "an issue (defense, economy, civil rights)")
    if kind == "side":
        return r.phrase(_SIDE_NAMES, "a side (kennedy or nixon)")
    if kind == "use":
        return r.phrase({u: u for u in _USES}, "campaign, advertise or position")
    if kind == "preempt":
        r.i += 1
        return "preempt"
    raise ValueError(kind)


def _compact(r: _Reader, name: str, first: str) -> list[Command]:
    """Expand the trailing ``X [N], Y [N] …`` list of a compact command."""
    if name == "candidate":  # ``candidate advertise: east 3``: the candidate card's 5 CP (R6.9)
        name = first.split()[1]
    if name in ("campaign", "advertise", "position") and first != name:
        out: list[Command] = [first]
        step = {"campaign": "support", "advertise": "media", "position": "issue"}[name]
    elif name in ("support", "remove", "media", "issue"):
        out, step = [], name
        r.i = 1
    elif name == "resolve":
        return _order(r, first)
    elif name in ("momentum", "endorsement"):
        return _momentum_phase(r, first)
    elif name == "strategy":  # ``strategy 40: first nixon`` (R11.1, then R5.2 ahead)
        return [first, _first(r), *_end(r)]
    elif name == "check":
        raise r.fail("nothing more after 'check STATE N'")
    else:
        raise r.fail(f"nothing more after {first!r}")
    while r.more():
        kind = {"support": "state", "remove": "state", "media": "region", "issue": "issue"}[step]
        target = _read(r, kind)
        counted = r.more() and r.peek().isdigit()
        n = r.number() if counted else 1
        if n < 1 or n > 20:
            raise CommandSyntaxError(r.text, f"{n} is not a sensible count (1-20)", legal=r.legal)
        if step == "support" and (name == "campaign" or counted):
            out.append(Spend(target, n))
        elif name == "advertise":  # placed as far as the successes go (R8.1)
            out.append(Declared(f"media {target}", n, ADVERTISING))
        else:
            out.extend([f"{step} {target}"] * n)
    return out


def _momentum_phase(r: _Reader, first: str) -> list[Command]:
    """``endorsement: south, swap defense economy, strategy 40``: the 2nd-issue award (R10.3)
    and the player's later answers in this Momentum phase, declared before its draws: the region
    of any "any region" endorsement drawn for them (R10.5), their issue swap or ``no swap``
    (R10.6), their campaign-strategy cards (R11.1). Each applies if its question arises for
    them in this mail, in the game's order; see `engine.phases.momentum.ahead_problem`."""
    out: list[Command] = [first]
    while r.more():
        w = r.peek()
        if w == "swap":
            r.i += 1
            a, b = _read(r, "issue"), _read(r, "issue")
            out.append(Declared(f"swap {a} {b}", 1, ISSUE_SWAP))
        elif w in ("no", "decline"):
            r.i += 1
            if w == "no" and r.peek() == "swap":
                r.i += 1
            out.append(Declared("decline", 1, ISSUE_SWAP))
        elif w == "strategy":
            r.i += 1
            out.append(Declared(f"strategy {r.card()}", 1, STRATEGY))
            while r.more() and r.peek().lstrip("#").isdigit():
                out.append(Declared(f"strategy {r.card()}", 1, STRATEGY))
        elif w == "first":
            out.append(_first(r))
        elif w == "region" or w in _REGION_NAMES or w == "mid":
            r.i += w == "region"
            region = _read(r, "region")
            out.append(Declared(f"region {region}", 2, ENDORSE_REGION))  # both awards (R10.3)
        else:
            raise r.fail("a region, 'swap ISSUE ISSUE', 'no swap', 'strategy CARD' or 'first SIDE'")
    return out


def _first(r: _Reader) -> Declared:
    """``first nixon``: who goes first next turn if this player wins its initiative (R5.2),
    declared before the deal; kept until then (`engine.phases.turn.keep_first`)."""
    if r.peek() != "first":
        raise r.fail("'first kennedy' or 'first nixon' (next turn's initiative, R5.2)")
    r.i += 1
    return Declared(f"first {_read(r, 'side')}", 1, INITIATIVE)


def _end(r: _Reader) -> list[Command]:
    if r.more():
        raise r.fail("nothing more")
    return []


def _order(r: _Reader, first: str) -> list[Command]:
    """``resolve 36, 58, 55``: Election Day cards or events in this order (R13.3, R13.4).

    Every card must be one the player may resolve now, each named once: checked before the
    first draw, so a declared order is never rejected half-way.
    """
    cards = [first.split()[1]]
    while r.more():
        cards.append(str(r.card()))
    for card in cards:
        if r.legal and f"resolve {card}" not in r.legal:
            choices = ", ".join(c.split()[1] for c in r.legal if c.startswith("resolve ")) or "none"
            raise CommandSyntaxError(
                r.text,
                f"#{card} is not a card you may resolve now (R13.3, R13.4; yours: {choices})",
                legal=r.legal,
            )
    dup = next((c for c in cards if cards.count(c) > 1), None)
    if dup is not None:
        raise CommandSyntaxError(
            r.text, f"#{dup} is named twice: each card is resolved once", legal=r.legal
        )
    return [first, *(Declared(f"resolve {c}", 1, ELECTION) for c in cards[1:])]
