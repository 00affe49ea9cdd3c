"""#63 Give Me a Week: Nixon loses 2 momentum and 1 issue support from each issue where he has any
(R6.6: never below what he has)."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_momentum_and_one_cube_per_issue() -> None:
    g = played(
        "kennedy",
        63,
        momentum={"kennedy": 2, "nixon": 3},
        issues={"defense": -2, "economy": -1, "civil_rights": 1},
    )
    assert g["momentum"] == {"kennedy": 2, "nixon": 1}
    assert g["issues"] == {"defense": -1, "economy": 0, "civil_rights": 1}
    assert awaiting_action(g, "nixon") and conserved(g)


def test_losses_limited() -> None:
    g = played("nixon", 63, momentum={"kennedy": 2, "nixon": 1})
    assert g["momentum"]["nixon"] == 0 and g["issues"] == {
        "defense": 0,
        "economy": 0,
        "civil_rights": 0,
    }


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 63, issues={"defense": 0, "economy": -3, "civil_rights": 0})
    assert g["momentum"] == {"kennedy": 1, "nixon": 0} and g["issues"]["economy"] == -2
