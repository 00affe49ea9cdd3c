"""R15-R16 The GMT edition: 12-cube bag (R16.1), momentum order (R16.2), checks for event
support (R16.3), media bonus cubes (R16.4), support tie-break (R16.5, in test_r14_winning),
97 cards (R16.6, in test_data), options (R16.7; R15.1 Vice Presidents, R15.2 positioning)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.data import REGIONS
from tests.engine.builders import action_position, at_step, legal, play, top

NO_MEDIA = {r: 0 for r in REGIONS}
NO_ISSUES = {"defense": 0, "economy": 0, "civil_rights": 0}
QUIET = {"kennedy": 0, "nixon": 0}


def test_r16_1_bag_starts_with_twelve_of_each() -> None:
    g = engine.new_game(4, edition="gmt")
    assert g["bag_size"] == 12
    assert 21 <= sum(g["bag"].values()) <= 22  # less the 2-3 cubes of the first initiative check


def test_r16_2_gmt_swap_comes_before_the_awards() -> None:
    # Kennedy leads Defense (1st), Nixon Economy (2nd); Kennedy has the media majority
    g = at_step(
        [{"step": "turn", "stage": "momentum", "i": 10}],
        edition="gmt",
        momentum=dict(QUIET),
        media={**NO_MEDIA, "east": 1},
        issues={**NO_ISSUES, "defense": 1, "economy": -1},
        endorse_deck=["south"],
        endorse_discard=[],
    )
    assert top(g)["step"] == "issue_swap" and top(g)["side"] == "kennedy"
    assert g["momentum"] == QUIET  # no award made yet
    g = play(g, "kennedy", "swap defense economy")
    # now Economy is 1st (Nixon: momentum + endorsement), Defense 2nd (Kennedy chooses)
    assert top(g)["step"] == "award_choice" and top(g)["side"] == "kennedy"
    g = play(g, "kennedy", "momentum")
    assert g["momentum"] == {"kennedy": 1, "nixon": 1}
    assert g["endorsements"]["south"] == -1
    assert g["issues"] == NO_ISSUES  # issue decay last
    assert top(g)["step"] == "strategy"


def test_r16_2_zman_awards_come_before_the_swap() -> None:
    g = at_step(
        [{"step": "turn", "stage": "momentum", "i": 10}],
        edition="zman",
        momentum=dict(QUIET),
        media={**NO_MEDIA, "east": 1},
        issues={**NO_ISSUES, "defense": 1, "economy": -1},
        endorse_deck=["south"],
        endorse_discard=[],
    )
    assert top(g)["step"] == "award_choice" and top(g)["side"] == "nixon"


def _event6(edition: str, **kw: Any) -> Any:
    g = action_position("kennedy", [6], edition=edition, clear_board=True, **kw)
    return play(g, "kennedy", "event 6")


def test_r16_3_event_support_where_the_opponent_carries_needs_a_check() -> None:
    g = _event6("gmt", states={"NY": -4}, bag={"kennedy": 0, "nixon": 5})
    g = play(g, "kennedy", "check NY 1")  # R16.3 [ruling]: a declared number, drawn together
    assert g["states"]["NY"] == -4  # the check failed
    assert g["bag"] == {"kennedy": 0, "nixon": 4}
    g = play(g, "kennedy", "support CT")  # no Nixon carry or token: no check
    assert g["states"]["CT"] == 1 and g["bag"] == {"kennedy": 0, "nixon": 4}


def test_r16_3_event_support_where_the_opponent_token_stands_needs_a_check() -> None:
    g = _event6("gmt", token={"kennedy": "MA", "nixon": "VT"}, bag={"kennedy": 3, "nixon": 0})
    g = play(g, "kennedy", "support VT 1")  # counted support: the R16.3 declaration
    assert g["states"]["VT"] == 1 and g["bag"] == {"kennedy": 2, "nixon": 0}


def test_r16_3_media_waives_the_event_checks() -> None:
    g = _event6(
        "gmt", states={"NY": -4}, media={**NO_MEDIA, "east": 1}, bag={"kennedy": 0, "nixon": 5}
    )
    g = play(g, "kennedy", "support NY")
    assert g["states"]["NY"] == -3 and g["bag"] == {"kennedy": 0, "nixon": 5}


def test_r16_3_does_not_apply_in_the_zman_edition() -> None:
    g = _event6("zman", states={"NY": -4}, bag={"kennedy": 0, "nixon": 5})
    g = play(g, "kennedy", "support NY")
    assert g["states"]["NY"] == -3 and g["bag"] == {"kennedy": 0, "nixon": 5}


@pytest.mark.parametrize(("edition", "extra"), [("zman", (0, 0)), ("gmt", (3, 1))])
def test_r16_4_media_cubes_add_bonus_cubes_from_supply(
    edition: str, extra: tuple[int, int]
) -> None:
    g = at_step(
        [{"step": "election", "stage": "bonus"}],
        edition=edition,
        turn=9,
        phase="election",
        bag={"kennedy": 0, "nixon": 0},
        momentum=dict(QUIET),
        issues=dict(NO_ISSUES),
        media={**NO_MEDIA, "west": 2, "south": 1, "east": -1},
        stacks={"kennedy": [], "nixon": []},
    )
    line = next(e["text"] for e in g["log"] if e["text"].startswith("Bonus cubes"))
    k, n = 3 + extra[0], 1 + extra[1]
    assert line.endswith(
        f": {k} Kennedy and {n} Nixon; it now holds {k} Kennedy and {n} Nixon cubes."
    )


def test_r15_1_vice_president_replaces_a_discarded_own_icon_card() -> None:
    g = action_position(
        "kennedy", [41, 40, 58], edition="gmt", options=("vice_presidents",), momentum=dict(QUIET)
    )
    vps = [c for c in legal(g, "kennedy") if c.startswith("vp")]
    assert vps == ["vp 41"]  # only a card with Kennedy's icon alone (not #40 both, not #58 Nixon)
    g = play(g, "kennedy", "vp 41")
    assert 41 in g["discard"] and g["hands"]["kennedy"] == [40, 58]
    assert "position 39" in legal(g, "kennedy")
    assert "position 40" not in legal(g, "kennedy")
    g = play(g, "kennedy", "position 39", "issue defense", "issue economy", "issue civil rights")
    assert g["vp"]["kennedy"] is None and 39 in g["discard"]
    assert top(g)["side"] == "nixon"


def test_r15_1_vice_presidents_only_with_the_option() -> None:
    g = action_position("kennedy", [41], edition="gmt")
    assert not [c for c in legal(g, "kennedy") if c.startswith("vp")]
    assert g["vp"] == {"kennedy": None, "nixon": None}


def test_r15_2_restricted_positioning_forbids_the_card_debate_issue() -> None:
    g = action_position(
        "kennedy", [40], edition="gmt", options=("restricted_positioning",), momentum=dict(QUIET)
    )
    g = play(g, "kennedy", "position 40")  # #40's debate issue is Defense
    assert legal(g, "kennedy") == ["issue economy", "issue civil_rights", "done"]
    with pytest.raises(engine.IllegalCommandError):
        engine.apply(g, "kennedy", "issue defense")


def test_r15_2_unrestricted_without_the_option_or_with_the_candidate_card() -> None:
    g = action_position("kennedy", [40], edition="gmt", momentum=dict(QUIET))
    assert "issue defense" in legal(play(g, "kennedy", "position 40"), "kennedy")
    g = action_position(
        "kennedy", [40], edition="gmt", options=("restricted_positioning",), momentum=dict(QUIET)
    )
    assert "issue defense" in legal(play(g, "kennedy", "candidate position"), "kennedy")
