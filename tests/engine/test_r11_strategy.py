"""R11 Campaign Strategy phase: simultaneous secret placement, 1 or 2 cards,
Gathering Momentum restriction (R11.2), discards and rest cubes (R11.1, R11.3)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from tests.engine.builders import at_step, legal, play, top


def strategy_phase(turn: int, hands: dict[str, list[int]], **kw: Any) -> Any:
    """The strategy step of ``turn``; a parked decision below it stops the flow afterwards."""
    need = 1 if turn <= 5 else 2
    frames = [
        {"step": "choose_first", "side": "kennedy"},
        {"step": "strategy", "need": need, "picked": {"kennedy": 0, "nixon": 0}},
    ]
    return at_step(frames, turn=turn, hands=hands, **kw)


def test_r11_1_both_sides_decide_at_once_one_card_in_turns_1_to_5() -> None:
    g = strategy_phase(
        3,
        {"kennedy": [40, 41], "nixon": [58, 12]},
        rest={"kennedy": 2, "nixon": 1},
        bag={"kennedy": 5, "nixon": 5},
    )
    assert top(g)["step"] == "strategy"
    assert engine.active_sides(g) == {"kennedy", "nixon"}
    assert legal(g, "kennedy") == ["strategy 40", "strategy 41"]
    g = play(g, "nixon", "strategy 12")
    assert engine.active_sides(g) == {"kennedy"}
    assert legal(g, "nixon") == []
    g = play(g, "kennedy", "strategy 41")
    assert g["stacks"] == {"kennedy": [41], "nixon": [12]}
    assert g["hands"] == {"kennedy": [], "nixon": []}
    assert sorted(g["discard"][-2:]) == [40, 58]  # R11.1: the rest of the hand is discarded
    assert g["bag"] == {"kennedy": 7, "nixon": 6}  # R11.3: rest cubes into the bag
    assert g["rest"] == {"kennedy": 0, "nixon": 0}


def test_r4_1_the_turn_ends_after_the_strategy_phase() -> None:
    g = at_step(
        [{"step": "turn", "stage": "strategy", "i": 10}],
        turn=3,
        hands={"kennedy": [40], "nixon": [58]},
    )
    g = play(g, "kennedy", "strategy 40")
    g = play(g, "nixon", "strategy 58")
    assert g["turn"] == 4 and g["phase"] == "initiative"
    assert len(g["hands"]["kennedy"]) == len(g["hands"]["nixon"]) == 6  # R5.1
    assert top(g)["step"] == "choose_first"


def test_r11_1_two_cards_in_turns_7_and_8() -> None:
    g = strategy_phase(7, {"kennedy": [40, 41, 55], "nixon": [58, 12, 27]})
    g = play(g, "kennedy", "strategy 40")
    assert engine.active_sides(g) == {"kennedy", "nixon"}
    g = play(g, "kennedy", "strategy 55")
    assert legal(g, "kennedy") == []
    g = play(g, "nixon", "strategy 27", "strategy 12")
    assert g["stacks"] == {"kennedy": [40, 55], "nixon": [27, 12]}
    assert g["discard"][-2:] == [41, 58]


def test_r11_2_gathering_momentum_cards_never_go_on_the_stack() -> None:
    g = strategy_phase(2, {"kennedy": [14, 41], "nixon": [17, 58]})
    assert legal(g, "kennedy") == ["strategy 41"]
    with pytest.raises(engine.IllegalCommandError, match=r"R11\.2"):
        engine.apply(g, "kennedy", "strategy 14")


def test_r11_1_a_side_with_an_empty_hand_has_nothing_to_decide() -> None:
    g = strategy_phase(2, {"kennedy": [], "nixon": [58]})
    assert engine.active_sides(g) == {"nixon"}
    g = play(g, "nixon", "strategy 58")
    assert g["stacks"] == {"kennedy": [], "nixon": [58]}


def test_r11_2_a_hand_without_valid_cards_places_what_it_can() -> None:
    g = strategy_phase(7, {"kennedy": [15, 41], "nixon": [16, 17]})
    # Nixon can put nothing on the stack, but still decides (and passes), so that Kennedy
    # cannot tell from the active sides what Nixon holds (R17.2)
    assert engine.active_sides(g) == {"kennedy", "nixon"}
    assert legal(g, "nixon") == ["pass"]
    g = play(g, "kennedy", "strategy 41")
    assert legal(g, "kennedy") == ["pass"]  # one more needed, only a Gathering Momentum card left
    g = play(g, "nixon", "pass")
    assert g["stacks"]["nixon"] == [] and top(g)["step"] == "strategy"
    g = play(g, "kennedy", "pass")
    assert g["stacks"] == {"kennedy": [41], "nixon": []}
    assert {15, 16, 17} <= set(g["discard"])


def test_r11_4_the_stack_is_known_only_to_its_owner() -> None:
    g = strategy_phase(1, {"kennedy": [40, 41], "nixon": [58, 12]})
    g = play(g, "kennedy", "strategy 40")
    g = play(g, "nixon", "strategy 58")
    assert engine.view(g, "kennedy")["stack"] == [40]
    assert engine.view(g, "nixon")["stack"] == [58]
    for side in ("nixon", None):
        v = engine.view(g, side)
        assert v["stack_sizes"] == {"kennedy": 1, "nixon": 1}
        assert "Northern Blacks" not in str(v["log"])
    assert "#40 Northern Blacks" in str(engine.view(g, "kennedy")["log"])
