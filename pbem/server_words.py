"""The server's words: the one home of every word a player may write that the server answers.

The rules engine knows only the game's verbs (`engine.vocabulary`); the words here never reach
it. Each is defined once, with its arguments, help text, example and kind, in the order help
mails and docs/COMMANDS.md list them. Every list of them derives from this table by kind:

* ``answered``: answered by a mail of its own (`pbem.pipeline.answers.ANSWERED`);
* ``fair-play``: invitations and observers (`pbem.games.fairplay.handlers`);
* ``mail``: how a mail is read (``undo`` first, ``say`` table talk: `pbem.pipeline.lines`);
* ``orders``: settings and the queue (`pbem.games.orders.SETTING_WORDS`, ``then``);
* ``seat``: seats and clocks (`pbem.pipeline.seat_words.SEAT_WORDS`).

`pbem.pipeline.lines` reads a line as a command when it starts with a game verb or one of
these words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["SERVER_WORDS", "Kind", "ServerWord", "words_of"]

Kind = Literal["answered", "fair-play", "mail", "orders", "seat"]


@dataclass(frozen=True)
class ServerWord:
    """A server word: its arguments as the player types them, help text, example and kind."""

    name: str
    args: str
    help: str
    example: str
    kind: Kind


SERVER_WORDS: dict[str, ServerWord] = {}


def _word(kind: Kind, name: str, args: str, help_text: str, example: str) -> None:
    SERVER_WORDS[name] = ServerWord(name, args, help_text, example, kind)


def words_of(kind: Kind) -> tuple[str, ...]:
    """The words of one kind, in the table's order."""
    return tuple(w.name for w in SERVER_WORDS.values() if w.kind == kind)


_word(
    "answered",
    "help",
    "?card",
    "mail back the command reference and every card; with a card, that card",
    "help",
)
_word("answered", "status", "", "mail back the current report", "status")
_word(
    "fair-play",
    "accept",
    "?words",
    "accept an invitation to a game; any words after it are your entropy, "
    "mixed into the committed seed",
    "accept blue suede shoes 1960",
)
_word(
    "fair-play",
    "observe",
    "address",
    "ask someone to follow the game's public board by mail (no hands); they must "
    "confirm with the code they are sent, and both players are told",
    "observe friend@example.org",
)
_word(
    "mail",
    "undo",
    "",
    "as the first line of a mail: take back your last mail's move, while nothing "
    "was revealed since (no card or cube drawn, no opponent decision)",
    "undo",
)
_word(
    "mail",
    "say",
    "text",
    "table talk: the text (and the lines after it, up to the next command) is "
    "passed to your opponent in their next mail",
    "say Good luck!",
)
_word(
    "answered",
    "card",
    "card",
    "mail back one card: what is printed on it and its event",
    "card 17",
)
_word(
    "answered",
    "history",
    "",
    "mail back the whole game log so far (as a file when it is long)",
    "history",
)
_word(
    "orders",
    "notify",
    "decisions|every|digest [HOUR] | receipts off|on",
    "when the server mails you: only when you must decide (default), after every move, or one "
    "digest a day at HOUR (UTC); an applied mail that gets no report gets a short receipt "
    "unless you write 'notify receipts off'",
    "notify digest 18",
)
_word(
    "orders",
    "standing",
    "ORDER",
    "a standing order the server applies for you: trigger useful|ask|never|always|icon "
    "(useful, the default: ask, but decline events that can only favour your opponent), "
    "preempt never|ask, election CARD CARD ...|ask, done auto|ask, swap decline|ask, clear",
    "standing trigger ask",
)
_word(
    "orders",
    "then",
    "",
    "the lines after it are kept and applied, in order, at your next decisions (the first may"
    " share its line: 'then event 22')",
    "then",
)
_word(
    "orders",
    "cancel",
    "",
    "clear your queued orders (the lines you sent after 'then')",
    "cancel",
)
_word(
    "seat",
    "vacation",
    "DAYS|DATE|end",
    "pause the game clocks: for N days or until a date (UTC); your next game command ends it early",
    "vacation 5d",
)
_word(
    "seat",
    "resign",
    "?CODE",
    "resign the game; the server mails a code to confirm with",
    "resign",
)
_word(
    "seat",
    "address",
    "add|use|remove ADDRESS | confirm CODE",
    "add another address you may send "
    "from (confirmed from that address), or make one your mailing address",
    "address add me@example.org",
)
_word(
    "seat",
    "claim",
    "",
    "claim the win when your opponent is out of time and grace",
    "claim",
)
_word(
    "seat",
    "timezone",
    "ZONE",
    "show the times in your mails (deadlines, vacations) in your time zone; "
    "dates you write are read in it too",
    "timezone Europe/Berlin",
)
