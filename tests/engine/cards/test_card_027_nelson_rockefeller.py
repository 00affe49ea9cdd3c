"""#27 Nelson Rockefeller: one Nixon cube in New York; Nixon may take any one card from the (public,
R17.1) discard pile into his hand."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, new_log, played, triggered


def test_cube_and_optional_take() -> None:
    g = played("nixon", 27, clear_board=True, discard=[5, 43, 12])
    assert g["states"]["NY"] == -1
    assert engine.legal_commands(g, "nixon") == ["take 5", "take 12", "take 43", "done"]
    g2 = play(g, "nixon", "take 43")
    assert 43 in g2["hands"]["nixon"] and g2["discard"] == [5, 12]
    assert "Nixon takes #43 Catholic Support from the discard pile into his hand." in new_log(g, g2)
    assert awaiting_action(g2, "kennedy") and conserved(g2)


def test_may_take_nothing() -> None:
    g = played("nixon", 27, discard=[5])
    g = play(g, "nixon", "done")
    assert g["discard"] == [5] and g["hands"]["nixon"] == [] and awaiting_action(g, "kennedy")


def test_empty_discard_no_choice() -> None:
    g = played("nixon", 27, discard=[])
    assert awaiting_action(g, "kennedy")


def test_triggered_by_nixon() -> None:
    g = triggered("nixon", 27, clear_board=True, discard=[3])
    assert engine.legal_commands(g, "nixon") == ["take 3", "done"]
    g = play(g, "nixon", "take 3")
    assert g["hands"]["nixon"] == [3] and g["states"]["NY"] == -1 and conserved(g)


def test_kennedy_learns_nothing_of_nixons_hand() -> None:
    """Non-interference (R17): taking from the public discard pile shows only the card taken."""
    from tests.engine.cards.part1_helpers import swap_hidden

    g1 = played("nixon", 27, extra=[48], discard=[5, 43])
    g2 = swap_hidden(g1, "nixon", 48)
    a, b = play(g1, "nixon", "take 43"), play(g2, "nixon", "take 43")
    assert engine.view(a, "kennedy") == engine.view(b, "kennedy")
    assert engine.view(a, "nixon") != engine.view(b, "nixon")
