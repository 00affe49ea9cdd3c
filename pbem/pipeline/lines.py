"""Which lines of a reply are commands: the one place the mail meets the words players write.

`pbem.mail.extract.reply_text` gives the writer's own lines (quotes, attributions, headers and
signatures removed). Here each line is either a **command attempt** or **prose**:

* a command attempt starts with a command word (the game's verbs and synonyms,
  `engine.vocabulary`, and the server's words, `pbem.server_words`), or is a card number or
  card name, or a state (``OH 2``, ``Ohio``), or starts with a word within a small edit
  distance of a command word (``suport``, ``campain``, ``evnt``, ``vacaton``);
* everything else is prose: ignored, and listed back to the player.

A command attempt that cannot be read (a misspelt verb, a bare card or state) is *unreadable*:
the pipeline rejects the whole mail with "did you mean" suggestions (README: all or nothing).
Lines after ``say …`` up to the next command are table talk for the opponent.

Two guards keep the server's own words from coming back as orders: below the first quoted line
or attribution, a line that equals a line of a report sent to this seat is never a command when
its run of own lines (`ReplyText.blocks`) also carries the report's prose — history a client
pasted without ``>`` (`SentReports`); a player's own ``first kennedy``, typed below or between
quoted lines, stands alone and is read. And the report marker (or the first line of any sent
report) starts the quoted history wherever it appears (`SentReports.starts_history`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache

import engine
from engine.vocabulary import AHEAD_VERBS, VERBS, canonical_word, command_words
from pbem.mail.extract import ReplyText, normalise_line, reply_text
from pbem.server_words import SERVER_WORDS

__all__ = [
    "MARKER",
    "ReadReply",
    "SentReports",
    "Unreadable",
    "classify_word",
    "did_you_mean",
    "read_reply",
    "read_text",
    "sendable",
    "suggest",
]

MARKER = re.compile(r"reply above this line|1960-ref:?\s*[0-9a-z]{6,}", re.IGNORECASE)
MAX_IGNORED = 20
MAX_LINE_LEN = 300  # a longer line is prose, listed back cut short
PROSE_AFTER_WORDS = 10  # a longer line is prose even if it starts with a verb ("Pass the …")
_BULLET = re.compile(r"^(?:[-*•·]|\d{1,2}[.)])\s+")
_WORD = re.compile(r"[#\w'-]+", re.UNICODE)
_CARD_NUMBER = re.compile(r"^#?(\d{1,3})$")
_PLAIN_WORDS = frozenset(
    {  # English words one edit from a verb: prose, not typos
        "even",
        "ever",
        "events",
        "states",
        "issues",
        "sides",
        "stated",
        "passed",
        "checks",
        "done.",
        "orders",
        "regions",
        "takes",
        "taken",
        "swaps",
        "first,",
        "side,",
        "medias",
        "sure",
        "dome",
        "gone",
        "none",
        "note",
        "more",
        "take,",
        "save",
        "same",
        "some",
        "time",
    }
)


@dataclass(frozen=True)
class Unreadable:
    """A command attempt that cannot be read, with what the player probably meant."""

    line: str
    reason: str
    suggestions: tuple[str, ...] = ()


@dataclass
class ReadReply:
    """What a reply says: ``commands`` (game and meta lines, in order), ``unreadable`` command
    attempts, ``talk`` (table talk for the opponent), ``ignored`` prose, and ``undo`` when the
    mail's first line asks to take back the last move."""

    commands: list[str] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    talk: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    undo: bool = False
    truncated: int = 0  # command lines beyond the cap


def _key(line: str) -> str:
    return " ".join(normalise_line(line).split()).lower()


@lru_cache(maxsize=2048)  # a report's text never changes; each mail reads the latest 60 again
def _report_keys(text: str) -> tuple[str, ...]:
    """`_key` of each line of *text* (those longer than one character)."""
    return tuple(k for k in map(_key, text.splitlines()) if len(k) > 1)


class SentReports:
    """The text of the reports sent to one seat: their lines, and their first lines."""

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self.lines: set[str] = set()
        self.first_lines: set[str] = set()
        for text in texts:
            rows = _report_keys(text)
            self.lines.update(rows)
            if rows:
                self.first_lines.add(rows[0])

    def starts_history(self, line: str) -> bool:
        """The marker line, or the first line of a sent report: the quoted history starts."""
        return bool(MARKER.search(line)) or _key(line.lstrip("> ")) in self.first_lines

    def is_report_line(self, line: str) -> bool:
        return _key(line) in self.lines


