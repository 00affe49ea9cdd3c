"""#69 Congressional Summer Session: for the rest of the turn every card Kennedy plays is worth 2 CP
less (never below 1); Kennedy's token goes at once to Maryland or Virginia, his choice, at no cost."""

import engine
from tests.engine.builders import play, top
from tests.engine.cards.part1_helpers import awaiting_action, conserved, new_log, played, triggered
from tests.engine.cards.part2_helpers import effect_ids


def test_kennedy_chooses_maryland_or_virginia() -> None:
    g = played("nixon", 69)
    assert engine.active_sides(g) == {"kennedy"}
    assert engine.legal_commands(g, "kennedy") == ["state MD", "state VA"]
    g = play(g, "kennedy", "state VA")
    assert g["token"]["kennedy"] == "VA" and awaiting_action(g, "kennedy") and conserved(g)
    assert effect_ids(g) == [("congressional_summer_session", "kennedy")]


def test_kennedy_cards_two_less() -> None:
    g = played("nixon", 69, other_hand=[55, 49, 61])  # 4, 3 and 4 CP
    g = play(g, "kennedy", "state MD")
    before = g
    g = play(g, "kennedy", "campaign 55")
    assert top(g)["cp"] == 2
    assert "Kennedy plays #55 Hostile Press Corps for 2 CP to campaign (R6.5)." in new_log(
        before, g
    )


def test_never_below_one() -> None:
    g = played("nixon", 69, other_hand=[57])  # 2 CP
    g = play(g, "kennedy", "state MD", "advertise 57")
    assert "Kennedy plays #57 A New Frontier for 1 CP to advertise (R6.5)." in [
        e["text"] for e in g["log"]
    ]


def test_candidate_card_also_two_less() -> None:
    g = played("nixon", 69)
    g = play(g, "kennedy", "state MD", "candidate position")
    assert top(g)["cp"] == 3


def test_nixon_unaffected() -> None:
    g = played("kennedy", 69, other_hand=[70])
    g = play(g, "kennedy", "state MD")
    g = play(g, "nixon", "campaign 70")
    assert top(g)["cp"] == 4


def test_triggered_by_nixon() -> None:
    g = triggered("nixon", 69)
    assert engine.legal_commands(g, "kennedy") == ["state MD", "state VA"]
