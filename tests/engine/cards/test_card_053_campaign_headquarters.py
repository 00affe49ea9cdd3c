"""#53 Campaign Headquarters: the player throws away any hand cards and replaces each from the deck.
Drawn cards are named only to their owner (R17.2); discards are public (R17.1)."""

import engine
from engine.board import card_label
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, new_log, played, triggered


def test_choices_are_each_hand_card_and_done() -> None:
    g = played("kennedy", 53, extra=[61, 62, 64])
    assert engine.legal_commands(g, "kennedy") == ["discard 61", "discard 62", "discard 64", "done"]


def test_discard_two_draw_two_from_the_deck_top() -> None:
    g = played("kennedy", 53, extra=[61, 62, 64])
    new = list(reversed(g["deck"][-2:]))
    before = g
    g = play(g, "kennedy", "discard 61", "discard 64", "done")
    assert sorted(g["hands"]["kennedy"]) == sorted([62, *new])
    assert g["discard"][-2:] == [61, 64]
    public = new_log(before, g)
    private = new_log(before, g, "kennedy")
    assert "Kennedy discards #61 Fatigue Sets In." in public
    assert not any(card_label(c) in t for c in new for t in public)
    assert any(all(card_label(c) in t for c in new) for t in private)
    assert not any(card_label(c) in t for c in new for t in new_log(before, g, "nixon"))
    assert awaiting_action(g, "nixon") and conserved(g)


def test_done_keeps_the_hand() -> None:
    g = played("nixon", 53, extra=[61])
    g = play(g, "nixon", "done")
    assert g["hands"]["nixon"] == [61] and awaiting_action(g, "kennedy")


def test_discarding_the_whole_hand_ends_the_choice() -> None:
    g = played("kennedy", 53, extra=[61])
    g = play(g, "kennedy", "discard 61")
    assert len(g["hands"]["kennedy"]) == 1 and awaiting_action(g, "nixon") and conserved(g)


def test_empty_hand_means_no_choice() -> None:
    g = played("kennedy", 53)
    assert awaiting_action(g, "nixon")


def test_triggered_the_triggering_player_replaces_own_cards() -> None:
    g = triggered("nixon", 53, other_hand=[61, 62])
    assert engine.legal_commands(g, "nixon") == ["discard 61", "discard 62", "done"]
    g = play(g, "nixon", "discard 62", "done")
    assert 62 not in g["hands"]["nixon"] and len(g["hands"]["nixon"]) == 2 and conserved(g)
