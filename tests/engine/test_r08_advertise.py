"""R8 Advertising: one support check per CP, one media point per success (R8.1, R1.4)."""

from __future__ import annotations

import pytest

import engine
from tests.engine.builders import action_position, legal, play, top

QUIET = {"kennedy": 0, "nixon": 0}


def test_r8_1_each_successful_check_places_one_media_point_anywhere() -> None:
    g = action_position("kennedy", [40], momentum=dict(QUIET), bag={"kennedy": 9, "nixon": 0})
    g = play(g, "kennedy", "advertise 40")
    assert g["bag"] == {"kennedy": 6, "nixon": 0}  # three checks (3 CP)
    assert top(g)["step"] == "advertise" and top(g)["left"] == 3
    assert legal(g, "kennedy") == ["media west", "media midwest", "media south", "media east"]
    assert engine.decision(g, "kennedy") == (
        "Advertising: place 3 media points, each in a region of your choice (R8.1)."
    )
    g = play(g, "kennedy", "media west", "media west")
    assert engine.decision(g, "kennedy") == (
        "Advertising: place 1 media point in a region of your choice (R8.1)."
    )
    g = play(g, "kennedy", "media south")
    assert g["media"] == {"west": 2, "midwest": 0, "south": 1, "east": 0}
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"


def test_r8_1_failed_checks_place_nothing() -> None:
    g = action_position("kennedy", [40], momentum=dict(QUIET), bag={"kennedy": 0, "nixon": 9})
    g = play(g, "kennedy", "advertise 40")
    assert g["media"] == {"west": 0, "midwest": 0, "south": 0, "east": 0}
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"
    assert g["discard"][-1] == 40


def test_r8_1_r1_4_media_point_first_removes_an_opponent_media_cube() -> None:
    media = {"west": 0, "midwest": 0, "south": 0, "east": -1}
    g = action_position(
        "kennedy", [40], momentum=dict(QUIET), media=media, bag={"kennedy": 9, "nixon": 0}
    )
    g = play(g, "kennedy", "advertise 40", "media east", "media east", "media east")
    assert g["media"]["east"] == 2
    assert engine.view(g, None)["media"]["east"] == {"side": "kennedy", "cubes": 2}


def test_r8_1_candidate_card_makes_five_checks() -> None:
    g = action_position("nixon", [40], momentum=dict(QUIET), bag={"kennedy": 0, "nixon": 9})
    g = play(g, "nixon", "candidate advertise")
    assert top(g)["left"] == 5 and g["bag"]["nixon"] == 4
    g = play(g, "nixon", "media east 5")
    assert g["media"]["east"] == -5


# The declared order (issue 11): `advertise N: east 2, west 1` says, before the draw, where the
# successes go, in that order, as far as they go (R8.1: each success places one point anywhere;
# the player fixes the places in advance and sees no draw before choosing). Points declared
# beyond the successes are dropped, never rejected after the draw: a rejection would tell the
# player how many checks succeeded in a mail that was not applied (R17, fair play).


def test_r8_1_declared_order_places_the_successes_in_that_order_and_drops_the_rest() -> None:
    # a bag of exactly three cubes: one success in three checks, whatever the order
    g = action_position("kennedy", [40], momentum=dict(QUIET), bag={"kennedy": 1, "nixon": 2})
    g, applied = engine.apply_logged(g, "kennedy", "advertise 40: east 2, west 1")
    assert g["media"] == {"west": 0, "midwest": 0, "south": 0, "east": 1}
    assert applied == ["advertise 40", "media east"]  # the log holds what was placed, no more
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"


def test_r8_1_declared_points_beyond_every_success_are_not_an_error() -> None:
    g = action_position("kennedy", [40], momentum=dict(QUIET), bag={"kennedy": 0, "nixon": 9})
    g, applied = engine.apply_logged(g, "kennedy", "advertise 40: east 4")
    assert applied == ["advertise 40"]
    assert g["media"] == {"west": 0, "midwest": 0, "south": 0, "east": 0}
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"


def test_r8_1_successes_beyond_the_declared_points_are_still_asked() -> None:
    g = action_position("kennedy", [40], momentum=dict(QUIET), bag={"kennedy": 9, "nixon": 0})
    g = play(g, "kennedy", "advertise 40: south")
    assert g["media"]["south"] == 1
    assert top(g)["step"] == "advertise" and top(g)["left"] == 2
    assert engine.active_sides(g) == {"kennedy"}


def test_r8_1_declared_order_with_every_success_placed() -> None:
    g = action_position("kennedy", [40], momentum=dict(QUIET), bag={"kennedy": 9, "nixon": 0})
    g = play(g, "kennedy", "advertise 40: west 1, east 2")
    assert g["media"] == {"west": 1, "midwest": 0, "south": 0, "east": 2}
    assert top(g)["side"] == "nixon"


def test_r8_1_the_plain_media_form_after_the_draw_stays_exact() -> None:
    # after the draw the player knows the successes: placing more than are left is an error
    g = action_position("kennedy", [40], momentum=dict(QUIET), bag={"kennedy": 9, "nixon": 0})
    g = play(g, "kennedy", "advertise 40")
    with pytest.raises(engine.CommandError):
        engine.apply(g, "kennedy", "media east 4")