@cache
def _vocabulary() -> frozenset[str]:
    """Every word that starts a command line: the game's and the server's."""
    return command_words() | frozenset(SERVER_WORDS)


@cache
def _verb_words() -> tuple[str, ...]:
    return tuple(sorted(_vocabulary()))


@cache
def _card_names() -> dict[str, int]:
    names: dict[str, int] = {}
    for card in engine.CARDS.values():
        for name in (card.name, *card.aliases):
            names[_fold(name)] = card.number
    return names


@cache
def _state_names() -> dict[str, str]:
    names = {_fold(info.name): abbr for abbr, info in engine.STATES.items()}
    names.update({abbr.lower(): abbr for abbr in engine.STATES})
    return names


@cache
def _other_names() -> dict[str, str]:
    """Issues and regions by name (for "did you mean")."""
    names = {r: r for r in engine.REGIONS}
    names.update({i.replace("_", " "): i.replace("_", " ") for i in engine.ISSUES})
    names["defence"] = "defense"
    return names


def _fold(text: str) -> str:
    return " ".join(re.sub(r"[^\w#' ]+", " ", text.lower().replace("’", "'")).split())


def classify_word(word: str) -> str:
    """``command`` (a command word), ``typo`` (close to one) or ``prose``."""
    w = word.lower().rstrip(":,.!")
    if w in _vocabulary():
        return "command"
    if (
        len(w) >= 4
        and w not in _PLAIN_WORDS
        and word.lower() not in _PLAIN_WORDS
        and (difflib.get_close_matches(w, _verb_words(), n=1, cutoff=0.8))
    ):
        return "typo"
    return "prose"


def _state_attempt(words: list[str], original: str) -> bool:
    """``OH 2``, ``NY, PA``, ``Ohio``: a short line naming states (postal codes in capitals)."""
    if not words or len(words) > 5:
        return False
    names = _state_names()
    first_raw = original.split()[0].rstrip(",:")
    code = len(first_raw) == 2 and first_raw.isupper() and first_raw.lower() in names
    full = any(" ".join(words[:k]) in names and len(words[0]) > 2 for k in (1, 2, 3))
    if not (code or full):
        return False
    return all(
        w.isdigit()
        or w in names
        or w.upper() in engine.STATES
        or w
        in (
            "new",
            "north",
            "south",
            "west",
            "rhode",
            "island",
            "york",
            "jersey",
            "hampshire",
            "mexico",
            "carolina",
            "dakota",
            "virginia",
        )
        for w in words
    )


def _card_attempt(words: list[str]) -> bool:
    """``22``, ``#22``, ``Gaffe``: a line that is a card number or a card's full name."""
    if not words:
        return False
    if _CARD_NUMBER.match(words[0]) and len(words) <= 3:
        return True
    line = " ".join(words)
    return any(
        line == name or line.startswith(name + " ") for name in _card_names() if len(name) >= 5
    )


def read_reply(
    reply: ReplyText,
    sent: SentReports | None = None,
    *,
    max_lines: int = 40,
) -> ReadReply:
    """Sort the writer's own lines into commands, unreadable attempts, talk and prose."""
    sent = sent or SentReports()
    out = ReadReply()
    leaked = _blocks_with_report_prose(reply, sent)
    talking = False
    first_line = True
    for n, raw in enumerate(reply.lines):
        if not raw:
            continue
        line = " ".join(_BULLET.sub("", raw).split())
        if len(line) > MAX_LINE_LEN:
            out.ignored.append(line[:MAX_LINE_LEN] + "…")
            continue
        words = _WORD.findall(line.lower())
        if not words:
            out.ignored.append(line)
            continue
        first = words[0].rstrip(":,.!")
        if first == "say":
            talking = True
            rest = line.split(maxsplit=1)[1] if len(line.split()) > 1 else ""
            if rest:
                out.talk.append(rest)
            first_line = False
            continue
        report_line = (
            n >= reply.above_quote and reply.block_of(n) in leaked and sent.is_report_line(line)
        )
        kind = _kind(line, words, report_line)
        queued = _after_then(line, words, report_line)
        if queued is not None:  # "then campaign 13: MA 3": 'then', and the line it queues
            kind = "command"
            if len(out.commands) < max_lines:
                out.commands.append("then")
            line = queued
        if kind == "prose":
            (out.talk if talking else out.ignored).append(line)
        elif kind == "undo":
            if first_line:
                out.undo = True
            else:
                out.unreadable.append(
                    Unreadable(line, "'undo' must be the first line of a mail, alone")
                )
            talking = False
        elif kind == "command":
            talking = False
            if len(out.commands) < max_lines:
                out.commands.append(line)
            else:
                out.truncated += 1
        else:
            talking = False
            out.unreadable.append(_unreadable(line, words))
        first_line = False
    out.ignored = out.ignored[:MAX_IGNORED]
    return out


