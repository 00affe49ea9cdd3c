"""Seeded random playouts for the engine tests: the one driver and the one invariant checker.

`play_out` plays a whole game: a random active side plays a command chosen from its legal
list by a *policy* (`uniform`, or `prefer_events` for the event-heavy runs), and an optional
check runs after every command. `Checker` is that check for every playout test:

- R1.4 spaces hold plain signed ints; every card of the edition is in exactly one place
  (R1.7, R16.6); bag counts, momentum and rest cubes never negative (R3);
- R5.1 hands never exceed what was dealt, drawn or taken;
- all 537 EV accounted for (R1.2, R13.6) every few commands;
- the R7.4 / R16.3 [rulings]: once checks were drawn in a state, the same campaign action
  (or event placement) puts no more points there;
- optionally the legality property: at the decision reached, every listed command is
  `is_legal` (the fast path `apply` takes), ``has_legal`` agrees with the list, and a
  sample of well-formed commands that are not listed is not `is_legal`;
- every ``json_every`` commands a lossless JSON round trip, and play goes on from the copy.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

import engine
from engine.api import _is_legal_now
from engine.data import ISSUES, REGIONS, STATES, deck_cards
from engine.flow import STEPS
from engine.phases.election import tally
from engine.state import GameState
from tests.engine.builders import all_cards

Move = tuple[str, str]
Policy = Callable[[random.Random, list[str]], str]
Check = Callable[[GameState, Move, int], GameState | None]

EDITION_OPTIONS: dict[str, list[tuple[str, ...]]] = {
    "zman": [()],
    "gmt": [
        (),
        ("vice_presidents",),
        ("restricted_positioning",),
        ("restricted_positioning", "vice_presidents"),
    ],
}


def options_for(seed: int, edition: str) -> tuple[str, ...]:
    """Spread the GMT optional rules (R15) over the seeds."""
    choices = EDITION_OPTIONS[edition]
    return choices[seed % len(choices)]


def uniform(r: random.Random, legal: list[str]) -> str:
    return r.choice(legal)


def prefer_events(p_event: float, p_not_done: float = 0.0) -> Policy:
    """Play or trigger an event with probability ``p_event`` when one is legal; otherwise
    avoid ending a step early (``done``) with probability ``p_not_done``."""

    def choose(r: random.Random, legal: list[str]) -> str:
        pref = [c for c in legal if c.split()[0] in ("event", "trigger")]
        if pref and r.random() < p_event:
            return r.choice(pref)
        if p_not_done and len(legal) > 1 and "done" in legal and r.random() < p_not_done:
            return r.choice([c for c in legal if c != "done"])
        return r.choice(legal)

    return choose


def play_out(
    seed: int,
    edition: str,
    check: Check | None = None,
    *,
    policy: Policy = uniform,
    options: Sequence[str] | None = None,
    rng_key: object = None,
    limit: int = 5000,
) -> tuple[GameState, list[Move]]:
    """A whole random game; ``check(g, move, i)`` runs after every command and may return a
    replacement state (e.g. a JSON round-tripped copy) to continue from."""
    opts = options_for(seed, edition) if options is None else tuple(options)
    g = engine.new_game(seed, edition=edition, options=opts)
    rnd = random.Random(f"playout:{edition}:{seed}" if rng_key is None else rng_key)  # type: ignore[arg-type]
    played: list[Move] = []
    i = 0
    while engine.active_sides(g):
        side = rnd.choice(sorted(engine.active_sides(g)))
        cmd = policy(rnd, engine.legal_commands(g, side))
        engine.apply_in_place(g, side, cmd)
        played.append((side, cmd))
        i += 1
        if check is not None:
            h = check(g, (side, cmd), i)
            if h is not None:
                g = h
        if i > limit:
            raise AssertionError(f"seed {seed}: no result after {i} commands")
    return g, played


def replay(
    seed: int, edition: str, played: list[Move], options: Sequence[str] | None = None
) -> GameState:
    """Rebuild a game from its seed and command list (R17.3: all randomness from the seed)."""
    opts = options_for(seed, edition) if options is None else tuple(options)
    g = engine.new_game(seed, edition=edition, options=opts)
    for side, cmd in played:
        engine.apply_in_place(g, side, cmd)
    return g


STATE_KEYS = sorted(STATES)
REGION_KEYS = sorted(REGIONS)
ISSUE_KEYS = sorted(ISSUES)
_DRAW = re.compile(r"^(Kennedy|Nixon) (?:draws (\d+) card|takes #\d+ )")
# well-formed commands that are often illegal: the negative half of the legality property
_PROBES = (
    [f"support {s}" for s in STATES]
    + [f"check {s} {n}" for s in STATES for n in (1, 2, 5)]
    + [f"travel {s}" for s in STATES]
    + [f"media {r}" for r in REGIONS]
    + [f"issue {i}" for i in ISSUES]
    + [
        f"{v} {c}"
        for v in ("event", "campaign", "strategy", "discard", "take", "resolve")
        for c in (1, 22, 60, 95)
    ]
    + [
        "done",
        "pass",
        "trigger",
        "decline",
        "momentum",
        "endorsement",
        "first kennedy",
        "candidate campaign",
    ]
)


class Checker:
    """Invariants checked after every command (see the module docstring); cheap enough for CI."""

    def __init__(
        self,
        seed: int,
        edition: str,
        *,
        json_every: int = 10,
        ev_every: int = 5,
        legality: bool = False,
    ) -> None:
        self.seed = seed
        self.deck = sorted(deck_cards(edition))
        self.json_every = json_every
        self.ev_every = ev_every
        self.legality = legality
        self.rnd = random.Random(f"probe:{edition}:{seed}")
        self.seen: set[str] = set(_PROBES)  # every command listed so far, plus the probes
        self.pool: list[str] = list(_PROBES)  # the same, in a fixed order for sampling
        self.log_seen = 0
        self.got: dict[tuple[str, int], int] = {}  # (side, turn) -> cards drawn or taken
        self.decision: tuple[int, str, str | None] | None = None  # (depth, step, side) decided next
        self.action: tuple[int, str, str | None] | None = None
        self.drawn: set[str] = set()  # states where checks were drawn in the current action

    def __call__(self, g: GameState, move: Move, i: int) -> GameState | None:
        where = f"seed {self.seed}, command {i} {move}"
        self._spaces(g, where)
        assert sorted(all_cards(g)) == self.deck, f"cards not conserved: {where}"
        for side in ("kennedy", "nixon"):
            n = g["bag"][side]
            assert type(n) is int and n >= 0, f"bag {g['bag']}: {where}"  # R3
            assert g["momentum"][side] >= 0 and g["rest"][side] >= 0, where
        self._hands(g, where)
        self._declared_once(g, move, where)
        if i % self.ev_every == 0:
            self._electoral_votes(g, where)
        if self.legality:
            self._legality(g, where)
        if i % self.json_every == 0:
            h = engine.from_json(engine.to_json(g))
            assert h == g, f"JSON round trip differs: {where}"
            return h  # play on from the round-tripped copy
        return None

    @staticmethod
    def _spaces(g: GameState, where: str) -> None:
        # R1.4 holds by construction with signed counts; check every count is a plain int
        for space, keys in (
            ("states", STATE_KEYS),
            ("media", REGION_KEYS),
            ("issues", ISSUE_KEYS),
            ("endorsements", REGION_KEYS),
        ):
            d = g[space]
            assert sorted(d) == keys, f"{space} keys: {where}"
            assert all(type(v) is int for v in d.values()), f"{space} values: {where}"
        assert sorted(g["issue_order"]) == ISSUE_KEYS, where
        assert set(g["token"].values()) <= set(STATE_KEYS), where

    @staticmethod
    def _electoral_votes(g: GameState, where: str) -> None:
        """R1.2, R13.6: won, undecided and unpledged EV always add up to 537."""
        t = tally(g)
        undecided = sum(STATES[s].ev for s, v in g["states"].items() if v == 0)
        nobody = sum(STATES[s].ev for s in t["unpledged"])
        assert sum(t["electoral_votes"].values()) + undecided + nobody == 537, where

    def _hands(self, g: GameState, where: str) -> None:
        """R5.1: a hand never holds more than was dealt plus drawn or taken by events."""
        log = g["log"]
        for e in log[self.log_seen :]:
            m = _DRAW.match(e["text"]) if e["to"] is None else None
            if m:
                key = (m.group(1).lower(), e["turn"])
                self.got[key] = self.got.get(key, 0) + int(m.group(2) or 1)
        self.log_seen = len(log)
        top = g["stack"][-1]["step"] if g["stack"] else None
        for side in ("kennedy", "nixon"):
            n = len(g["hands"][side])
            assert n <= self.got.get((side, g["turn"]), 0), f"{side} holds {n} cards: {where}"
            if top == "choose_first" and g["turn"] in (1, 2, 3, 4, 5, 7, 8):
                assert n == engine.board.hand_size(g["turn"]), f"{side} dealt {n}: {where}"

    def _declared_once(self, g: GameState, move: Move, where: str) -> None:
        """R7.4 / R16.3 [rulings]: once checks were drawn in a state, the same campaign
        action (or event placement) puts no more points there."""
        words = move[1].split()
        if self.decision != self.action:  # a new decision point: a new action
            self.action, self.drawn = self.decision, set()
        if (
            self.action is not None
            and self.action[1] in ("campaign", "place_support")
            and words[0] in ("support", "check")
        ):
            assert words[1] not in self.drawn, (
                f"points to {words[1]} after its checks were drawn: {where}"
            )
            if words[0] == "check":
                self.drawn.add(words[1])
        stack = g["stack"]
        self.decision = (len(stack), stack[-1]["step"], stack[-1].get("side")) if stack else None

    def _legality(self, g: GameState, where: str) -> None:
        """`is_legal` and `has_legal` (the fast paths) agree with `legal()` at this decision."""
        f = g["stack"][-1] if g["stack"] else None
        for side in ("kennedy", "nixon"):
            legal = engine.legal_commands(g, side)
            for c in legal:
                if c not in self.seen:
                    self.seen.add(c)
                    self.pool.append(c)
            for c in legal:
                assert _is_legal_now(g, side, c), f"listed but not is_legal: {side} {c!r}: {where}"
            if f is not None and not STEPS[f["step"]].auto and side in STEPS[f["step"]].sides(g, f):
                has = STEPS[f["step"]].has_legal(g, f, side)
                assert has == bool(legal), f"has_legal {has} but legal {legal[:5]}: {side}: {where}"
            listed = set(legal)
            for c in self.rnd.sample(self.pool, 12):
                assert c in listed or not _is_legal_now(g, side, c), (
                    f"unlisted but is_legal: {side} {c!r}: {where}"
                )
