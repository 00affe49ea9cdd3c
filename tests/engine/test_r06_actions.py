"""R6 Activity phases: events, CP plays, rest cubes, triggering (R6.7), preempting (R6.8),
the candidate card (R6.9), persistent and prevention events (R6.4), support loss (R6.6)."""

from __future__ import annotations

import pytest

import engine
from tests.engine.builders import action_position, all_cards, legal, play, top


def test_r6_1_first_player_then_the_other_each_activity_phase() -> None:
    g = engine.new_game(9)
    (winner,) = engine.active_sides(g)
    g = engine.apply(g, winner, "first kennedy")
    order = []
    for _ in range(4):
        (side,) = engine.active_sides(g)
        order.append((g["round"], side))
        g = engine.apply(
            g, side, "candidate position" if g["candidate"][side] == "active" else legal(g, side)[0]
        )
        while top(g)["step"] != "action":
            s = next(iter(engine.active_sides(g)))
            g = engine.apply(g, s, "done" if "done" in legal(g, s) else legal(g, s)[-1])
    assert order == [(1, "kennedy"), (1, "nixon"), (2, "kennedy"), (2, "nixon")]


def test_r6_2_rest_cubes_for_a_card_played_for_cp() -> None:
    g = action_position("kennedy", [40], momentum={"kennedy": 0, "nixon": 0})
    g = play(g, "kennedy", "position 40", "issue defense", "issue economy", "issue civil rights")
    assert g["rest"] == {"kennedy": 1, "nixon": 0}
    assert g["discard"][-1] == 40  # R6.5


def test_r6_2_rest_cubes_for_a_card_played_as_an_event() -> None:
    g = action_position("kennedy", [6])
    g = play(g, "kennedy", "event 6", "done")
    assert g["rest"]["kennedy"] == 1


def test_r6_3_event_card_leaves_the_game_never_to_the_discard() -> None:
    g = action_position("nixon", [22], clear_board=True, states={"MA": 2})
    g = play(g, "nixon", "event 22")
    assert 22 in g["removed"] and 22 not in g["discard"]


def test_r6_5_candidate_and_card_cp_cannot_be_split_unspent_cp_lost() -> None:
    g = action_position("kennedy", [40], momentum={"kennedy": 0, "nixon": 0})
    g = play(g, "kennedy", "campaign 40", "support MA", "done")
    assert g["states"]["MA"] == engine.STATES["MA"].start + 1
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"
    assert 40 in g["discard"]


def test_r6_7_opponent_may_trigger_with_one_momentum() -> None:
    g = action_position("kennedy", [6], momentum={"kennedy": 0, "nixon": 1})
    g = play(g, "kennedy", "position 6", "issue defense", "issue economy", "issue civil rights")
    assert engine.active_sides(g) == {"nixon"}
    assert legal(g, "nixon") == ["trigger", "decline"]
    g = play(g, "nixon", "trigger")
    assert g["momentum"]["nixon"] == 0
    # the event is resolved as if Nixon played it: #6 has Kennedy place support
    assert top(g)["step"] == "place_support" and top(g)["side"] == "kennedy"
    g = play(g, "kennedy", "support CT", "done")
    assert 6 in g["removed"] and 6 not in g["discard"]  # R6.7: leaves the game, as R6.3
    assert g["rest"] == {"kennedy": 1, "nixon": 0}  # R6.2: no rest cubes for the trigger


def test_r6_7_trigger_resolves_for_the_triggering_player() -> None:
    # #22 Gaffe: the *opponent* of whoever resolves it loses momentum and token-state cubes
    g = action_position(
        "kennedy", [22], clear_board=True, states={"MA": 4}, momentum={"kennedy": 2, "nixon": 1}
    )
    g = play(g, "kennedy", "position 22", "issue defense", "issue defense", "issue economy")
    g = play(g, "nixon", "trigger")
    assert g["momentum"] == {"kennedy": 1, "nixon": 0}
    assert g["states"]["MA"] == 1


def test_r6_7_decline_sends_the_card_to_the_discard_pile() -> None:
    g = action_position("kennedy", [22], momentum={"kennedy": 0, "nixon": 3})
    g = play(g, "kennedy", "position 22", "issue defense", "issue defense", "issue economy")
    g = play(g, "nixon", "decline")
    assert g["discard"][-1] == 22 and g["momentum"]["nixon"] == 3
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"


def test_r6_7_no_trigger_offered_without_momentum() -> None:
    g = action_position("kennedy", [22], momentum={"kennedy": 0, "nixon": 0})
    g = play(g, "kennedy", "position 22", "issue defense", "issue defense", "issue economy")
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"
    assert g["discard"][-1] == 22


def test_r6_8_preempt_costs_two_momentum_and_stops_the_trigger() -> None:
    g = action_position("kennedy", [22], momentum={"kennedy": 2, "nixon": 3})
    assert "position 22 preempt" in legal(g, "kennedy")
    g = play(g, "kennedy", "position 22 preempt", "issue defense", "issue defense", "issue economy")
    assert g["momentum"] == {"kennedy": 0, "nixon": 3}
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"  # no trigger decision
    assert g["discard"][-1] == 22  # discarded normally


def test_r6_8_preempt_needs_two_momentum() -> None:
    g = action_position("kennedy", [22], momentum={"kennedy": 1, "nixon": 0})
    assert not [c for c in legal(g, "kennedy") if c.endswith("preempt")]
    with pytest.raises(engine.IllegalCommandError, match=r"R6\.8"):
        engine.apply(g, "kennedy", "campaign 22 preempt")


