"""#91 Political Capital: Nixon draws 2 cards from the campaign deck (names private, R17.2)."""

from engine.board import card_label
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    played,
    position_with,
    triggered,
)


def test_nixon_draws_two() -> None:
    g = position_with("nixon", 91)
    top2 = list(reversed(g["deck"][-2:]))
    before = g
    g = play(g, "nixon", "event 91")
    assert g["hands"]["nixon"] == top2
    assert "Nixon draws 2 cards." in new_log(before, g)
    assert any(all(card_label(c) in t for c in top2) for t in new_log(before, g, "nixon"))
    assert not any(card_label(c) in t for c in top2 for t in new_log(before, g, "kennedy"))
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_kennedy_playing_it_gives_nixon_the_cards() -> None:
    g = played("kennedy", 91)
    assert len(g["hands"]["nixon"]) == 2 and g["hands"]["kennedy"] == []


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out() -> None:
    g = position_with("nixon", 91)
    g["discard"] = g["deck"][:-1]
    g["deck"] = g["deck"][-1:]
    g = play(g, "nixon", "event 91")
    assert len(g["hands"]["nixon"]) == 2 and g["discard"] == [] and conserved(g)


def test_triggered() -> None:
    g = triggered("nixon", 91)
    assert len(g["hands"]["nixon"]) == 2
