"""R3 The political capital bag: support checks, initiative checks, refill, public counts."""

from __future__ import annotations

from typing import Any

import engine
from engine import board
from tests.engine.builders import action_position, play


def _g(bag: dict[str, int], **kw: Any) -> engine.GameState:
    return action_position("kennedy", [40], bag=bag, **kw)


def test_r3_1_check_of_own_colour_succeeds_and_the_cube_leaves_the_bag() -> None:
    g = _g({"kennedy": 5, "nixon": 0})
    assert board.support_checks(g, "kennedy", 3, "test") == 3
    assert g["bag"] == {"kennedy": 2, "nixon": 0}


def test_r3_1_check_of_opponent_colour_fails_and_the_cube_does_not_return() -> None:
    g = _g({"kennedy": 0, "nixon": 5})
    assert board.support_checks(g, "kennedy", 2, "test") == 0
    assert g["bag"] == {"kennedy": 0, "nixon": 3}


def test_r3_1_r1_4_successful_check_first_removes_an_opponent_cube() -> None:
    # Nixon carries OH (R7.4): Kennedy declares 2 checks, both succeed, 2 Nixon cubes go.
    g = _g({"kennedy": 5, "nixon": 0}, clear_board=True, states={"OH": -4})
    g = play(g, "kennedy", "campaign 40", "travel OH", "check OH 2")
    assert g["states"]["OH"] == -2
    assert g["bag"] == {"kennedy": 3, "nixon": 0}


def test_r3_4_empty_bag_is_refilled_in_the_middle_of_a_series_of_checks() -> None:
    g = _g({"kennedy": 1, "nixon": 0}, clear_board=True, states={"OH": -4})
    g = play(g, "kennedy", "campaign 40", "travel OH", "check OH 2")
    # the first check took the last cube (a success); the bag was refilled with 10 + 10 (R3.4)
    # and the second check drew one of those 20
    assert sum(g["bag"].values()) == 19
    assert g["states"]["OH"] in (-3, -2)
    assert any("refilled with 10" in e["text"] for e in g["log"])


def test_r16_1_gmt_bag_is_refilled_with_twelve_of_each() -> None:
    g = _g({"kennedy": 0, "nixon": 0}, edition="gmt")
    board.support_checks(g, "kennedy", 1, "test")
    assert sum(g["bag"].values()) == 23


def test_r3_4_from_r13_3_on_the_bag_is_never_refilled_and_a_check_fails() -> None:
    g = _g({"kennedy": 0, "nixon": 0}, no_refill=True)
    assert board.support_checks(g, "kennedy", 3, "test") == 0
    assert g["bag"] == {"kennedy": 0, "nixon": 0}


def test_r3_3_initiative_check_draws_until_two_of_one_colour() -> None:
    g = _g({"kennedy": 1, "nixon": 3})
    # only one Kennedy cube: Nixon must be the first to reach two
    assert board.initiative_check(g, "test") == "nixon"
    drawn = 4 - sum(g["bag"].values())
    assert drawn in (2, 3)  # N N, or K N N / N K N
    assert g["bag"]["nixon"] == 1  # the drawn cubes went to supply, not back to the bag


def test_r3_3_initiative_check_with_one_colour_only() -> None:
    g = _g({"kennedy": 4, "nixon": 0})
    assert board.initiative_check(g, "test") == "kennedy"
    assert g["bag"] == {"kennedy": 2, "nixon": 0}


def test_r3_3_r3_4_initiative_check_refills_when_the_bag_runs_dry() -> None:
    g = _g({"kennedy": 1, "nixon": 0})
    winner = board.initiative_check(g, "test")
    assert winner in ("kennedy", "nixon")
    assert 16 <= sum(g["bag"].values()) <= 19  # refilled with 20 after the first cube


def test_r3_5_r17_1_bag_counts_are_public() -> None:
    g = _g({"kennedy": 4, "nixon": 7})
    for side in ("kennedy", "nixon", None):
        assert engine.view(g, side)["bag"] == {"kennedy": 4, "nixon": 7}


def test_the_log_counts_checks_and_successes_in_words() -> None:
    """Found by playing: "makes 2 support check(s) ... — 0 success(es)" in every report."""
    g = _g({"kennedy": 1, "nixon": 5})
    board.support_checks(g, "kennedy", 1, "Ohio")
    board.support_checks(g, "kennedy", 2, "Ohio")
    texts = [e["text"] for e in g["log"] if "support check" in e["text"]]
    assert texts[0].startswith("Kennedy makes 1 support check for Ohio: ")
    assert texts[0].endswith(" — 1 success.") or texts[0].endswith(" — 0 successes.")
    assert texts[1].startswith("Kennedy makes 2 support checks for Ohio: ")
    assert all("(s)" not in t and "(es)" not in t for t in texts)


def test_checks_on_an_empty_bag_say_so_once() -> None:
    """R3.4 from R13.3 on: it read 'Kennedy, the bag empty, the bag empty'."""
    g = _g({"kennedy": 1, "nixon": 0}, no_refill=True)
    board.support_checks(g, "kennedy", 3, "Ohio")
    board.support_checks(g, "kennedy", 2, "Iowa")
    assert [e["text"] for e in g["log"][-2:]] == [
        "Kennedy makes 3 support checks for Ohio: Kennedy, then the bag is empty — 1 success.",
        "Kennedy makes 2 support checks for Iowa: the bag is empty — 0 successes.",
    ]


def test_the_initiative_check_names_the_cubes_drawn() -> None:
    """As the support checks do (it read 'drew K K')."""
    g = _g({"kennedy": 4, "nixon": 0})
    board.initiative_check(g, "turn 2")
    assert g["log"][-1]["text"] == (
        "Initiative check for turn 2: drew Kennedy, Kennedy — Kennedy wins (R3.3)."
    )