def _blocks_with_report_prose(reply: ReplyText, sent: SentReports) -> set[int]:
    """Runs of own lines below the quote that hold a sent report's prose (not a command line):
    report text that came back unquoted."""
    leaked: set[int] = set()
    for n, raw in enumerate(reply.lines[reply.above_quote :], start=reply.above_quote):
        line = " ".join(_BULLET.sub("", raw).split())
        if not line or not sent.is_report_line(line):
            continue
        words = _WORD.findall(line.lower())
        if not words or _kind(line, words, False) not in ("command", "undo"):
            leaked.add(reply.block_of(n))
    return leaked


def own_text(text: str, sent: SentReports | None = None) -> ReplyText:
    """The writer's own lines of a reply body (`pbem.mail.extract.reply_text`): the lines of
    the reports sent mark the history, and no line that reads as a command is cut as a
    sign-off."""
    history = sent.starts_history if sent is not None else None
    return reply_text(text, history_starts=history, keep=reads_as_command)


def reads_as_command(line: str) -> bool:
    """*line* reads as a command, or an attempt at one (never as prose)."""
    line = " ".join(_BULLET.sub("", line).split())
    words = _WORD.findall(line.lower())
    return bool(words) and _kind(line, words, report_line=False) != "prose"


def read_text(text: str, sent: SentReports | None = None) -> ReadReply:
    """`read_reply` of the own lines of a whole reply body *text*."""
    sent = sent or SentReports()
    return read_reply(own_text(text, sent), sent)


def _kind(line: str, words: list[str], report_line: bool) -> str:
    if report_line:
        return "prose"  # the server's own words, below the quote: never a command
    first_raw = line.split()[0]
    word = classify_word(first_raw)
    if word == "command":
        canonical = canonical_word(words[0].rstrip(":,.!"))
        if canonical == "undo":
            return "undo"
        if canonical in AHEAD_VERBS and first_raw.endswith(":") and len(words) <= 14:
            return "command"  # "endorsement: south, swap defense economy, strategy 40"
        if len(words) > PROSE_AFTER_WORDS or first_raw.endswith(",") or line.endswith("?"):
            return "prose"  # "First, thanks for the game", "pass on Tuesday?"
        if _takes_nothing(canonical) and len(words) > 2:
            return "prose"  # "No worries, see you", "Done for today, bye"
        return "command"
    if len(words) > PROSE_AFTER_WORDS:
        return "prose"
    if word == "typo" or _card_attempt(words) or _state_attempt(words, line):
        return "attempt"
    return "prose"


def _after_then(line: str, words: list[str], report_line: bool) -> str | None:
    """The game command a 'then' leads on the same line ("then event 22"), else None: such a
    line reads as 'then' alone on its line and the command on the next."""
    if report_line or len(words) < 2 or words[0].rstrip(":,.!") != "then":
        return None
    rest = line.split(maxsplit=1)[1].lstrip(":,. ")
    rest_words = _WORD.findall(rest.lower())
    if not rest_words or canonical_word(rest_words[0].rstrip(":,.!")) not in VERBS:
        return None
    return rest if _kind(rest, rest_words, False) == "command" else None


def _takes_nothing(word: str) -> bool:
    verb = VERBS.get(word)
    server_word = SERVER_WORDS.get(word)
    if verb is not None:
        return not verb.args
    return server_word is not None and not server_word.args


