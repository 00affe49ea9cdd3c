"""#96 Medal Count (GMT, R16.6): the Civil Rights leader loses 1 Civil Rights support and the Economy
leader 1 Economy support; one player leading both also loses 1 momentum."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_different_leaders() -> None:
    g = played(
        "kennedy", 96, edition="gmt", issues={"defense": 2, "economy": -2, "civil_rights": 1}
    )
    assert g["issues"] == {"defense": 2, "economy": -1, "civil_rights": 0}
    assert g["momentum"] == {"kennedy": 2, "nixon": 2}
    assert awaiting_action(g, "nixon") and conserved(g)


def test_one_leader_of_both_loses_momentum() -> None:
    """Leadership is judged before the cubes come off (a lead of 1 still counts)."""
    g = played("nixon", 96, edition="gmt", issues={"defense": 0, "economy": -1, "civil_rights": -1})
    assert g["issues"] == {"defense": 0, "economy": 0, "civil_rights": 0}
    assert g["momentum"] == {"kennedy": 2, "nixon": 1}


def test_nobody_leads() -> None:
    g = played("nixon", 96, edition="gmt")
    assert g["momentum"] == {"kennedy": 2, "nixon": 2}


def test_triggered() -> None:
    g = triggered(
        "kennedy", 96, edition="gmt", issues={"defense": 0, "economy": 2, "civil_rights": 2}
    )
    assert (
        g["issues"] == {"defense": 0, "economy": 1, "civil_rights": 1}
        and g["momentum"]["kennedy"] == 0
    )
