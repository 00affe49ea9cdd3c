"""Board primitives and rule predicates: support by R1.4, the bag (R3), leaders,
carrying and support checks (R1.5, R7.4), momentum, and the rule numbers every phase
shares (hand sizes R5.1, trigger and preempt costs R6.7/R6.8, strategy cards R11.1,
the debate and election turns R4.2). Nothing else writes these numbers.

Every change to support goes through `gain`, which applies R1.4 (each point
first removes one opposing cube). Every draw from the bag goes through
`draw_cube`, which refills per R3.4 / R16.1 unless Election Day has begun.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from engine import rng
from engine.data import (
    CARDS,
    REGIONS,
    STATES,
    STATES_BY_REGION,
    counted,
    issue_name,
    other,
    sign,
)
from engine.effects import may_redraw
from engine.state import GameState, log

Track = Literal["states", "media", "issues", "endorsements"]
"""The four kinds of space that hold signed support (R1.4)."""

# -- the numbers of the rules ---------------------------------------------------------------

DEBATE_TURN = 6  # R4.2
ELECTION_TURN = 9  # R4.2
INITIATIVE_TURNS = frozenset({1, 2, 3, 4, 5, 7, 8})  # turns that start with R5.2's check
TRIGGER_COST = 1  # R6.7: momentum to trigger the opponent's event
PREEMPT_COST = 2  # R6.8: momentum to preempt one's own event


def early(turn: int) -> bool:
    """Turns 1-5 (before the debates), with smaller hands and stacks (R5.1, R11.1)."""
    return turn < DEBATE_TURN


def hand_size(turn: int) -> int:
    """R5.1: 6 cards in turns 1-5, 7 in turns 7-8."""
    return 6 if early(turn) else 7


def strategy_cards(turn: int) -> int:
    """R11.1: one card onto the campaign-strategy stack in turns 1-5, two in turns 7-8."""
    return 1 if early(turn) else 2


# -- support ---------------------------------------------------------------------------------


def track(g: GameState, space: Track) -> dict[str, int]:
    """The signed support of every space of one kind (``g[space]``)."""
    return g[space]


def gain(g: GameState, space: Track, key: str, side: str, n: int = 1) -> None:
    """``side`` gains ``n`` points in ``g[space][key]`` by R1.4 (signed counts)."""
    g[space][key] += sign(side) * n


def lose_logged(g: GameState, space: Track, key: str, side: str, n: int) -> int:
    """`lose`, and the log line saying how many went (R6.6): the one wording of an event's loss."""
    k = lose(g, space, key, side, n)
    where = f"on {issue_name(key)}" if space == "issues" else f"in {STATES[key].name}"
    if k == 0:
        log(g, f"{side.title()} has no support {where} to lose (R6.6).")
    elif k < n:
        log(g, f"{side.title()} loses {k} support {where}, all there was (R6.6).")
    else:
        log(g, f"{side.title()} loses {k} support {where} (R6.6).")
    return k


def lose(g: GameState, space: Track, key: str, side: str, n: int) -> int:
    """``side`` loses up to ``n`` of its own cubes there (R6.6); returns how many."""
    have = cubes_of(g[space][key], side)
    k = min(n, have)
    g[space][key] -= sign(side) * k
    return k


def cubes_of(value: int, side: str) -> int:
    """How many cubes ``side`` has in a space holding signed ``value``."""
    v = value * sign(side)
    return v if v > 0 else 0


def owner(value: int) -> str | None:
    """The side with cubes in a space, or ``None`` (R1.5)."""
    if value > 0:
        return "kennedy"
    if value < 0:
        return "nixon"
    return None


def leads(g: GameState, st: str, side: str) -> bool:
    """R1.5: at least one cube."""
    return cubes_of(g["states"][st], side) >= 1


CARRY = 4  # R1.5: a side with this many cubes or more in a state carries it


def carries(g: GameState, st: str, side: str) -> bool:
    """R1.5: four or more cubes."""
    return cubes_of(g["states"][st], side) >= CARRY


def occupies(g: GameState, st: str, side: str) -> bool:
    """The side's candidate token stands in the state (R7.4)."""
    return bool(g["token"][side] == st)


def checks_required(g: GameState, side: str, st: str) -> bool:
    """R7.4 / R16.3: support for ``side`` in ``st`` is drawn, not placed.

    The opponent carries or occupies the state and ``side`` has no media support in its
    region. Campaigning also consults the effects in force (`engine.phases.cp.needs_check`).
    """
    return checks_rule(g, side)(st)


def checks_rule(g: GameState, side: str) -> Callable[[str], bool]:
    """`checks_required` for ``side`` in this position, as a predicate of the state: the rule's
    one writing, its inputs read once (a legal-command listing asks it of every state)."""
    opp_sign, own_sign = sign(other(side)), sign(side)
    support, media, opp_token = g["states"], g["media"], g["token"][other(side)]

    def required(st: str) -> bool:
        if support[st] * opp_sign < CARRY and opp_token != st:  # neither carries nor occupies
            return False
        return media[STATES[st].region] * own_sign <= 0  # no media support of its own there

    return required


def issue_leader(g: GameState, issue: str) -> str | None:
    """R1.5: the side with cubes on the issue tile."""
    return owner(g["issues"][issue])


def region_states(region: str) -> tuple[str, ...]:
    return STATES_BY_REGION[region]


def media_total(g: GameState, side: str) -> int:
    return sum(cubes_of(g["media"][r], side) for r in REGIONS)


def has_media(g: GameState, side: str, region: str) -> bool:
    return cubes_of(g["media"][region], side) > 0


