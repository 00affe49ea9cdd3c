"""#4 Citizens for Nixon-Lodge: every card Nixon plays this turn is worth 1 CP more, max 5 (R6.3, R6.5)."""

from engine import effects
from tests.engine.builders import action_position, play
from tests.engine.cards.part1_helpers import conserved, triggered


def test_nixon_cards_gain_one_cp_capped_at_five() -> None:
    """The effect raises Nixon's CP for any use, never above 5 (a 4-CP card gives 5, not 6)."""
    g = action_position("nixon", [4, 27, 42], other_hand=[])
    g = play(g, "nixon", "event 4")
    assert [(e["id"], e["side"], e["card"]) for e in g["effects"]] == [
        ("cp_plus_one_any_use", "nixon", 4)
    ]
    assert 4 in g["removed"]
    for kind in ("campaign", "advertise", "position"):
        assert effects.cp_value(g, "nixon", 3, kind) == 4
    assert effects.cp_value(g, "nixon", 4, "campaign") == 5
    assert effects.cp_value(g, "nixon", 5, "campaign") == 5
    assert effects.cp_value(g, "kennedy", 3, "campaign") == 3
    g = play(g, "kennedy", "candidate position", "done")
    g = play(g, "nixon", "position 27")  # #27 is a 3-CP card
    assert g["stack"][-1]["step"] == "position" and g["stack"][-1]["cp"] == 4
    assert conserved(g)


def test_triggered_by_kennedy_still_helps_nixon() -> None:
    """The card names Nixon: resolved by Kennedy (R6.7) it still raises Nixon's CP only."""
    g = triggered("kennedy", 4)
    assert [(e["id"], e["side"]) for e in g["effects"]] == [("cp_plus_one_any_use", "nixon")]
    assert g["momentum"]["kennedy"] == 1
    assert effects.cp_value(g, "kennedy", 2, "campaign") == 2
    assert effects.cp_value(g, "nixon", 2, "campaign") == 3


def test_effect_ends_with_the_turn() -> None:
    """R6.3: rest-of-turn effects are cleared at the end of the turn."""
    g = action_position("nixon", [4], other_hand=[])
    g = play(g, "nixon", "event 4")
    effects.clear_turn_effects(g)
    assert effects.cp_value(g, "nixon", 3, "campaign") == 3