def test_r6_8_the_opponent_cannot_stop_an_event_played_as_event() -> None:
    # Kennedy's momentum is irrelevant to Nixon playing his own card as an event
    g = action_position(
        "nixon", [22], clear_board=True, states={"MA": 3}, momentum={"kennedy": 5, "nixon": 0}
    )
    g = play(g, "nixon", "event 22")
    assert g["states"]["MA"] == 0 and g["momentum"]["kennedy"] == 4


def test_r6_9_candidate_card_gives_5_cp_once_and_has_no_event() -> None:
    g = action_position("kennedy", [40], clear_board=True, momentum={"kennedy": 0, "nixon": 3})
    assert "candidate campaign" in legal(g, "kennedy")
    g = play(g, "kennedy", "candidate campaign", "support MA 5")
    assert g["states"]["MA"] == 5
    assert g["candidate"]["kennedy"] == "exhausted"
    assert g["rest"]["kennedy"] == 0
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"  # nothing to trigger
    g["stack"][-1]["side"] = "kennedy"
    assert not [c for c in legal(g, "kennedy") if c.startswith("candidate")]
    assert engine.view(g, None)["candidates"]["kennedy"] == "exhausted"


def test_r6_4_prevention_event_stays_and_blocks_named_events() -> None:
    g = action_position(
        "kennedy", [1], other_hand=[9, 73, 44, 41], momentum={"kennedy": 0, "nixon": 2}
    )
    g = play(g, "kennedy", "event 1", "done")
    assert g["persistent"]["prevention"] == [1]
    assert g["token"]["kennedy"] == "TX"
    assert top(g)["side"] == "nixon"
    nixon = legal(g, "nixon")
    for c in (9, 73, 44):
        assert f"event {c}" not in nixon  # neither played as event...
        assert f"campaign {c} preempt" not in nixon  # ...nor preempted (nothing to preempt)
        assert f"campaign {c}" in nixon
    with pytest.raises(engine.IllegalCommandError, match=r"prevented by #1 .*R6.4"):
        engine.apply(g, "nixon", "event 9")


def test_r6_4_a_prevented_event_cannot_be_triggered() -> None:
    g = action_position("nixon", [73], momentum={"kennedy": 3, "nixon": 0})
    g["persistent"]["prevention"] = [1]
    g["removed"] = [c for c in g["removed"] if c != 1]
    g["deck"] = [c for c in g["deck"] if c != 1]
    g = play(g, "nixon", "position 73", "issue economy", "issue economy")
    assert top(g)["step"] != "trigger"
    assert g["discard"][-1] == 73


def test_r6_6_loss_is_limited_to_the_board_and_the_opponent_gains_nothing() -> None:
    g = action_position(
        "nixon", [22], clear_board=True, states={"MA": 1}, momentum={"kennedy": 0, "nixon": 0}
    )
    g = play(g, "nixon", "event 22")
    assert g["states"]["MA"] == 0  # not -2: the shortfall gives Nixon nothing
    assert g["momentum"]["kennedy"] == 0


def test_r6_10_event_support_needs_no_checks_in_the_zman_edition() -> None:
    # Nixon carries NY and his token stands there; Kennedy has no media: campaigning would check
    g = action_position(
        "kennedy",
        [6],
        clear_board=True,
        states={"NY": -5},
        token={"kennedy": "MA", "nixon": "NY"},
        bag={"kennedy": 0, "nixon": 9},
    )
    g = play(g, "kennedy", "event 6", "support NY", "support NY")
    assert g["states"]["NY"] == -3
    assert g["bag"] == {"kennedy": 0, "nixon": 9}


def test_r6_3_rest_of_turn_effect_lasts_until_the_end_of_the_turn() -> None:
    # #2 Nixon's Knee: Nixon's campaigning costs 1 extra momentum for the rest of the turn
    g = action_position("kennedy", [2], other_hand=[40], momentum={"kennedy": 0, "nixon": 1})
    g = play(g, "kennedy", "event 2")
    assert g["token"]["nixon"] == "MD"
    assert [e["id"] for e in g["effects"]] == ["nixons_knee"]
    assert "campaign 40" in legal(g, "nixon")
    g = play(g, "nixon", "campaign 40", "done")
    assert g["momentum"]["nixon"] == 0
    assert engine.view(g, None)["effects"] == [
        {"card": 2, "side": "kennedy", "name": "Nixon's Knee"}
    ]
    # now Nixon cannot pay: campaigning is not offered
    g["hands"]["nixon"] = [41]
    g["deck"].remove(41)
    g["stack"][-1] = {"step": "action", "side": "nixon"}
    assert "campaign 41" not in legal(g, "nixon") and "position 41" in legal(g, "nixon")
    # the turn's end clears it (R6.3)
    g["stack"] = [{"step": "game"}, {"step": "turn", "stage": "end", "i": 10}]
    engine.flow.advance(g)
    assert g["effects"] == [] and g["turn"] == 2


def test_cards_stay_conserved_through_a_trigger() -> None:
    g = action_position("kennedy", [6, 40], momentum={"kennedy": 0, "nixon": 1})
    before = sorted(all_cards(g))
    g = play(g, "kennedy", "position 6", "issue defense", "issue economy", "issue civil rights")
    assert sorted(all_cards(g)) == before
    g = play(g, "nixon", "trigger")
    assert sorted(all_cards(g)) == before
