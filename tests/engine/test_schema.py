"""The TypedDicts in engine.schema / engine.view describe the real data, key for key.

mypy checks the code against these shapes; these tests check the shapes against the data
the engine builds, so a key added to the state without its type (or the other way) fails.
"""

from __future__ import annotations

import typing
from pathlib import Path

import engine
from engine.schema import Debate, Effect, GameState, LogEntry, Result, Rng
from engine.view import DebateView, View
from tests.engine.playout import play_out


def _keys(td: type) -> tuple[set[str], set[str]]:
    """(required, optional) keys of a TypedDict (read from the hints: the engine's modules
    postpone annotations, so ``__required_keys__`` does not see ``NotRequired`` before 3.12)."""
    hints = typing.get_type_hints(td, include_extras=True)
    optional = {k for k, t in hints.items() if typing.get_origin(t) is typing.NotRequired}
    return set(hints) - optional, optional


def _check(td: type, value: dict[str, object]) -> None:
    required, optional = _keys(td)
    assert required <= value.keys(), f"{td.__name__} misses {sorted(required - value.keys())}"
    extra = value.keys() - required - optional
    assert not extra, f"{td.__name__} has no type for {sorted(extra)}"


def test_game_state_keys_match_a_new_game_and_a_finished_one() -> None:
    for edition in engine.EDITIONS:
        g = engine.new_game(3, edition=edition)
        _check(GameState, dict(g))
        _check(Rng, dict(g["rng"]))
        g, _ = play_out(3, edition)
        _check(GameState, dict(g))
        assert g["result"] is not None
        _check(Result, dict(g["result"]))
        for e in g["log"]:
            _check(LogEntry, dict(e))


def test_the_state_still_round_trips_through_json() -> None:
    g, _ = play_out(5, "gmt")
    assert engine.from_json(engine.to_json(g)) == g


def test_view_keys_for_a_side_and_an_observer() -> None:
    g = engine.new_game(4, edition="gmt")
    _check(View, dict(engine.view(g, "kennedy")))
    observer = dict(engine.view(g, None))
    _check(View, observer)
    assert "hand" not in observer and "revealed" not in observer  # R17.3


def test_debate_and_effect_shapes_during_a_game() -> None:
    seen_debate = seen_effect = False

    def check(g: engine.GameState, move: object, i: int) -> None:
        nonlocal seen_debate, seen_effect
        if g["debate"] is not None:
            seen_debate = True
            _check(Debate, dict(g["debate"]))
            v = engine.view(g, "nixon")["debate"]
            assert v is not None
            _check(DebateView, dict(v))
        for e in g["effects"]:
            seen_effect = True
            _check(Effect, dict(e))

    for seed in range(4):
        play_out(seed, "zman", check)  # type: ignore[arg-type]
    assert seen_debate and seen_effect


def test_aliases_are_exported_and_py_typed_ships() -> None:
    assert engine.Side is str and engine.StateCode is str and engine.CardNo is int
    root = Path(engine.__file__).parent
    assert (root / "py.typed").exists()
    pyproject = (root.parent / "pyproject.toml").read_text()
    assert '"py.typed"' in pyproject.split("[tool.setuptools.package-data]")[1].split("pbem =")[0]
    assert typing.get_type_hints(engine.view)["return"] is View
