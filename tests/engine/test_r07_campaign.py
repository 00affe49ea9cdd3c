"""R7 Campaigning in states: travel (R7.3, Alaska/Hawaii), token movement (R7.2),
support checks required by carry or token and waived by media (R7.4), R1.4 removal."""

from __future__ import annotations

import pytest

from engine.data import travel_cost
from engine.phases.cp import needs_check
from tests.engine.builders import action_position, legal, play, top

QUIET = {"kennedy": 0, "nixon": 0}  # no momentum: no trigger decision after the play


def _campaign(cp_card: int = 40, **kw: object):  # type: ignore[no-untyped-def]
    """Kennedy (token in MA unless told) starts a campaign with ``cp_card`` (#40: 3 CP)."""
    kw.setdefault("momentum", dict(QUIET))
    kw.setdefault("clear_board", True)
    g = action_position("kennedy", [cp_card], **kw)  # type: ignore[arg-type]
    return play(g, "kennedy", f"campaign {cp_card}")


@pytest.mark.parametrize(
    ("a", "b", "cost"),
    [
        ("MA", "NY", 0),  # same region: free (R7.2)
        ("MA", "OH", 1),  # East-Midwest
        ("MA", "GA", 1),  # East-South
        ("OH", "TX", 1),  # Midwest-South
        ("CA", "OH", 1),  # West-Midwest
        ("CA", "TX", 1),  # West-South
        ("MA", "CA", 2),  # East-West crosses two borders
        ("CA", "AK", 1),  # West-Alaska
        ("CA", "HI", 1),  # West-Hawaii
        ("AK", "HI", 2),  # Alaska-Hawaii through the West
        ("MA", "AK", 3),
        ("TX", "HI", 2),
        ("AK", "AK", 0),
        ("HI", "WA", 1),
    ],
)
def test_r7_3_border_crossings(a: str, b: str, cost: int) -> None:
    assert travel_cost(a, b) == cost
    assert travel_cost(b, a) == cost


def test_r7_3_travel_costs_limit_what_a_card_can_reach() -> None:
    g = _campaign()  # 3 CP in MA
    cmds = legal(g, "kennedy")
    assert "support NY" in cmds and "support OH" in cmds and "support OR" in cmds
    assert "check CA 1" in cmds and "check CA 2" not in cmds  # Nixon's token: R7.4
    assert "support AK" not in cmds and "support HI" not in cmds  # 3 borders + 1 point = 4 CP
    assert "travel AK" in cmds and "travel HI" in cmds  # 3 CP of travel alone is possible
    assert "travel NY" not in cmds  # moving inside the region is not a travel step


def test_r7_3_alaska_and_hawaii_are_reached_only_through_the_west() -> None:
    g = _campaign(token={"kennedy": "HI", "nixon": "CA"})  # 3 CP in Hawaii
    cmds = legal(g, "kennedy")
    assert "support WA" in cmds and "support HI" in cmds
    assert "support AK" in cmds  # 2 CP travel + 1
    assert "support OH" in cmds  # HI-West-Midwest 2 + 1
    assert "support NY" not in cmds  # HI-West-Midwest-East 3 + 1
    g = play(g, "kennedy", "support AK")
    assert g["states"]["AK"] == 1 and g["token"]["kennedy"] == "AK"
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"  # 3 CP used up


def test_r7_2_token_follows_the_campaign_and_travel_pays_borders() -> None:
    g = _campaign(cp_card=55)  # 4 CP
    g = play(g, "kennedy", "support NY")
    assert g["token"]["kennedy"] == "NY" and top(g)["cp"] == 3
    g = play(g, "kennedy", "support OH")  # 1 border + 1 point
    assert g["token"]["kennedy"] == "OH" and top(g)["cp"] == 1
    assert g["states"]["NY"] == 1 and g["states"]["OH"] == 1
    g = play(g, "kennedy", "travel TX")  # a move with no campaigning (R7.2)
    assert g["token"]["kennedy"] == "TX"
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"


