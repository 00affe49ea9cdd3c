"""The trigger questions nobody needs: events whose effects can only favour the opponent.

R6.7: after a card played for CP, its player's opponent may spend one momentum to trigger the
event, resolved as if they had played it — but an event names whom it helps ("Nixon places up to
7 state support"), so triggering one that shows only the card player's icon gives that player the
event on top of the CP. The one thing it can win is the card itself: a triggered card leaves the
game (R6.3), so it can never come back as an event later. That is worth a momentum marker only
when the event is worth less now than it may be later; for the events listed here it never is:

- fixed gains for the card's candidate (support placed anywhere or in a region, issue cubes,
  momentum, media, an endorsement, three CP with a look at the hand, a random event draw whose
  worth does not depend on when it happens): the same now as later;
- persistent events (prevention, Debates, Election Day, R6.4): a triggered one is in force just
  as if its owner had played it, whose side it favours.

Asked as ever (the card may be worth removing): events whose effect depends on the board or the
turn — "for the rest of the turn" effects (little of the turn may be left), removals and losses
(the opponent may have little to lose now), conditions ("only if …", a card in the discard pile,
an exhausted candidate card), drawing or swapping cards (late in a turn they are discarded),
issue moves (they help whoever leads the issue), and events with a cost or a gain for both
sides. Cards with both icons help whoever resolves them and are always asked.

By default (standing order ``trigger useful``) the server declines the listed ones for the
player and says so; ``standing trigger ask`` brings every question back (`pbem.games.orders`).
"""

from __future__ import annotations

import engine

__all__ = ["ONLY_FOR_OWNER", "only_for_opponent"]

# card -> why its event, triggered, can only favour the candidate whose icon it shows
ONLY_FOR_OWNER: dict[int, str] = {
    1: "momentum, state support and a prevention event, all for Kennedy",
    6: "state support for Kennedy",
    7: "an Election Day event for Kennedy",
    18: "state support and a prevention event for Nixon",
    33: "an Election Day event for Nixon",
    34: "a debate event for Kennedy",
    35: "a debate event for Kennedy",
    36: "an endorsement for Kennedy",
    38: "Kennedy events drawn at random, as likely now as later",
    41: "issue support for Kennedy",
    43: "state support for Kennedy",
    45: "state, issue and media support for Nixon",
    49: "state support for Kennedy",
    50: "state support for Nixon",
    51: "issue support for Kennedy",
    56: "Kennedy's hand shown to Nixon and 3 CP for Nixon",
    59: "state support for Kennedy",
    71: "state support for Nixon",
    75: "media support for Nixon",
    77: "state support for Kennedy",
    86: "issue support for Nixon",
    89: "momentum for Nixon",
    90: "an Election Day event for Nixon",
}


def only_for_opponent(card: int, side: str) -> str | None:
    """Why triggering ``card`` can only favour ``side``'s opponent (None: it may be worth it)."""
    why = ONLY_FOR_OWNER.get(card)
    if why is None or engine.card_info(card)["icon"] in (side, "both"):
        return None
    return why