def move_issue_up(g: GameState, issue: str, n: int) -> None:
    """Move an issue tile ``n`` places toward the top of the track."""
    order: list[str] = g["issue_order"]
    i = order.index(issue)
    j = max(0, i - n)
    order.pop(i)
    order.insert(j, issue)
    place = ("1st", "2nd", "3rd")[j]
    if j == i:
        log(g, f"{issue_name(issue)} is already {place} on the issue track.")
    else:
        log(g, f"{issue_name(issue)} moves up to {place} place on the issue track.")


# -- momentum ------------------------------------------------------------------------------


def gain_momentum(g: GameState, side: str, n: int = 1) -> None:
    g["momentum"][side] += n
    log(g, f"{side.title()} gains {n} momentum and now has {g['momentum'][side]}.")


def lose_momentum(g: GameState, side: str, n: int = 1) -> int:
    """Lose up to ``n`` momentum markers (never below zero); returns how many."""
    k: int = min(n, g["momentum"][side])
    g["momentum"][side] -= k
    if k:
        log(g, f"{side.title()} loses {k} momentum and now has {g['momentum'][side]}.")
    return k


# -- the bag (R3) ------------------------------------------------------------------------------


def refill_if_empty(g: GameState) -> None:
    """R3.4 / R16.1: an empty bag is refilled, unless R13.3 has begun."""
    if g["bag"]["kennedy"] + g["bag"]["nixon"] == 0 and not g["no_refill"]:
        n = g["bag_size"]
        g["bag"] = {"kennedy": n, "nixon": n}
        log(g, f"The bag is empty and is refilled with {n} cubes of each colour (R3.4).")


def draw_cube(g: GameState) -> str | None:
    """Draw one cube; ``None`` if the bag is empty and may not be refilled (R3.4)."""
    bag = g["bag"]
    k, n = bag["kennedy"], bag["nixon"]
    if k + n == 0:
        refill_if_empty(g)
        bag = g["bag"]
        k, n = bag["kennedy"], bag["nixon"]
        if k + n == 0:
            return None
    colour = "kennedy" if rng.below(g["rng"], k + n) < k else "nixon"
    bag[colour] -= 1
    return colour


def support_checks(g: GameState, side: str, n: int, purpose: str) -> int:
    """Make ``n`` support checks (R3.1, R3.2); returns the number of successes.

    A rest-of-turn effect may let the side redraw a failed check once (#31).
    """
    wins = 0
    draws: list[str] = []
    empty = False  # from R13.3 on, a check on an empty bag fails, and so does every one after
    for _ in range(n):
        cube = draw_cube(g)
        if cube is not None and cube != side and g["effects"] and may_redraw(g, side):
            draws.append(f"{cube.title()} (redrawn)")
            cube = draw_cube(g)
        if cube is None:
            empty = True
        else:
            draws.append(cube.title())
        if cube == side:
            wins += 1
    shown = ", ".join(draws) if draws else "none"
    if empty:
        shown = f"{shown}, then the bag is empty" if draws else "the bag is empty"
    checks, successes = counted(n, "support check"), counted(wins, "success", "successes")
    log(g, f"{side.title()} makes {checks} for {purpose}: {shown} — {successes}.")
    return wins


def initiative_check(g: GameState, purpose: str) -> str:
    """R3.3: draw until two of one colour; cubes go to supply, not back to the bag."""
    seen = {"kennedy": 0, "nixon": 0}
    draws: list[str] = []
    while True:
        cube = draw_cube(g)
        if cube is None:  # only possible from R13.3 on, where no check is made
            winner = "kennedy" if seen["kennedy"] >= seen["nixon"] else "nixon"
            break
        draws.append(cube.title())
        seen[cube] += 1
        if seen[cube] == 2:
            winner = cube
            break
    log(
        g,
        f"Initiative check for {purpose}: drew {', '.join(draws)} — {winner.title()} wins (R3.3).",
    )
    return winner


# -- cards ---------------------------------------------------------------------------------


def draw_cards(g: GameState, side: str, n: int) -> list[int]:
    """Draw from the campaign deck, reshuffling the discard pile when it runs out (R5.1)."""
    got: list[int] = []
    for _ in range(n):
        if not g["deck"]:
            if not g["discard"]:
                break
            g["deck"] = g["discard"]
            g["discard"] = []
            rng.shuffle(g["rng"], g["deck"])
            log(
                g, f"The discard pile is shuffled into a new deck of {len(g['deck'])} cards (R5.1)."
            )
        got.append(g["deck"].pop())
    g["hands"][side].extend(got)
    if got:
        names = ", ".join(card_label(c) for c in got)
        log(g, f"{side.title()} draws {counted(len(got), 'card')}.")
        log(g, f"You draw: {names}.", to=side)
    return got


def card_label(n: int) -> str:
    return f"#{n} {CARDS[n].name}"


def place_endorsement(g: GameState, side: str, region: str) -> None:
    """R10.5: a marker by R1.4 (an opposing marker is removed instead)."""
    gain(g, "endorsements", region, side)
    log(g, f"{side.title()} places an endorsement in the {region.title()} (R10.5).")


def draw_endorsement(g: GameState) -> str:
    """Draw an endorsement card; the discard is reshuffled when the deck is empty (R10.5)."""
    if not g["endorse_deck"]:
        g["endorse_deck"] = g["endorse_discard"]
        g["endorse_discard"] = []
        rng.shuffle(g["rng"], g["endorse_deck"])
    card: str = g["endorse_deck"].pop()
    g["endorse_discard"].append(card)
    return card
