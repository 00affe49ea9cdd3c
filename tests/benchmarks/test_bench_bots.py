"""`benchmarks/bench_bots.py --weights`: self-play of a change to `engine.evaluate`'s weights."""

from __future__ import annotations

import pytest

from benchmarks import bench_bots
from engine import evaluate as evaluation


def test_weighted_changes_the_evaluation_inside_the_block_only() -> None:
    before = evaluation.issue_value(0, 2)
    with bench_bots.weighted({"ISSUE_POSITION": (0.0, 0.0, 0.0), "ISSUE_DEPTH": 3.0}):
        assert evaluation.issue_value(0, 2) == 6.0
    assert evaluation.issue_value(0, 2) == before
    with pytest.raises(RuntimeError), bench_bots.weighted({"MEDIA": 99.0}):
        raise RuntimeError
    assert evaluation.MEDIA != 99.0  # restored when the block raises


def test_parse_weights() -> None:
    assert bench_bots.parse_weights(["issue_position=6,4,2", "MEDIA=1"]) == {
        "ISSUE_POSITION": (6.0, 4.0, 2.0),
        "MEDIA": 1.0,
    }
    for bad, says in [
        ("RANDOMNESS=2", "NAME one of MOMENTUM"),
        ("MEDIA", "NAME one of"),
        ("MEDIA=lots", "'lots' is not a number"),
        ("ISSUE_POSITION=6,4", "ISSUE_POSITION takes 3 numbers"),
        ("MEDIA=1,2", "MEDIA takes one number"),
    ]:
        with pytest.raises(SystemExit, match=says):
            bench_bots.parse_weights([bad])


def test_alike_counts_the_positions_where_every_seed_chose_the_same() -> None:
    # three positions, two seeds: seed 0 then seed 1
    assert bench_bots.alike(["a", "b", "c", "a", "x", "c"], 3) == 2
    assert bench_bots.alike(["a", "b", "c", "a", "x", "c", "y", "x", "c"], 3) == 1
    assert bench_bots.alike(["a", "b"], 2) == 2  # one seed agrees with itself


def test_a_player_against_itself_splits_every_deal(capsys: pytest.CaptureFixture[str]) -> None:
    bench_bots.weights_ab({"MEDIA": evaluation.MEDIA}, "heuristic", deals=3, workers=1, seed=7)
    assert "A won 3/6 = 50.0 %" in capsys.readouterr().out


def test_the_changed_side_plays_differently() -> None:
    # Issue leads worth nothing to Kennedy: some deal among these goes another way.
    changes: dict[str, bench_bots.Weight] = {"ISSUE_POSITION": (0.0, 0.0, 0.0), "ISSUE_DEPTH": 0.0}
    games = [(s, "kennedy", "heuristic", changes) for s in range(7, 13)]
    changed = [bench_bots.weights_game(args) for args in games]
    unchanged = [bench_bots.weights_game((s, side, spec, {})) for s, side, spec, _ in games]
    assert changed != unchanged
