"""#93 Experience Counts (GMT, R16.6): one Kennedy cube comes off every issue where he has any; Nixon
gains 1 momentum."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_one_off_each_kennedy_issue() -> None:
    g = played("nixon", 93, edition="gmt", issues={"defense": 2, "economy": 1, "civil_rights": -1})
    assert g["issues"] == {"defense": 1, "economy": 0, "civil_rights": -1}
    assert g["momentum"] == {"kennedy": 2, "nixon": 3}
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_no_kennedy_issues() -> None:
    g = played("kennedy", 93, edition="gmt")
    assert (
        g["issues"] == {"defense": 0, "economy": 0, "civil_rights": 0}
        and g["momentum"]["nixon"] == 3
    )


def test_triggered() -> None:
    g = triggered(
        "nixon", 93, edition="gmt", issues={"defense": 1, "economy": 0, "civil_rights": 0}
    )
    assert g["issues"]["defense"] == 0 and g["momentum"]["nixon"] == 2
