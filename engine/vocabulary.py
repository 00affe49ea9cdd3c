"""The command vocabulary: the one home of every word a player may write.

Game verbs (with their argument kinds, help text and example), their synonyms, and the
server's meta words (``help``, ``status`` …) are defined here and nowhere else. The parser
(`engine.commands`), the mail pipeline's line classifier, help mails and reports all derive
from these tables. Rule numbers (R1-R17) refer to the rules reference.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Verb:
    """One command word: its argument kinds (``?`` = optional) and help text."""

    name: str
    args: tuple[str, ...]
    help: str
    example: str


VERBS: dict[str, Verb] = {}
SYNONYMS: dict[str, str] = {
    "ad": "advertise",
    "advertising": "advertise",
    "camp": "campaign",
    "pos": "position",
    "positioning": "position",
    "end": "done",
    "finish": "done",
    "stop": "done",
    "place": "support",
    "endorse": "endorsement",
    "play": "event",
    "pre-empt": "preempt",
    "no": "decline",
}


def verb(name: str, args: str, help_text: str, example: str) -> None:
    """Register a command word (card modules may add their own)."""
    VERBS[name] = Verb(name, tuple(args.split()), help_text, example)


verb("first", "side", "choose who goes first (initiative, R5.2; debates, R12.1)", "first nixon")
verb("event", "card", "play a card from your hand as its event (R6.3)", "event 22")
verb(
    "campaign",
    "?card ?preempt",
    "play a card for CP to campaign in states (R7)",
    "campaign 17: NY 2, PA 1",
)
verb(
    "advertise",
    "?card ?preempt",
    "play a card for CP to advertise in regions (R8); the points written after it are where your successes go, in that order, as far as they go (declared before the draw)",
    "advertise 17: east 2, west 1",
)
verb(
    "position",
    "?card ?preempt",
    "play a card for CP to position on issues (R9)",
    "position 17: defense 2",
)
verb("candidate", "use", "play your candidate card for 5 CP (R6.9)", "candidate campaign")
verb(
    "vp",
    "card",
    "discard a card with only your icon and play your Vice President card (R15.1)",
    "vp 24",
)
verb("pass", "", "nothing to play: pass the action", "pass")
verb(
    "support",
    "state",
    "add one state support point (campaign, event or debate bonus)",
    "support OH",
)
verb(
    "check", "state n", "declare N support checks in a state where R7.4 requires them", "check TX 2"
)
verb(
    "travel",
    "state",
    "move your token to a state in another region, paying borders (R7.3)",
    "travel PA",
)
verb("done", "", "end the current step, leaving what is left unspent", "done")
verb("media", "region", "place one media point in a region (R8.1)", "media east")
verb("issue", "issue", "buy one point of issue support (R9.1)", "issue civil rights")
verb("trigger", "", "spend 1 momentum to trigger the opponent's card event (R6.7)", "trigger")
verb("decline", "", "decline a trigger or an issue swap", "decline")
verb(
    "momentum",
    "",
    "take momentum as the 2nd-issue award (R10.3); after a colon, your later answers of the "
    "Momentum phase, as for 'endorsement'",
    "momentum: no swap, strategy 40",
)
verb(
    "endorsement",
    "",
    "take an endorsement as the 2nd-issue award (R10.3); after a colon, your later answers of "
    "the phase, declared before its draws and applied if they arise in this mail: the region of "
    "an 'any region' endorsement (R10.5), your issue swap or 'no swap' (R10.6), your "
    "campaign-strategy card(s) (R11.1) and, with them, who goes first next turn if you win its "
    "initiative (R5.2)",
    "endorsement: south, no swap, strategy 40, first nixon",
)
# verbs whose line may go on after a colon with the player's later answers, declared before the
# draws (``endorsement: south, swap defense economy, strategy 40``, engine.commands)
AHEAD_VERBS = ("momentum", "endorsement")
verb("region", "region", "choose the region of an 'any region' endorsement (R10.5)", "region south")
verb("swap", "issue issue", "swap two adjacent issues (R10.6)", "swap defense economy")
verb(
    "strategy",
    "card",
    "put a card on your campaign-strategy stack (R11.1); on your last card, after a colon, who "
    "goes first next turn if you win its initiative (R5.2), kept until the deal",
    "strategy 40: first nixon",
)
verb(
    "debate",
    "card ?side",
    "choose your debate card; a two-icon card names its side (R12.4)",
    "debate 23 kennedy",
)
verb("side", "side", "put your revealed two-icon debate card on this side (R12.4)", "side kennedy")
verb(
    "resolve",
    "card",
    "resolve an Election Day card or event next (R13.3, R13.4); several cards declare your whole order before the first draw",
    "resolve 36, 58, 55",
)
verb(
    "order",
    "issue issue issue",
    "put the three issues in this order, 1st to 3rd",
    "order economy defense civil rights",
)
verb(
    "discard",
    "card",
    "throw away a card from your hand (an event lets you replace it)",
    "discard 12",
)
verb("take", "card", "take a card (from the discard pile, as an event allows)", "take 42")
verb("state", "state", "choose a state, as an event asks", "state OH")
verb(
    "remove",
    "state",
    "remove one opposing (or your own, if the event says so) state support",
    "remove AL",
)


@dataclass(frozen=True)
class MetaWord:
    """A server word: answered by the server, never sent to the rules engine."""

    name: str
    args: str
    help: str
    example: str


META_WORDS: dict[str, MetaWord] = {}


def meta(name: str, args: str, help_text: str, example: str) -> None:
    """Register a server (meta) word."""
    META_WORDS[name] = MetaWord(name, args, help_text, example)


meta(
    "help",
    "?card",
    "mail back the command reference and every card; with a card, that card",
    "help",
)
meta("status", "", "mail back the current report", "status")
meta(
    "accept",
    "?words",
    "accept an invitation to a game; any words after it are your entropy, "
    "mixed into the committed seed",
    "accept blue suede shoes 1960",
)
meta(
    "observe",
    "address",
    "let someone follow the game's public board by mail (no hands)",
    "observe friend@example.org",
)
meta(
    "undo",
    "",
    "as the first line of a mail: take back your last mail's move, while nothing "
    "was revealed since (no card or cube drawn, no opponent decision)",
    "undo",
)
meta(
    "say",
    "text",
    "table talk: the text (and the lines after it, up to the next command) is "
    "passed to your opponent in their next mail",
    "say Good luck!",
)
meta("card", "card", "mail back one card: what is printed on it and its event", "card 17")
meta("history", "", "mail back the whole game log so far (as a file when it is long)", "history")
meta(
    "notify",
    "decisions|every|digest [HOUR]",
    "when the server mails you: only when you must decide (default), after every move, or one "
    "digest a day at HOUR (UTC)",
    "notify digest 18",
)
meta(
    "standing",
    "ORDER",
    "a standing order the server applies for you: trigger never|ask|always|icon, preempt "
    "never|ask, election CARD CARD ...|ask, done auto|ask, swap decline|ask, clear",
    "standing trigger never",
)
meta(
    "then", "", "the lines after it are kept and applied, in order, at your next decisions", "then"
)
meta("cancel", "", "clear your queued orders (the lines you sent after 'then')", "cancel")
# clocks and seats (pbem.clocks): answered by the server, never sent to the rules engine
meta(
    "vacation",
    "DAYS|DATE|end",
    "pause the game clocks: for N days or until a date (UTC); your next game command ends it early",
    "vacation 5d",
)
meta("resign", "?CODE", "resign the game; the server mails a code to confirm with", "resign")
meta(
    "address",
    "add|use|remove ADDRESS | confirm CODE",
    "add another address you may send "
    "from (confirmed from that address), or make one your mailing address",
    "address add me@example.org",
)
meta("claim", "", "claim the win when your opponent is out of time and grace", "claim")
meta(
    "timezone",
    "ZONE",
    "show the times in your mails (deadlines, vacations) in your time zone; "
    "dates you write are read in it too",
    "timezone Europe/Berlin",
)


def command_words() -> frozenset[str]:
    """Every word that may start a command line: verbs, synonyms and meta words."""
    return frozenset(VERBS) | frozenset(SYNONYMS) | frozenset(META_WORDS)


def canonical_word(word: str) -> str:
    """The verb or meta word that *word* (lower case) stands for, or *word* itself."""
    return SYNONYMS.get(word, word)
