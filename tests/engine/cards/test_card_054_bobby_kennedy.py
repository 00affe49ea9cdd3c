"""#54 Bobby Kennedy: for the rest of the turn every card Kennedy plays is worth 1 CP more, never
more than 5 (R6.3 duration; reuses the effect of #4)."""

from tests.engine.builders import play, top
from tests.engine.cards.part1_helpers import new_log, played, position_with, triggered
from tests.engine.cards.part2_helpers import effect_ids, finish_turn


def test_kennedy_cards_worth_one_more_nixon_unchanged() -> None:
    g = played("kennedy", 54, extra=[59], other_hand=[89])  # 59: 3 CP; 89: Nixon, 2 CP
    assert effect_ids(g) == [("cp_plus_one_any_use", "kennedy")]
    g = play(g, "nixon", "campaign 89")
    assert top(g)["cp"] == 2
    g = play(g, "nixon", "done")
    g = play(g, "kennedy", "decline", "campaign 59")
    assert top(g)["cp"] == 4


def test_never_more_than_five() -> None:
    g = played("kennedy", 54, extra=[55], other_hand=[89])  # 55: 4 CP
    g = play(g, "nixon", "position 89", "done")
    g = play(g, "kennedy", "decline")
    before = g
    g = play(g, "kennedy", "position 55")
    assert "Kennedy plays #55 Hostile Press Corps for 5 CP to position (R6.5)." in new_log(
        before, g
    )
    assert top(g)["cp"] == 5


def test_triggered_by_kennedy_still_helps_kennedy() -> None:
    g = triggered("kennedy", 54)
    assert effect_ids(g) == [("cp_plus_one_any_use", "kennedy")]


def test_ends_with_the_turn() -> None:
    g = position_with("kennedy", 54, other_hand=[89])
    g["stack"][-2]["i"] = 9  # Kennedy's is the last action of the turn
    g = play(g, "kennedy", "event 54")
    assert effect_ids(g) == [("cp_plus_one_any_use", "kennedy")]
    g = finish_turn(g)
    assert g["effects"] == [] and g["turn"] == 2
