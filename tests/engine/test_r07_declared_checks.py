"""Declared support checks: the R7.4 and R16.3 [ruling]s.

R7.4 [ruling]: where support checks are required, the number of CP for the state is
declared once, before the first cube is drawn; after the draws no further CP may go to
that state in the same action, even if the opponent no longer carries it — in the
step-by-step form (``check NY 2``) exactly as in the one-line form (``campaign 55: NY 2``).
R16.3 [ruling] (GMT): support an event places where the opponent carries or occupies the
state is declared the same way, once per state per event (``support NY 2`` = ``check NY 2``).
"""

from __future__ import annotations

import pytest

import engine
from engine.errors import IllegalCommandError
from tests.engine.builders import action_position, legal, play, top
from tests.engine.cards.part1_helpers import played

QUIET = {"kennedy": 0, "nixon": 0}  # no momentum: no trigger decision after the play
ALL_KENNEDY = {"kennedy": 9, "nixon": 0}  # every draw succeeds for Kennedy
ALL_NIXON = {"kennedy": 0, "nixon": 9}  # every draw fails for Kennedy


def _campaign(cp_card: int = 55, **kw: object) -> engine.GameState:
    """Kennedy (token in MA) campaigns with ``cp_card`` (#55: 4 CP, #40: 3 CP)."""
    kw.setdefault("momentum", dict(QUIET))
    kw.setdefault("clear_board", True)
    g = action_position("kennedy", [cp_card], **kw)  # type: ignore[arg-type]
    return play(g, "kennedy", f"campaign {cp_card}")


def _in_state(cmds: list[str], st: str) -> list[str]:
    return [c for c in cmds if c.split()[0] in ("support", "check") and c.split()[1] == st]


# -- R7.4 ruling: the legal list -----------------------------------------------------------


def test_r7_4_ruling_every_affordable_declaration_is_offered_once() -> None:
    g = _campaign(states={"NY": -4})  # 4 CP, NY in the same region: no travel
    assert _in_state(legal(g, "kennedy"), "NY") == [
        "check NY 1",
        "check NY 2",
        "check NY 3",
        "check NY 4",
    ]


@pytest.mark.parametrize(("bag", "after"), [(ALL_KENNEDY, -3), (ALL_NIXON, -4)])
def test_r7_4_ruling_after_the_draws_nothing_more_goes_to_that_state(
    bag: dict[str, int], after: int
) -> None:
    """Success or failure: the declaration is spent, the state is closed for the action."""
    g = _campaign(states={"NY": -4}, bag=dict(bag))
    g = play(g, "kennedy", "check NY 1")
    assert g["states"]["NY"] == after and top(g)["step"] == "campaign" and top(g)["cp"] == 3
    assert _in_state(legal(g, "kennedy"), "NY") == []
    assert "support CT" in legal(g, "kennedy")  # other states stay open
    for again in ("check NY 1", "support NY", "support NY 2"):
        with pytest.raises(IllegalCommandError, match="already drawn in NY"):
            engine.apply(g, "kennedy", again)


def test_r7_4_ruling_no_free_support_once_the_carry_is_broken() -> None:
    """The bug this ruling fixes: `check NY 1` broke Nixon's carry, then `support NY` was free."""
    g = _campaign(states={"NY": -4}, bag=dict(ALL_KENNEDY))
    g = play(g, "kennedy", "check NY 1")
    assert not engine.board.carries(g, "NY", "nixon")  # no longer carried ...
    assert "support NY" not in legal(g, "kennedy")  # ... yet closed for this action


def test_r7_4_ruling_state_changing_hands_mid_draw() -> None:
    """Nixon leads NY by 1 and his token stands there; three successes make it Kennedy's
    (R1.4 one cube at a time); the declaration still closes NY for the action."""
    g = _campaign(states={"NY": -1}, token={"kennedy": "MA", "nixon": "NY"}, bag=dict(ALL_KENNEDY))
    g = play(g, "kennedy", "check NY 3")
    assert g["states"]["NY"] == 2 and g["token"]["kennedy"] == "NY"
    assert _in_state(legal(g, "kennedy"), "NY") == [] and top(g)["cp"] == 1


def test_r7_4_ruling_a_new_action_may_declare_again() -> None:
    """The closure lasts for one action only (R7.4: 'in that activity phase')."""
    g = action_position(
        "kennedy",
        [40, 55],
        other_hand=[49],
        momentum=dict(QUIET),
        clear_board=True,
        states={"NY": -4},
        bag=dict(ALL_NIXON),
    )
    g = play(g, "kennedy", "campaign 40", "check NY 1", "done")
    g = play(g, "nixon", "campaign 49", "done")
    g = play(g, "kennedy", "campaign 55")
    assert _in_state(legal(g, "kennedy"), "NY") == [
        "check NY 1",
        "check NY 2",
        "check NY 3",
        "check NY 4",
    ]


# -- R7.4 ruling: the one-line form declares exactly like the step-by-step form -------------


def test_r7_4_ruling_one_line_and_step_by_step_forms_agree() -> None:
    kw = {"states": {"NY": -4, "CT": -1}}
    a = play(_campaign(**kw), "kennedy", "check NY 3", "support CT")
    b = play(
        action_position("kennedy", [55], momentum=dict(QUIET), clear_board=True, **kw),
        "kennedy",
        "campaign 55: NY 3, CT 1",
    )
    assert engine.to_json(a) == engine.to_json(b)


