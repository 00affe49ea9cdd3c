"""The game log reads as a player would write it: a sweep over a few seeded games (random and
event-heavy play, both editions and the GMT options) finds no lazy plural, raw key or doubled
parenthesis in any line a player sees."""

from __future__ import annotations

import random
import re
from functools import cache

import bots
import engine
from engine.data import listed
from engine.schema import LogEntry
from tests.engine.playout import options_for, prefer_events, uniform

SEEDS = range(6)


@cache
def swept_log() -> tuple[LogEntry, ...]:
    """Every log entry of a few whole games: random, event-heavy and (two) heuristic-bot play."""
    out: list[LogEntry] = []
    for edition in ("zman", "gmt"):
        for seed in SEEDS:
            policy = prefer_events(0.7, 0.5) if seed % 2 else uniform
            g = engine.new_game(seed, edition=edition, options=options_for(seed, edition))
            rnd = random.Random(seed)
            n = 0
            while engine.active_sides(g):
                side = rnd.choice(sorted(engine.active_sides(g)))
                if seed < 1:
                    cmd = bots.choose_command(g, side, "heuristic", seed=n)
                else:
                    cmd = policy(rnd, engine.legal_commands(g, side))
                engine.apply_in_place(g, side, cmd)
                n += 1
            out.extend(g["log"])
    return tuple(out)


def lines_matching(pattern: str, flags: int = 0) -> list[str]:
    rx = re.compile(pattern, flags)
    return sorted({e["text"] for e in swept_log() if rx.search(e["text"])})


def test_the_sweep_covers_whole_games_of_both_editions() -> None:
    texts = [e["text"] for e in swept_log()]
    assert sum(t.startswith("Final tally:") for t in texts) == 2 * len(SEEDS)
    assert len(texts) > 3000


def test_a_line_that_names_no_cause_does_not_end_in_a_parenthesis() -> None:
    """The report adds the cause in parentheses after a line naming no card and no rule: a line
    ending in its own parenthesis read '... gains 1 momentum (now 1) (#5 Volunteers).'"""
    assert [
        t for t in lines_matching(r"\)\.?$") if "#" not in t and not re.search(r"\([^)]*\bR\d", t)
    ] == []


def test_listed_names_read_as_a_sentence() -> None:
    assert listed([]) == "" and listed(["the South"]) == "the South"
    assert listed(["the West", "the Midwest"], "or") == "the West or the Midwest"
    assert listed(["Alabama", "Louisiana", "Mississippi"]) == "Alabama, Louisiana and Mississippi"


def test_no_lazy_plural_or_hedge() -> None:
    """Counts agree with their nouns (engine.data.counted); 'nothing (more) happens' says which."""
    assert lines_matching(r"\((s|es|more)\)") == []
    assert lines_matching(r"\b1 (?!success\b)\w+s (go|are|were)\b|\bcubes goes\b") == []


def test_cubes_drawn_are_named_in_full() -> None:
    assert lines_matching(r"Initiative check") and lines_matching(r"drew [KN]\b") == []


def test_no_raw_key_in_a_line() -> None:
    """Sides, regions and issues by their names (engine.data.issue_name), never their keys."""
    assert lines_matching(r"\w_\w") == []
    keys = r"\b(kennedy|nixon|west|midwest|south|east|defense|economy|civil rights)\b"
    assert lines_matching(keys) == []
