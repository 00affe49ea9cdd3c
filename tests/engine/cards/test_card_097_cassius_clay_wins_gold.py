"""#97 Cassius Clay Wins Gold (GMT, R16.6): the Defense leader loses 1 Defense support and the Economy
leader 1 Economy support; one player leading both also loses 1 momentum."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_different_leaders() -> None:
    g = played(
        "kennedy", 97, edition="gmt", issues={"defense": 2, "economy": -2, "civil_rights": 1}
    )
    assert g["issues"] == {"defense": 1, "economy": -1, "civil_rights": 1}
    assert g["momentum"] == {"kennedy": 2, "nixon": 2}
    assert awaiting_action(g, "nixon") and conserved(g)


def test_one_leader_of_both_loses_momentum() -> None:
    g = played("nixon", 97, edition="gmt", issues={"defense": 3, "economy": 1, "civil_rights": 0})
    assert g["issues"] == {"defense": 2, "economy": 0, "civil_rights": 0}
    assert g["momentum"] == {"kennedy": 1, "nixon": 2}


def test_momentum_loss_limited() -> None:
    g = played(
        "nixon",
        97,
        edition="gmt",
        momentum={"kennedy": 0, "nixon": 0},
        issues={"defense": -1, "economy": -1, "civil_rights": 0},
    )
    assert g["momentum"] == {"kennedy": 0, "nixon": 0}  # R6.6
    assert g["issues"] == {"defense": 0, "economy": 0, "civil_rights": 0}


def test_triggered() -> None:
    g = triggered(
        "nixon", 97, edition="gmt", issues={"defense": 1, "economy": 0, "civil_rights": 0}
    )
    assert g["issues"]["defense"] == 0 and g["momentum"]["nixon"] == 1
