"""#89 The New Nixon: Nixon gains 1 momentum."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_nixon_gains() -> None:
    g = played("nixon", 89)
    assert g["momentum"] == {"kennedy": 2, "nixon": 3}
    assert awaiting_action(g, "kennedy") and conserved(g) and g["rest"]["nixon"] == 2


def test_kennedy_playing_it_helps_nixon() -> None:
    g = played("kennedy", 89)
    assert g["momentum"] == {"kennedy": 2, "nixon": 3}


def test_triggered() -> None:
    g = triggered("nixon", 89)
    assert g["momentum"]["nixon"] == 2
