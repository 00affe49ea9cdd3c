"""#56 Opposition Research: Kennedy shows his whole hand to Nixon; Nixon then spends 3 CP. Ruling: the
hand is revealed to Nixon only (R17.2: Nixon's view shows it, marked as revealed at that moment); Nixon
takes one CP action (campaign, advertise or position) with 3 CP, as if from a 3-CP card: no rest
cubes, nothing to trigger."""

import engine
from tests.engine.builders import play, top
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    played,
    position_with,
    triggered,
)

NO_MOMENTUM = {"kennedy": 0, "nixon": 0}


def test_kennedy_hand_is_shown_to_nixon_only() -> None:
    g0 = position_with("nixon", 56, other_hand=[40, 41], momentum=dict(NO_MOMENTUM))
    g = play(g0, "nixon", "event 56")
    line = "Kennedy's hand: #40 Northern Blacks, #41 Pierre Salinger."
    assert line in new_log(g0, g, "nixon")
    assert line not in new_log(g0, g, "kennedy") and line not in new_log(g0, g)
    assert "Kennedy reveals his hand to Nixon." in new_log(g0, g)  # it read 'the hand'
    revealed = engine.view(g, "nixon")["revealed"][-1]
    assert revealed["side"] == "kennedy" and revealed["cards"] == [40, 41]
    assert revealed["card"] == 56 and revealed["seq"] == g0["seq"] + 1
    assert "revealed" not in engine.view(g, None)


def test_nixon_chooses_one_cp_action() -> None:
    g = played("nixon", 56, other_hand=[40], momentum=dict(NO_MOMENTUM))
    assert top(g)["step"] == "cp_choice"
    assert engine.legal_commands(g, "nixon") == ["campaign", "advertise", "position"]
    assert engine.legal_commands(g, "kennedy") == []


def test_three_cp_positioning_then_kennedy_acts() -> None:
    """R9.1: 3 CP buy one point in each issue; no rest cubes and no trigger follow (ruling)."""
    g = played("nixon", 56, other_hand=[40], momentum={"kennedy": 3, "nixon": 0})
    rest = dict(g["rest"])
    g = play(g, "nixon", "position", "issue defense", "issue economy", "issue civil_rights")
    assert g["issues"] == {"defense": -1, "economy": -1, "civil_rights": -1}
    assert g["rest"] == rest and g["momentum"] == {"kennedy": 3, "nixon": 0}
    assert awaiting_action(g, "kennedy"), (
        "the action ends after 3 CP; Kennedy is not asked to trigger"
    )
    assert 56 in g["removed"] and 56 not in g["discard"] and conserved(g)


def test_three_cp_campaigning() -> None:
    g = played(
        "nixon",
        56,
        other_hand=[40],
        clear_board=True,
        momentum=dict(NO_MOMENTUM),
        token={"kennedy": "MA", "nixon": "CA"},
    )
    g = play(g, "nixon", "campaign", "support CA", "support CA", "support OR")
    assert {st: v for st, v in g["states"].items() if v} == {"CA": -2, "OR": -1}
    assert g["token"]["nixon"] == "OR" and awaiting_action(g, "kennedy")


def test_three_cp_advertising() -> None:
    """R8.1: 3 support checks; with only Nixon cubes in the bag all three succeed."""
    g = played("nixon", 56, momentum=dict(NO_MOMENTUM), bag={"kennedy": 0, "nixon": 5})
    g = play(g, "nixon", "advertise", "media east", "media east", "media west")
    assert g["media"]["east"] == -2 and g["media"]["west"] == -1
    assert awaiting_action(g, "kennedy")


def test_kennedy_playing_it_still_helps_nixon() -> None:
    g = played("kennedy", 56, extra=[40, 41])
    assert engine.view(g, "nixon")["revealed"][-1]["cards"] == [40, 41]
    assert engine.active_sides(g) == {"nixon"} and top(g)["step"] == "cp_choice"
    g = triggered("nixon", 56, extra=[55])
    assert engine.view(g, "nixon")["revealed"][-1]["cards"] == [55]
    assert top(g)["step"] == "cp_choice" and top(g)["side"] == "nixon"
