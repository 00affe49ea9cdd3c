"""#1 Greater Houston Ministerial Association: Kennedy's token goes to Texas at no travel cost, Kennedy
gains 1 momentum and places up to 5 state support anywhere, max 1 per state. The card then stays on the
board as a prevention event (R6.4): #9 Baptist Ministers, #44 Puerto Rican Bishops and #73 Norman
Vincent Peale can no longer take effect, neither played as events nor triggered."""

import pytest

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, position_with

PREVENTED = (9, 44, 73)


def test_token_momentum_and_five_support_max_one_per_state() -> None:
    g = played("kennedy", 1, clear_board=True, momentum={"kennedy": 2, "nixon": 2})
    assert g["token"]["kennedy"] == "TX" and g["token"]["nixon"] == "CA"
    assert g["momentum"] == {"kennedy": 3, "nixon": 2}
    assert len(engine.legal_commands(g, "kennedy")) == 51  # every state, then 'done'
    for st in ("NY", "PA", "OH", "IL", "CA"):
        g = play(g, "kennedy", f"support {st}")
        assert f"support {st}" not in engine.legal_commands(g, "kennedy"), "max 1 per state"
    assert {st: v for st, v in g["states"].items() if v} == {
        "NY": 1,
        "PA": 1,
        "OH": 1,
        "IL": 1,
        "CA": 1,
    }
    assert awaiting_action(g, "nixon"), "the fifth point ends the placement"
    assert g["persistent"]["prevention"] == [1] and 1 not in g["removed"] and conserved(g)


def test_up_to_five_and_a_point_first_removes_a_nixon_cube() -> None:
    """R1.4: a point placed where Nixon has cubes removes one of them."""
    g = played("kennedy", 1, clear_board=True, states={"NY": -2})
    g = play(g, "kennedy", "support NY", "done")
    assert g["states"]["NY"] == -1 and sum(1 for v in g["states"].values() if v) == 1
    assert awaiting_action(g, "nixon") and g["persistent"]["prevention"] == [1]


def test_nixon_playing_it_still_helps_kennedy() -> None:
    g = played("nixon", 1, clear_board=True, momentum={"kennedy": 0, "nixon": 0})
    assert g["token"]["kennedy"] == "TX" and g["momentum"] == {"kennedy": 1, "nixon": 0}
    assert engine.active_sides(g) == {"kennedy"}
    g = play(g, "kennedy", "support WI")
    assert g["states"]["WI"] == 1


@pytest.mark.parametrize("card", PREVENTED)
def test_prevents_the_three_events(card: int) -> None:
    """R6.4 [ruling]: a prevented event can be neither played as an event nor triggered."""
    g = position_with("nixon", card, extra=[89], persistent={"prevention": [1]})
    legal = engine.legal_commands(g, "nixon")
    assert f"event {card}" not in legal and f"campaign {card}" in legal
    assert f"campaign {card} preempt" not in legal  # nothing to preempt
    assert "event 89" in legal, "other events stay playable"
    with pytest.raises(engine.IllegalCommandError, match=r"prevented by #1 .*R6.4"):
        engine.apply(g, "nixon", f"event {card}")
    g = position_with(
        "kennedy", card, persistent={"prevention": [1]}, momentum={"kennedy": 2, "nixon": 2}
    )
    g = play(g, "kennedy", f"position {card}", "done")
    assert engine.legal_commands(g, "nixon") != ["trigger", "decline"]
    assert g["discard"][-1] == card and conserved(g)


def test_the_log_lists_what_it_prevents_as_a_sentence() -> None:
    g = play(played("kennedy", 1), "kennedy", "done")  # no support placed: the event ends
    assert (
        "#1 Greater Houston Ministerial Association stays on the board for the rest of the game: "
        "#9 Baptist Ministers, #73 Norman Vincent Peale and #44 Puerto Rican Bishops can no "
        "longer take effect (R6.4)." in [e["text"] for e in g["log"]]
    )
