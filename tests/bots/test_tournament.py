"""`pbem tournament`: sides alternate on the same deal, games run in parallel processes, and
the table counts what was played (its smoke size; strength figures are in benchmarks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots import tournament
from pbem.cli import cli


def test_a_tournament_alternates_sides_on_the_same_deal_in_parallel() -> None:
    records = tournament.run("heuristic", "random", games=4, edition="gmt", workers=2, seed=40)
    assert [r.index for r in records] == [0, 1, 2, 3]
    assert [r.seed for r in records] == [40, 40, 41, 41]
    assert [r.players["kennedy"] for r in records] == ["heuristic", "random", "heuristic", "random"]
    t = tournament.summarise(records, "heuristic", "random")
    assert t.a.games == t.b.games == 4 and t.a.wins + t.b.wins == 4
    assert t.a.as_kennedy[1] == t.a.as_nixon[1] == 2
    assert t.a.wins >= 3  # the heuristic beats random in (nearly) every game
    assert len(t.a.times) == sum(
        len(r.times[s]) for r in records for s in r.players if r.players[s] == "heuristic"
    )
    table = tournament.format_table(t)
    assert "heuristic" in table and "random" in table and "95% CI" in table


def test_wilson_interval_and_percentile() -> None:
    lo, hi = tournament.wilson(90, 100)
    assert 0.82 < lo < 0.83 and 0.94 < hi < 0.95
    assert tournament.wilson(0, 0) == (0.0, 1.0)
    assert tournament.percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.5) == 3.0
    assert tournament.percentile([1.0, 2.0], 0.95) == pytest.approx(1.95)


def test_the_cli_prints_the_table_and_writes_the_records(tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    res = CliRunner().invoke(
        cli,
        [
            "--database-url",
            f"sqlite:///{tmp_path}/x.db",
            "tournament",
            "--games",
            "2",
            "--workers",
            "1",
            "--json",
            str(out),
            "heuristic",
            "search:2i",
        ],
    )
    assert res.exit_code == 0, res.output
    assert "2 games, zman edition" in res.output and "search:2i" in res.output
    games = json.loads(out.read_text())
    assert len(games) == 2 and {g["winner"] for g in games} <= {"kennedy", "nixon"}


def test_the_cli_refuses_an_unknown_player(tmp_path: Path) -> None:
    res = CliRunner().invoke(
        cli, ["--database-url", f"sqlite:///{tmp_path}/x.db", "tournament", "genius", "random"]
    )
    assert res.exit_code == 2 and "unknown player 'genius'" in res.output
