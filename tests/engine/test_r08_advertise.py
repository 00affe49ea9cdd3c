"""R8 Advertising: one support check per CP, one media point per success (R8.1, R1.4)."""

from __future__ import annotations

import engine
from tests.engine.builders import action_position, legal, play, top

QUIET = {"kennedy": 0, "nixon": 0}


def test_r8_1_each_successful_check_places_one_media_point_anywhere() -> None:
    g = action_position("kennedy", [40], momentum=dict(QUIET), bag={"kennedy": 9, "nixon": 0})
    g = play(g, "kennedy", "advertise 40")
    assert g["bag"] == {"kennedy": 6, "nixon": 0}  # three checks (3 CP)
    assert top(g)["step"] == "advertise" and top(g)["left"] == 3
    assert legal(g, "kennedy") == ["media west", "media midwest", "media south", "media east"]
    g = play(g, "kennedy", "media west", "media west", "media south")
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
    g = action_position("kennedy", [40], momentum=dict(QUIET), media=media,
                        bag={"kennedy": 9, "nixon": 0})
    g = play(g, "kennedy", "advertise 40", "media east", "media east", "media east")
    assert g["media"]["east"] == 2
    assert engine.view(g, None)["media"]["east"] == {"side": "kennedy", "cubes": 2}


def test_r8_1_candidate_card_makes_five_checks() -> None:
    g = action_position("nixon", [40], momentum=dict(QUIET), bag={"kennedy": 0, "nixon": 9})
    g = play(g, "nixon", "candidate advertise")
    assert top(g)["left"] == 5 and g["bag"]["nixon"] == 4
    g = play(g, "nixon", "media east 5")
    assert g["media"]["east"] == -5
