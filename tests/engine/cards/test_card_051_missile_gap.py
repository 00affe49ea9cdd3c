"""#51 Missile Gap: Kennedy adds three cubes on the Defense issue (R1.4 on the issue tile)."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_three_defense_cubes() -> None:
    g = played("kennedy", 51)
    assert g["issues"] == {"defense": 3, "economy": 0, "civil_rights": 0}
    assert awaiting_action(g, "nixon") and conserved(g) and 51 in g["removed"]


def test_nixon_cubes_removed_first() -> None:
    g = played("kennedy", 51, issues={"defense": -2, "economy": 0, "civil_rights": 0})
    assert g["issues"]["defense"] == 1


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 51)
    assert g["issues"]["defense"] == 3 and g["momentum"]["kennedy"] == 1
