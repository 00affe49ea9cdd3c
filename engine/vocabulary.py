"""The command vocabulary: the one home of the game's words, those the rules engine parses.

Game verbs (with their argument kinds, help text and example) and their synonyms are defined
here and nowhere else. The parser (`engine.commands`), the mail server's line classifier, help
mails and reports derive from these tables. The words a server answers itself (``help``,
``vacation`` …) are no part of the game: they live in the server. Rule numbers (R1-R17) refer
to the rules reference.
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
    "campaign-strategy cards (R11.1) and, with them, who goes first next turn if you win its "
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


def command_words() -> frozenset[str]:
    """Every word that may start a game command: the verbs and their synonyms."""
    return frozenset(VERBS) | frozenset(SYNONYMS)


def canonical_word(word: str) -> str:
    """The verb that *word* (lower case) stands for, or *word* itself."""
    return SYNONYMS.get(word, word)