def _unreadable(line: str, words: list[str]) -> Unreadable:
    first = words[0].lstrip("#")
    if _CARD_NUMBER.match(words[0]) or (first and _card_attempt(words)):
        return Unreadable(
            line, "a card alone is not a command: say what to do with it", _card_commands(words)
        )
    if _state_attempt(words, line):
        rest = " ".join(line.split())
        return Unreadable(
            line,
            "a state alone is not a command: say what to do there",
            (f"support {rest}", f"campaign N: {rest}"),
        )
    verb = difflib.get_close_matches(first, _verb_words(), n=3, cutoff=0.6)
    tail = line.split(maxsplit=1)[1] if len(line.split()) > 1 else ""
    fixed = tuple(" ".join(p for p in (canonical_word(v), tail) if p) for v in verb)
    return Unreadable(line, f"unknown command word {words[0]!r}", fixed)


def _card_commands(words: list[str]) -> tuple[str, ...]:
    m = _CARD_NUMBER.match(words[0])
    card = m.group(1) if m else str(_card_names().get(" ".join(words), ""))
    return tuple(f"{verb} {card}" for verb in ("event", "campaign", "advertise", "position"))


def did_you_mean(line: str, legal: list[str]) -> list[str]:
    """Legal commands close to *line*: misspelt verbs, states, issues, regions, card names;
    for a line that is only illegal, the legal commands naming what it names (its state, card
    or issue), before any spelt alike."""
    words = line.replace(",", " , ").replace(":", " : ").split()
    if not words:
        return []
    options: list[list[str]] = []
    for i, word in enumerate(words):
        low = word.lower()
        choices = [word]
        if i == 0 and low not in _vocabulary():
            choices = [
                canonical_word(v)
                for v in difflib.get_close_matches(low, _verb_words(), n=2, cutoff=0.6)
            ] or choices
        elif (
            i > 0
            and low not in (",", ":")
            and not low.lstrip("#").isdigit()
            and (low not in _state_names() and low not in _other_names())
        ):
            close = difflib.get_close_matches(
                low, [*_state_names(), *_other_names()], n=2, cutoff=0.75
            )
            choices = [_state_names().get(c, c) for c in close] or choices
        options.append(choices)
    found: list[str] = []
    legal_keys = {c.lower(): c for c in legal}
    for combo in _combinations(options):
        text = " ".join(combo).replace(" , ", ", ").replace(" : ", ": ").replace(" ,", ",")
        if text.lower() != line.lower() and _readable(text, legal):
            found.append(legal_keys.get(text.lower(), text))
    if not found and words[0].lower() in _vocabulary():
        # a known verb, only illegal: keep what the line names ('support NY' -> 'check NY 1')
        named = {w.lower() for w in words[1:] if w not in (",", ":")}
        found = [c for c in legal if named and named <= {w.lower() for w in c.split()[1:]}]
    if not found:
        found = difflib.get_close_matches(line, legal, n=3, cutoff=0.6)
    return list(dict.fromkeys(found))[:3]


def suggest(bad: Unreadable, legal: list[str]) -> list[str]:
    """What to offer for an unreadable line: legal commands close to it; else its own
    suggestions that are commands at all, those of a verb legal now first."""
    found = did_you_mean(bad.line, legal)
    if found:
        return found
    card = next(
        (c.split()[1] for c in legal if c.startswith("campaign ") and c.split()[1].isdigit()), ""
    )
    offers = [s.replace("campaign N:", f"campaign {card}:") if card else s for s in bad.suggestions]
    offers = [s for s in dict.fromkeys(offers) if sendable(s)]
    verbs = {c.split()[0] for c in legal}
    now = [s for s in offers if s.split()[0] in verbs]
    return (now or offers)[:3]


def sendable(text: str) -> bool:
    """*text* is a command at all: it parses, or it is a server word with fitting arguments
    (a "did you mean" never offers 'status 38' or 'state 27')."""
    try:
        engine.parse(text, [])
        return True
    except engine.CommandError:
        pass
    word, _, arg = text.partition(" ")
    server_word = SERVER_WORDS.get(word.lower())
    return server_word is not None and (bool(server_word.args) or not arg.strip())


def _combinations(options: list[list[str]], limit: int = 16) -> list[list[str]]:
    combos: list[list[str]] = [[]]
    for choices in options:
        combos = [[*c, w] for c in combos for w in choices][:limit]
    return combos


def _readable(text: str, legal: list[str]) -> bool:
    """*text* parses, and its first step is legal now (when anything is)."""
    try:
        steps = engine.parse(text, legal)
    except engine.CommandError:
        return False
    return not legal or not isinstance(steps[0], str) or steps[0] in legal