def test_r7_4_ruling_one_line_form_cannot_declare_a_state_twice() -> None:
    g = action_position("kennedy", [55], momentum=dict(QUIET), clear_board=True, states={"NY": -4})
    with pytest.raises(IllegalCommandError, match="already drawn in NY"):
        engine.apply(g, "kennedy", "campaign 55: NY 2, NY 1")
    assert top(play(g, "kennedy", "campaign 55: NY 3, CT 1"))["step"] == "action"


def test_r7_4_bare_support_where_checks_are_required_asks_for_the_declaration() -> None:
    g = _campaign(states={"NY": -4})
    with pytest.raises(
        IllegalCommandError, match="declare every point for it at once, 'check NY N'"
    ):
        engine.apply(g, "kennedy", "support NY")
    g = play(g, "kennedy", "support NY 2")  # a counted support is the declaration
    assert top(g)["cp"] == 2 and top(g)["checked"] == ["NY"]


# -- #83 Whistlestop: a campaign action under the same ruling -------------------------------


@pytest.mark.parametrize("bag", [ALL_KENNEDY, ALL_NIXON])
def test_r7_4_ruling_whistlestop(bag: dict[str, int]) -> None:
    g = played("kennedy", 83, clear_board=True, states={"NY": -4, "CT": -4}, bag=dict(bag))
    assert _in_state(legal(g, "kennedy"), "NY") == ["check NY 1"]  # at most 1 CP per state
    g = play(g, "kennedy", "check NY 1")
    assert _in_state(legal(g, "kennedy"), "NY") == [] and top(g)["cp"] == 6
    assert _in_state(legal(g, "kennedy"), "CT") == ["check CT 1"]


# -- R16.3 ruling (GMT): event support with checks ------------------------------------------


def _gmt_event(card: int = 43, **kw: object) -> engine.GameState:
    """#43 (Kennedy places 7 support, at most 2 per state) played in a GMT game."""
    kw.setdefault("clear_board", True)
    return played("kennedy", card, edition="gmt", **kw)


def test_r16_3_ruling_declaration_offered_up_to_the_event_limits() -> None:
    g = _gmt_event(states={"NY": -4})
    cmds = legal(g, "kennedy")
    assert top(g)["step"] == "place_support"
    assert _in_state(cmds, "NY") == ["check NY 1", "check NY 2"]  # per state: 2
    assert "support OH" in cmds  # no carry, no token: placed outright


@pytest.mark.parametrize(("bag", "after"), [(ALL_KENNEDY, -2), (ALL_NIXON, -4)])
def test_r16_3_ruling_support_n_is_one_declaration_drawn_together(
    bag: dict[str, int], after: int
) -> None:
    g = _gmt_event(states={"NY": -4}, bag=dict(bag))
    drawn = sum(g["bag"].values())
    g = play(g, "kennedy", "support NY 2")
    assert g["states"]["NY"] == after and sum(g["bag"].values()) == drawn - 2
    assert top(g)["left"] == 5 and _in_state(legal(g, "kennedy"), "NY") == []


def test_r16_3_ruling_once_per_state_even_below_the_per_state_limit() -> None:
    g = _gmt_event(states={"NY": -4}, bag=dict(ALL_KENNEDY))
    g = play(g, "kennedy", "check NY 1")  # carry broken, 1 of the 2 allowed points used
    assert g["states"]["NY"] == -3
    assert _in_state(legal(g, "kennedy"), "NY") == []
    with pytest.raises(IllegalCommandError, match="already drawn in NY"):
        engine.apply(g, "kennedy", "support NY")


def test_r16_3_ruling_opponent_token_and_changing_hands() -> None:
    g = _gmt_event(states={"OH": -1}, token={"kennedy": "MA", "nixon": "OH"}, bag=dict(ALL_KENNEDY))
    g = play(g, "kennedy", "check OH 2")
    assert g["states"]["OH"] == 1  # Nixon's cube removed, then one Kennedy cube (R1.4)
    assert _in_state(legal(g, "kennedy"), "OH") == []


def test_r16_3_ruling_own_media_waives_the_checks() -> None:
    g = _gmt_event(states={"NY": -4}, media={"west": 0, "midwest": 0, "south": 0, "east": 1})
    assert _in_state(legal(g, "kennedy"), "NY") == ["support NY"]


def test_r6_10_zman_events_place_support_without_checks() -> None:
    g = played("kennedy", 43, clear_board=True, states={"NY": -4})
    assert _in_state(legal(g, "kennedy"), "NY") == ["support NY"]
    g = play(g, "kennedy", "support NY", "support NY")
    assert g["states"]["NY"] == -2


def test_checks_rule_is_checks_required_for_every_state_of_seeded_positions() -> None:
    """`board.checks_rule` (the listings' form of R7.4/R16.3) answers as `checks_required`."""
    import random

    from engine import board
    from engine.data import SIDES, STATES, other

    for seed in range(6):
        g = engine.new_game(seed, edition="gmt")
        rnd = random.Random(seed)
        for _ in range(120):
            side = sorted(engine.active_sides(g))[0]
            engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
            for s in SIDES:
                rule = board.checks_rule(g, s)
                assert all(
                    rule(st)
                    == (
                        (board.carries(g, st, other(s)) or board.occupies(g, st, other(s)))
                        and not board.has_media(g, s, STATES[st].region)
                    )
                    for st in STATES
                )
