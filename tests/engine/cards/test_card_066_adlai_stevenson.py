"""#66 Adlai Stevenson: one Kennedy cube in Illinois; Kennedy may take any one card from the (public)
discard pile into his hand."""

import engine
from tests.engine.builders import move_cards, play
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    position_with,
    triggered,
)


def _adlai(
    side: str = "kennedy", discard: tuple[int, ...] = (42, 89), **kw: object
) -> engine.GameState:
    g = position_with(side, 66, clear_board=True, **kw)
    move_cards(g, list(discard), to="discard")
    return play(g, side, "event 66")


def test_illinois_and_the_choice() -> None:
    g = _adlai()
    assert g["states"]["IL"] == 1
    assert engine.legal_commands(g, "kennedy") == ["take 42", "take 89", "done"]


def test_take_a_card() -> None:
    g = _adlai()
    before = g
    g = play(g, "kennedy", "take 42")
    assert g["hands"]["kennedy"] == [42] and g["discard"] == [89]
    assert "Kennedy takes #42 Henry Cabot Lodge from the discard pile into his hand." in new_log(
        before, g
    )
    assert awaiting_action(g, "nixon") and conserved(g)


def test_done_takes_nothing() -> None:
    g = play(_adlai(), "kennedy", "done")
    assert g["hands"]["kennedy"] == [] and g["discard"] == [42, 89]


def test_empty_discard_no_choice() -> None:
    g = _adlai(discard=())
    assert g["states"]["IL"] == 1 and awaiting_action(g, "nixon")


def test_nixon_playing_it_lets_kennedy_take() -> None:
    g = _adlai("nixon")
    assert engine.active_sides(g) == {"kennedy"}
    g = play(g, "kennedy", "take 89")
    assert g["hands"]["kennedy"] == [89]


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 66, clear_board=True)
    assert g["states"]["IL"] == 1 and g["momentum"]["kennedy"] == 1
