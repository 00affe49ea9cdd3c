"""#88 Stature Gap: for the rest of the turn each card Kennedy plays to position on issues is worth
2 CP less (never below 1)."""

from tests.engine.builders import play, top
from tests.engine.cards.part1_helpers import played, triggered
from tests.engine.cards.part2_helpers import effect_ids


def test_positioning_two_less() -> None:
    g = played("nixon", 88, other_hand=[55])  # 4 CP
    assert effect_ids(g) == [("stature_gap", "kennedy")]
    g = play(g, "kennedy", "position 55")
    assert top(g)["cp"] == 2


def test_never_below_one() -> None:
    g = played("nixon", 88, other_hand=[57])  # 2 CP
    g = play(g, "kennedy", "position 57")
    assert top(g)["cp"] == 1


def test_campaigning_unaffected() -> None:
    g = played("nixon", 88, other_hand=[55])
    g = play(g, "kennedy", "campaign 55")
    assert top(g)["cp"] == 4


def test_triggered() -> None:
    g = triggered("nixon", 88)
    assert effect_ids(g) == [("stature_gap", "kennedy")]
