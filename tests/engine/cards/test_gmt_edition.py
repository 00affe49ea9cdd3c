"""The GMT 2017 edition: its six extra cards (R16.6) and its optional rules, Vice Presidents (R15.1)
and restricted positioning (R15.2), chosen at creation only in a GMT game (R15.3, R16.7)."""

import pytest

import engine
from tests.engine.builders import action_position, all_cards, play, top
from tests.engine.cards.part1_helpers import awaiting_action, conserved

GMT_ONLY = [92, 93, 94, 95, 96, 97]


def test_gmt_only_cards_are_in_a_gmt_game() -> None:
    g = engine.new_game(3, edition="gmt")
    cards = all_cards(g)
    assert all(cards.count(c) == 1 for c in GMT_ONLY) and len(cards) == 97
    assert all(engine.CARDS[c].gmt_only for c in GMT_ONLY)


def test_gmt_only_cards_are_absent_from_a_zman_game() -> None:
    g = engine.new_game(3)
    cards = all_cards(g)
    assert not set(GMT_ONLY) & set(cards) and len(cards) == 91


def test_options_need_the_gmt_edition() -> None:
    with pytest.raises(ValueError, match=r"R16\.7"):
        engine.new_game(1, options=["vice_presidents"])


# -- R15.1 Vice Presidents ------------------------------------------------------------------------


def _vp(side: str, hand: list[int], **kw: object) -> engine.GameState:
    return action_position(
        side, hand, edition="gmt", options=("vice_presidents",), other_hand=[], **kw
    )


def test_vp_cards_leave_the_deck_at_setup() -> None:
    g = engine.new_game(5, edition="gmt", options=["vice_presidents"])
    assert g["vp"] == {"kennedy": 39, "nixon": 42}
    assert (
        39 not in g["deck"] and 42 not in g["deck"] and sorted(all_cards(g)) == list(range(1, 98))
    )


def test_vp_offered_for_cards_with_only_the_own_icon() -> None:
    g = _vp("kennedy", [49, 52, 50])  # Kennedy icon, both icons, Nixon icon
    vp = [c for c in engine.legal_commands(g, "kennedy") if c.startswith("vp")]
    assert vp == ["vp 49"]


def test_vp_discards_the_card_and_plays_lyndon_johnson() -> None:
    g = _vp("kennedy", [49, 52], clear_board=True)
    g = play(g, "kennedy", "vp 49")
    assert 49 in g["discard"] and g["hands"]["kennedy"] == [52]
    legal = engine.legal_commands(g, "kennedy")
    assert "event 39" in legal and "campaign 39" in legal and not any("52" in c for c in legal)
    g = play(g, "kennedy", "event 39")  # Lyndon Johnson: 2 in Texas, then up to 3 in the South
    assert g["states"]["TX"] == 2 and g["vp"]["kennedy"] is None
    g = play(g, "kennedy", "done")
    assert 39 in g["removed"] and awaiting_action(g, "nixon") and conserved(g)


def test_vp_for_cp_then_gone() -> None:
    g = _vp("nixon", [50], momentum={"kennedy": 0, "nixon": 2})
    g = play(g, "nixon", "vp 50", "position 42")
    assert top(g)["step"] == "position" and top(g)["cp"] == 4
    g = play(g, "nixon", "done")
    assert 42 in g["discard"] and g["vp"]["nixon"] is None and conserved(g)
    assert not any(c.startswith("vp") for c in engine.legal_commands(g, "kennedy"))


def test_no_vp_without_the_option() -> None:
    g = action_position("kennedy", [49], edition="gmt", other_hand=[])
    assert not any(c.startswith("vp") for c in engine.legal_commands(g, "kennedy"))


# -- R15.2 restricted positioning -----------------------------------------------------------------


def test_positioning_may_not_add_to_the_played_cards_debate_issue() -> None:
    g = action_position(
        "kennedy", [51], edition="gmt", options=("restricted_positioning",)
    )  # economy
    g = play(g, "kennedy", "position 51")
    assert engine.legal_commands(g, "kennedy") == ["issue defense", "issue civil_rights", "done"]


def test_the_candidate_card_has_no_debate_issue() -> None:
    g = action_position("kennedy", [51], edition="gmt", options=("restricted_positioning",))
    g = play(g, "kennedy", "candidate position")
    assert engine.legal_commands(g, "kennedy")[:3] == [
        "issue defense",
        "issue economy",
        "issue civil_rights",
    ]


def test_without_the_option_positioning_is_free() -> None:
    g = action_position("kennedy", [51], edition="gmt")
    g = play(g, "kennedy", "position 51")
    assert "issue economy" in engine.legal_commands(g, "kennedy")


def test_issue_support_from_events_is_not_restricted() -> None:
    g = action_position(
        "nixon", [68], edition="gmt", options=("restricted_positioning",)
    )  # defense icon
    g = play(g, "nixon", "event 68")
    assert g["issues"]["defense"] == -1
