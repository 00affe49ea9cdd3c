"""No peeking (R17): a computer player decides from what its side may see, nothing else.

As the engine's non-interference test does for views (tests/engine/test_hidden_info.py),
every state is paired with states its side cannot tell apart from it — the opponent's hand,
strategy stack, debate hand and secret pick, the deck order, the endorsement deck and the
RNG all permuted — and each player, for a fixed seed, must choose the same command in all
of them: its decision (and so its decision distribution over seeds) does not depend on them.
"""

from __future__ import annotations

import json
import random

import pytest

import bots
import bots.ismcts
import bots.search
import engine
from bots.search import Budget
from engine.determinize import determinize, playout_copy, sampler
from engine.state import GameState, copy_state
from tests.engine.playout import play_out
from tests.engine.test_hidden_info import hide

SIDES = ("kennedy", "nixon")


def positions(edition: str, games: int, every: int) -> list[tuple[GameState, str]]:
    """(state, deciding side) pairs from seeded random games, about one in ``every`` commands."""
    out: list[tuple[GameState, str]] = []
    for seed in range(games):
        rnd = random.Random(f"peek:{edition}:{seed}")

        def grab(g: GameState, move: object, i: int, rnd: random.Random = rnd) -> None:
            active = sorted(engine.active_sides(g))
            if active and rnd.randrange(every) == 0:
                out.append((copy_state(g), rnd.choice(active)))

        play_out(3000 + seed, edition, grab)
    return out


def dump(g: GameState) -> str:
    return json.dumps(g, sort_keys=True)


@pytest.mark.parametrize("edition", ["zman", "gmt"])
def test_a_determinisation_depends_only_on_the_sides_view(edition: str) -> None:
    pairs = positions(edition, games=12, every=9)
    assert len(pairs) > 200
    rnd = random.Random(edition)
    differ = 0
    for g, side in pairs:
        mine = dump(determinize(g, side, sampler(7)))
        for _ in range(2):
            assert dump(determinize(hide(g, side, rnd), side, sampler(7))) == mine, (
                f"{side} at {g['stack'][-1:]} (turn {g['turn']})"
            )
        differ += mine != dump(determinize(g, side, sampler(8)))
    assert differ > len(pairs) // 2  # the hidden part really is sampled anew


@pytest.mark.parametrize("edition", ["zman", "gmt"])
def test_a_determinisation_is_consistent_with_the_view(edition: str) -> None:
    for g, side in positions(edition, games=6, every=11):
        h = determinize(g, side, sampler(3))
        v, w = engine.view(g, side), engine.view(h, side)
        v.pop("log"), w.pop("log")
        assert v == w
        other = "nixon" if side == "kennedy" else "kennedy"
        for c in h["stacks"][other]:  # R11.2: never a Gathering Momentum card on a stack
            assert not engine.CARDS[c].gathering_momentum
        everything = (
            h["hands"]["kennedy"]
            + h["hands"]["nixon"]
            + h["stacks"]["kennedy"]
            + h["stacks"]["nixon"]
            + h["deck"]
            + h["discard"]
            + h["removed"]
        )
        assert len(everything) == len(set(everything))  # no card dealt twice


@pytest.mark.parametrize(
    ("kind", "budget"),
    [
        ("random", None),
        ("heuristic", None),
        ("search", Budget(iterations=8)),
        ("search", Budget(iterations=8, variant="deep")),  # plays on into the next turn's draws
        ("search", Budget(iterations=8, variant="points")),  # searches the campaign steps too
    ],
)
def test_a_player_decides_the_same_whatever_it_cannot_see(kind: str, budget: Budget | None) -> None:
    pairs = positions("zman", games=4, every=25) + positions("gmt", games=3, every=25)
    rnd = random.Random(kind)
    steps = set()
    for n, (g, side) in enumerate(pairs):
        steps.add(g["stack"][-1]["step"])
        cmd = bots.choose_command(g, side, kind, budget, seed=n)
        assert cmd in engine.legal_commands(g, side)
        h = hide(g, side, rnd)
        assert bots.choose_command(h, side, kind, budget, seed=n) == cmd, (
            f"{kind} for {side} at {g['stack'][-1:]} (turn {g['turn']})"
        )
    assert {"action", "campaign"} <= steps


def test_the_check_catches_a_player_that_peeks() -> None:
    """A player reading the opponent's hand fails the same comparison (the test has teeth)."""

    def peeking(g: GameState, side: str, seed: int) -> str:
        other = "nixon" if side == "kennedy" else "kennedy"
        legal = engine.legal_commands(g, side)
        return legal[sum(g["hands"][other]) % len(legal)]

    rnd = random.Random(1)
    changed = 0
    for n, (g, side) in enumerate(positions("zman", games=3, every=10)):
        if len(engine.legal_commands(g, side)) > 1:
            changed += peeking(g, side, n) != peeking(hide(g, side, rnd), side, n)
    assert changed > 0


def test_determinisation_draws_from_the_engines_own_generator() -> None:
    """The house rule (docs/RANDOMNESS.md): engine/ draws only from its JSON generator, seeded."""
    import ast
    from pathlib import Path

    for path in sorted(Path(engine.__file__).parent.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert "random" not in names and "secrets" not in names, f"{path} imports {names}"
    g = engine.new_game(5)
    rng = sampler(11)
    assert rng["key"] != engine.new_game(11)["rng"]["key"]  # its own domain, never a game's key
    first, second = determinize(g, "kennedy", rng), determinize(g, "kennedy", rng)
    assert rng["n"] > 0 and json.loads(json.dumps(rng)) == rng  # advanced in place, plain JSON
    assert first["hands"]["nixon"] != second["hands"]["nixon"]  # the next sample is a new one
    again = sampler(11)
    assert dump(determinize(g, "kennedy", again)) == dump(first)  # a function of the seed alone
    assert dump(determinize(g, "kennedy", again)) == dump(second)


def test_the_check_catches_a_search_that_plays_on_the_true_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search's one door to hidden information is `determinize`: made to hand back the real
    state (the opponent's true hand, the deck's true order), the same comparison fails."""

    def true_state(g: GameState, side: str, rng: object) -> GameState:
        return playout_copy(g)

    monkeypatch.setattr(bots.ismcts, "determinize", true_state)
    monkeypatch.setattr(bots.search, "determinize", true_state)
    rnd = random.Random(2)
    changed = 0
    pairs = positions("zman", games=3, every=12)
    for n, (g, side) in enumerate(pairs):
        if len(engine.legal_commands(g, side)) > 1:
            budget = Budget(iterations=8)
            cmd = bots.choose_command(g, side, "search", budget, seed=n)
            changed += (
                bots.choose_command(hide(g, side, rnd), side, "search", budget, seed=n) != cmd
            )
    assert changed > 0
