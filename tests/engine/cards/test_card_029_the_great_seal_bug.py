"""#29 The Great Seal Bug: Nixon adds one Defense cube and may take #42 Henry Cabot Lodge from the
discard pile into his hand."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_defense_cube_and_lodge_only() -> None:
    g = played("nixon", 29, discard=[5, 42, 43])
    assert g["issues"]["defense"] == -1
    assert engine.legal_commands(g, "nixon") == ["take 42", "done"]
    g = play(g, "nixon", "take 42")
    assert g["hands"]["nixon"] == [42] and g["discard"] == [5, 43]
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_no_lodge_in_discard_no_choice() -> None:
    g = played("nixon", 29, discard=[5, 43], issues={"defense": 1, "economy": 0, "civil_rights": 0})
    assert g["issues"]["defense"] == 0 and awaiting_action(g, "kennedy")


def test_triggered_by_nixon() -> None:
    g = triggered("nixon", 29, discard=[42])
    g = play(g, "nixon", "take 42")
    assert g["hands"]["nixon"] == [42] and g["momentum"]["nixon"] == 1