def test_r7_4_opponent_carrying_the_state_requires_declared_checks() -> None:
    g = _campaign(states={"NY": -4})
    cmds = legal(g, "kennedy")
    assert "support NY" not in cmds
    assert {"check NY 1", "check NY 2", "check NY 3"} <= set(cmds)
    assert "check NY 4" not in cmds
    assert "support CT" in cmds  # a neighbour without Nixon's carry: no checks


def test_r7_4_opponent_leading_without_carrying_needs_no_checks() -> None:
    g = _campaign(states={"NY": -3})
    assert "support NY" in legal(g, "kennedy")
    g = play(g, "kennedy", "support NY", "support NY", "support NY")
    assert g["states"]["NY"] == 0  # R1.4: each point removed a Nixon cube


def test_r7_4_opponent_token_requires_checks_even_in_an_empty_state() -> None:
    g = _campaign(token={"kennedy": "MA", "nixon": "CT"})
    assert "support CT" not in legal(g, "kennedy") and "check CT 3" in legal(g, "kennedy")
    assert needs_check(g, "kennedy", "CT") and not needs_check(g, "kennedy", "NY")


def test_r7_4_own_media_in_the_region_waives_the_checks() -> None:
    media = {"west": 0, "midwest": 0, "south": 0, "east": 1}
    g = _campaign(states={"NY": -6}, token={"kennedy": "MA", "nixon": "NY"}, media=media)
    assert "support NY" in legal(g, "kennedy")
    assert not [c for c in legal(g, "kennedy") if c.startswith("check")]


def test_r7_4_opponent_media_does_not_waive() -> None:
    media = {"west": 0, "midwest": 0, "south": 0, "east": -2}
    g = _campaign(states={"NY": -4}, media=media)
    assert "support NY" not in legal(g, "kennedy")


def test_r7_4_media_in_the_west_covers_alaska_and_hawaii() -> None:
    media = {"west": 1, "midwest": 0, "south": 0, "east": 0}
    g = _campaign(states={"HI": -4}, media=media, token={"kennedy": "CA", "nixon": "HI"})
    assert "support HI" in legal(g, "kennedy")


def test_r7_4_r3_1_successful_checks_remove_then_place() -> None:
    g = _campaign(cp_card=55, states={"NY": -4}, bag={"kennedy": 9, "nixon": 0})
    g = play(g, "kennedy", "check NY 4")
    assert g["states"]["NY"] == 0  # four checks, four successes, four Nixon cubes removed
    assert g["token"]["kennedy"] == "NY"


def test_r7_4_failed_checks_still_cost_the_cp() -> None:
    g = _campaign(states={"NY": -4}, bag={"kennedy": 0, "nixon": 9})
    g = play(g, "kennedy", "check NY 2")
    assert g["states"]["NY"] == -4
    assert top(g)["cp"] == 1
    assert g["bag"] == {"kennedy": 0, "nixon": 7}


def test_r7_4_after_breaking_the_carry_the_state_stays_closed_this_action() -> None:
    """R7.4 [ruling] (more in test_r07_declared_checks): one declaration per state per action."""
    g = _campaign(cp_card=55, states={"NY": -4}, bag={"kennedy": 9, "nixon": 0})
    g = play(g, "kennedy", "check NY 1")
    assert g["states"]["NY"] == -3
    assert not [c for c in legal(g, "kennedy") if c.endswith(" NY") or " NY " in c]


def test_r7_4_nixon_campaigning_against_kennedy() -> None:
    g = action_position(
        "nixon",
        [58],
        momentum=dict(QUIET),
        clear_board=True,
        states={"CA": 4, "OR": 2},
        bag={"kennedy": 0, "nixon": 4},
    )
    g = play(g, "nixon", "campaign 58")
    assert "support CA" not in legal(g, "nixon") and "support OR" in legal(g, "nixon")
    g = play(g, "nixon", "check CA 2", "support OR", "support OR")
    assert g["states"]["CA"] == 2 and g["states"]["OR"] == 0
