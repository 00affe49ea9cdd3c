"""#48 Rising Food Prices: Economy moves up 1; Nixon adds two Economy cubes (R1.4)."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_up_and_two_cubes() -> None:
    g = played("nixon", 48, issues={"defense": 0, "economy": 1, "civil_rights": 0})
    assert g["issue_order"] == ["economy", "defense", "civil_rights"]
    assert g["issues"]["economy"] == -1
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_triggered_by_kennedy_still_nixon() -> None:
    g = triggered("kennedy", 48)
    assert g["issues"]["economy"] == -2 and g["momentum"]["kennedy"] == 1
