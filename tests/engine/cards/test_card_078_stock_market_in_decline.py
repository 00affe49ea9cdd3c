"""#78 Stock Market in Decline: Economy moves up 2; the Economy leader (if any) adds 2 cubes in NY."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_economy_up_and_leader_in_new_york() -> None:
    g = played(
        "kennedy",
        78,
        clear_board=True,
        states={"NY": 1},
        issue_order=["defense", "civil_rights", "economy"],
        issues={"defense": 0, "economy": -1, "civil_rights": 0},
    )
    assert g["issue_order"] == ["economy", "defense", "civil_rights"]
    assert g["states"]["NY"] == -1  # R1.4: one point removes Kennedy's cube
    assert awaiting_action(g, "nixon") and conserved(g)


def test_nobody_leads_economy() -> None:
    g = played("nixon", 78, clear_board=True)
    assert g["states"]["NY"] == 0 and g["issue_order"][0] == "economy"


def test_triggered() -> None:
    g = triggered(
        "kennedy", 78, clear_board=True, issues={"defense": 0, "economy": 2, "civil_rights": 0}
    )
    assert g["states"]["NY"] == 2
