"""#25 1960 Civil Rights Act: Civil Rights moves up 1; Nixon adds one Civil Rights cube (R1.4)."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_up_and_nixon_cube() -> None:
    g = played("nixon", 25, issue_order=["defense", "economy", "civil_rights"])
    assert g["issue_order"] == ["defense", "civil_rights", "economy"]
    assert g["issues"]["civil_rights"] == -1
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_removes_a_kennedy_cube_first() -> None:
    g = played("kennedy", 25, issues={"defense": 0, "economy": 0, "civil_rights": 2})
    assert g["issues"]["civil_rights"] == 1


def test_triggered_by_kennedy_still_nixon() -> None:
    g = triggered("kennedy", 25)
    assert g["issues"]["civil_rights"] == -1 and g["momentum"]["kennedy"] == 1
