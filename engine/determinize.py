"""Determinisation: a full game state a side cannot tell apart from the real one (R17).

A computer player sees only what `engine.view` shows its side. To look ahead it needs a
whole state to play on, so `determinize` samples one *consistent with that side's view*:
every card the side cannot see — the opponent's hand, campaign-strategy stack and debate
hand, an opponent's secret debate pick not yet revealed, and the campaign deck — is pooled,
put in a canonical order and dealt again at random in the same sizes; the endorsement deck is
reshuffled; the engine's RNG (and with it every bag draw to come) is replaced by a fresh one.
The bag's contents by colour stay as they are: they are public (R3.5).

The sampling uses the engine's own generator (`engine.rng`, docs/RANDOMNESS.md): the caller
owns a generator state (`sampler(seed)` makes one, ``{"key": ..., "n": 0}``, JSON like the
game's) and every call advances it, so a run of samples is a function of the seed alone.
The result depends only on what ``side`` may see and on that generator state: two states
that differ only in hidden information give the same sample for the same generator state.
That is what keeps a player honest, and it is tested the way the engine's non-interference
test tests views (tests/bots/test_no_peeking.py).

The sample has an empty log (no rule reads it; it is most of the cost of copying a state),
so `playout_copy` of it is cheap. Pure: no I/O, no global randomness.
"""

from __future__ import annotations

import hashlib

from engine import rng as _rng
from engine.data import CARDS, SIDES
from engine.schema import Rng
from engine.state import GameState, copy_state

__all__ = ["determinize", "hidden_cards", "playout_copy", "sampler"]

_WORD = 1 << 64


def sampler(seed: int) -> Rng:
    """A fresh generator state for `determinize`, from a player's ``seed``.

    Its key is ``SHA-256("1960-determinize:" + decimal(seed))``: a different domain from the
    game's own ``"1960:"`` keys, so a player whose seed happened to equal a game's seed still
    could not replay that game's deck (R17.3).
    """
    return {"key": hashlib.sha256(b"1960-determinize:" + str(seed).encode()).hexdigest(), "n": 0}


def _opponent(side: str) -> str:
    return "nixon" if side == "kennedy" else "kennedy"


def _secret_pick(g: GameState, side: str) -> int | None:
    """The opponent's debate card chosen in secret and not yet revealed (R12.4, R17.2), if any."""
    opp = _opponent(side)
    f = g["stack"][-1] if g["stack"] else None
    if f is None or f["step"] != "debate_pick" or opp not in f["picks"]:
        return None
    card: int = f["picks"][opp][1]
    d = g["debate"]
    if d is not None and card in d["revealed"]:
        return None
    return card


def hidden_cards(g: GameState, side: str) -> list[int]:
    """Every campaign card ``side`` cannot see, sorted (the pool a determinisation deals from)."""
    opp = _opponent(side)
    pool = list(g["hands"][opp]) + list(g["stacks"][opp]) + list(g["deck"])
    d = g["debate"]
    if d is not None:
        pool += d["hands"][opp]
    pick = _secret_pick(g, side)
    if pick is not None:
        pool.append(pick)
    return sorted(pool)


def determinize(g: GameState, side: str, rng: Rng) -> GameState:
    """A state consistent with ``side``'s view, its hidden cards and future draws sampled from
    the generator state ``rng`` (see `sampler`), which is advanced in place."""
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}: expected 'kennedy' or 'nixon'")
    opp = _opponent(side)
    pool = hidden_cards(g, side)
    pick = _secret_pick(g, side)
    h = playout_copy(g)
    _rng.shuffle(rng, pool)

    def deal(n: int, stackable: bool = False) -> list[int]:
        """The first ``n`` cards of the pool (that may go on a strategy stack, R11.2)."""
        dealt = [c for c in pool if not (stackable and CARDS[c].gathering_momentum)][:n]
        for c in dealt:
            pool.remove(c)
        return dealt

    # stacks and debate cards first: a Gathering Momentum card is never among them (R11.2)
    h["stacks"][opp] = deal(len(g["stacks"][opp]), stackable=True)
    d = h["debate"]
    if d is not None:
        d["hands"][opp] = sorted(deal(len(d["hands"][opp]), stackable=True))
    if pick is not None:
        (card,) = deal(1, stackable=True)
        icon = CARDS[card].icon
        place = SIDES[_rng.below(rng, len(SIDES))] if icon == "both" else icon
        h["stack"][-1]["picks"][opp] = [opp, card, place]
    h["hands"][opp] = sorted(deal(len(g["hands"][opp])))
    h["deck"] = pool
    endorse = sorted(h["endorse_deck"])
    _rng.shuffle(rng, endorse)
    h["endorse_deck"] = endorse
    # every draw to come (bag, reshuffles) from a new key: four words of the sampler, 256 bits
    h["rng"] = {"key": "".join(f"{_rng.below(rng, _WORD):016x}" for _ in range(4)), "n": 0}
    h["seed"] = 0  # the game's seed would tell every draw to come (R17.3)
    for frame in h["stack"]:  # an initiative answered ahead is the opponent's secret (R5.2)
        frame.get("ahead", {}).pop(opp, None)
    return h


def playout_copy(g: GameState) -> GameState:
    """A copy to play on, without the log (what a look-ahead never reads)."""
    return copy_state(g, log=False)
