"""Tournaments: two players play N games, each side alternately, in parallel processes.

Games come in pairs on the same deal: in game ``2k`` player A is Kennedy, in game ``2k+1``
player A is Nixon, both from seed ``seed + k`` (the side's luck of the deal cancels out). Each
game runs in a worker process (`concurrent.futures`), so a search budget in seconds is a
budget per decision on one core. `summarise` gives per player: wins with a 95 % Wilson
interval, wins as Kennedy and as Nixon, mean electoral votes with a 95 % interval, the
decision time (median, 95th percentile) and, for the search, the playouts per searched
decision (median, 5th percentile): a budget in seconds buys fewer of them on a busy machine,
so that column says what strength the figures were measured at.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import bots
import engine

__all__ = [
    "GameRecord",
    "PlayerStats",
    "Tournament",
    "format_table",
    "play_game",
    "run",
    "summarise",
]

MAX_COMMANDS = 5000


@dataclass(frozen=True)
class GameRecord:
    """One finished game: who played which side, who won, the electoral votes, decision times."""

    index: int
    seed: int
    edition: str
    players: dict[str, str]  # side -> player spec
    winner: str
    electoral_votes: dict[str, int]
    times: dict[str, list[float]]  # side -> seconds per decision
    commands: int
    playouts: dict[str, list[int]] = field(default_factory=dict)  # side -> per searched decision


def play_game(index: int, a: str, b: str, edition: str, seed: int) -> GameRecord:
    """Game ``index`` of the tournament between ``a`` and ``b`` (player specs)."""
    game_seed = seed + index // 2
    players = {"kennedy": a, "nixon": b} if index % 2 == 0 else {"kennedy": b, "nixon": a}
    specs = {side: bots.parse_kind(spec) for side, spec in players.items()}
    g = engine.new_game(game_seed, edition=edition)
    times: dict[str, list[float]] = {"kennedy": [], "nixon": []}
    playouts: dict[str, list[int]] = {"kennedy": [], "nixon": []}
    n = 0
    while True:
        active = sorted(engine.active_sides(g))
        if not active:
            break
        if n >= MAX_COMMANDS:
            raise RuntimeError(f"game {index} (seed {game_seed}): no result after {n} commands")
        side = active[0]
        kind, budget = specs[side]
        started = time.perf_counter()
        seed_n = game_seed * 100_003 + n * 2 + index % 2
        d = bots.decide(g, side, kind, budget, seed=seed_n)
        cmd = d.command
        if d.playouts:
            playouts[side].append(d.playouts)
        times[side].append(time.perf_counter() - started)
        engine.apply_in_place(g, side, cmd)
        n += 1
    result = engine.result(g)
    assert result is not None
    return GameRecord(
        index,
        game_seed,
        edition,
        players,
        str(result["winner"]),
        dict(result["electoral_votes"]),
        times,
        n,
        playouts,
    )


def _play(args: tuple[int, str, str, str, int]) -> GameRecord:
    return play_game(*args)


def run(
    a: str,
    b: str,
    *,
    games: int,
    edition: str = "zman",
    workers: int | None = None,
    seed: int = 1,
    on_game: Callable[[GameRecord], None] = lambda r: None,
) -> list[GameRecord]:
    """Play the games (``workers`` processes; 1 = in this process) and return them in order."""
    for spec in (a, b):
        bots.parse_kind(spec)  # refuse a bad spec before starting any process
    if edition not in engine.EDITIONS:
        raise ValueError(
            f"unknown edition {edition!r}: expected one of {', '.join(engine.EDITIONS)}"
        )
    if games < 1:
        raise ValueError("a tournament needs at least one game")
    jobs = [(i, a, b, edition, seed) for i in range(games)]
    workers = max(1, min(workers or os.cpu_count() or 1, games))
    records: list[GameRecord] = []
    if workers == 1:
        for r in map(_play, jobs):
            on_game(r)
            records.append(r)
        return records
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for r in pool.map(_play, jobs):
            on_game(r)
            records.append(r)
    return records


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation; 0 for no data."""
    if not xs:
        return 0.0
    s = sorted(xs)
    pos = q * (len(s) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


@dataclass
class PlayerStats:
    """One player's figures over a tournament."""

    name: str
    games: int = 0
    wins: int = 0
    as_kennedy: list[int] = field(default_factory=lambda: [0, 0])  # wins, games
    as_nixon: list[int] = field(default_factory=lambda: [0, 0])
    ev: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    playouts: list[int] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_ev(self) -> float:
        return statistics.fmean(self.ev) if self.ev else 0.0

    @property
    def ev_half_width(self) -> float:
        return (
            1.96 * statistics.stdev(self.ev) / math.sqrt(len(self.ev)) if len(self.ev) > 1 else 0.0
        )


@dataclass
class Tournament:
    """The summary: both players' stats and the wall-clock time."""

    a: PlayerStats
    b: PlayerStats
    games: int
    edition: str
    seconds: float = 0.0


def summarise(records: list[GameRecord], a: str, b: str, seconds: float = 0.0) -> Tournament:
    stats = {"a": PlayerStats(a), "b": PlayerStats(b)}
    for r in records:
        for side in r.players:
            # in even games A is Kennedy; in odd games A is Nixon (a == b is allowed)
            who = "a" if (side == "kennedy") == (r.index % 2 == 0) else "b"
            st = stats[who]
            won = r.winner == side
            st.games += 1
            st.wins += won
            tally = st.as_kennedy if side == "kennedy" else st.as_nixon
            tally[0] += won
            tally[1] += 1
            st.ev.append(r.electoral_votes[side])
            st.times.extend(r.times[side])
            st.playouts.extend(r.playouts.get(side, []))
    edition = records[0].edition if records else ""
    return Tournament(stats["a"], stats["b"], len(records), edition, seconds)


def format_table(t: Tournament) -> str:
    """A plain-text table of the tournament."""
    head = (
        f"{'player':<16} {'wins':>9} {'win rate (95% CI)':>22} {'as Kennedy':>11} {'as Nixon':>9} "
        f"{'mean EV (95% CI)':>18} {'decision ms median':>19} {'p95':>8} {'playouts median':>16} {'p5':>5}"
    )
    lines = [f"{t.games} games, {t.edition} edition, {t.seconds:.0f} s", head, "-" * len(head)]
    for st in (t.a, t.b):
        lo, hi = st.interval
        lines.append(
            f"{st.name:<16} {st.wins:>4}/{st.games:<4} {100 * st.win_rate:>6.1f}% [{100 * lo:4.1f}, {100 * hi:5.1f}]"
            f" {st.as_kennedy[0]:>5}/{st.as_kennedy[1]:<5} {st.as_nixon[0]:>4}/{st.as_nixon[1]:<4}"
            f" {st.mean_ev:>9.1f} ± {st.ev_half_width:<5.1f}"
            f" {1000 * statistics.median(st.times) if st.times else 0.0:>19.2f}"
            f" {1000 * percentile(st.times, 0.95):>8.2f}"
            + (
                f" {statistics.median(st.playouts):>16.0f} {percentile([float(p) for p in st.playouts], 0.05):>5.0f}"
                if st.playouts
                else f" {'-':>16} {'-':>5}"
            )
        )
    return "\n".join(lines)
