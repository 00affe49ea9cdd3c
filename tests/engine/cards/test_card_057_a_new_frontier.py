"""#57 A New Frontier: Kennedy throws away any hand cards and replaces each from the deck
(names of the new cards private to Kennedy, R17.2)."""

import engine
from engine.board import card_label
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, new_log, played, triggered


def test_kennedy_replaces_cards() -> None:
    g = played("kennedy", 57, extra=[70, 71])
    assert engine.legal_commands(g, "kennedy") == ["discard 70", "discard 71", "done"]
    new = g["deck"][-1]
    before = g
    g = play(g, "kennedy", "discard 70", "done")
    assert sorted(g["hands"]["kennedy"]) == sorted([71, new]) and g["discard"][-1] == 70
    assert any(card_label(new) in t for t in new_log(before, g, "kennedy"))
    assert not any(card_label(new) in t for t in new_log(before, g, "nixon"))
    assert awaiting_action(g, "nixon") and conserved(g) and 57 in g["removed"]


def test_nixon_playing_it_lets_kennedy_replace() -> None:
    g = played("nixon", 57, other_hand=[70])
    assert engine.active_sides(g) == {"kennedy"}
    assert engine.legal_commands(g, "kennedy") == ["discard 70", "done"]
    g = play(g, "kennedy", "done")
    assert g["hands"]["kennedy"] == [70] and awaiting_action(g, "kennedy")
    assert g["log"][-1]["text"] == "Kennedy keeps his whole hand."  # it read 'the whole hand'


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 57, other_hand=[70])
    assert engine.legal_commands(g, "kennedy") == ["discard 70", "done"]
