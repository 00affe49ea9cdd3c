"""#8 Soviet Economic Growth: Economy moves up 1; the Economy leader adds a cube in New York (R1.4, R1.5)."""

from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    played,
    position_with,
    triggered,
)


def test_economy_up_and_leader_adds_in_new_york() -> None:
    g = played(
        "kennedy", 8, issues={"defense": 0, "economy": -2, "civil_rights": 0}, states={"NY": 0}
    )
    assert g["issue_order"] == ["economy", "defense", "civil_rights"]
    assert g["states"]["NY"] == -1
    assert awaiting_action(g, "nixon") and conserved(g)


def test_leader_cube_first_removes_an_opposing_cube() -> None:
    """R1.4: Kennedy leads Economy; Nixon's 2 cubes in New York become 1."""
    g = played(
        "nixon", 8, issues={"defense": 0, "economy": 1, "civil_rights": 0}, states={"NY": -2}
    )
    assert g["states"]["NY"] == -1


def test_nobody_leads_economy_no_cube() -> None:
    g0 = position_with("kennedy", 8, states={"NY": 3})
    g = played("kennedy", 8, states={"NY": 3})
    assert g["states"]["NY"] == 3
    assert g["issue_order"] == ["economy", "defense", "civil_rights"]
    assert (  # it read 'nobody qualifies'
        "#8 Soviet Economic Growth: nobody leads Economy, so no support goes to New York."
        in new_log(g0, g)
    )


def test_top_issue_stays_on_top() -> None:
    g = played(
        "kennedy",
        8,
        issue_order=["economy", "defense", "civil_rights"],
        issues={"defense": 0, "economy": 1, "civil_rights": 0},
        states={"NY": 0},
    )
    assert g["issue_order"] == ["economy", "defense", "civil_rights"]
    assert g["states"]["NY"] == 1


def test_triggered_the_leader_still_decides() -> None:
    """R6.7: whoever triggers, the Economy leader (here Kennedy) gets the cube."""
    g = triggered(
        "nixon", 8, issues={"defense": 0, "economy": 2, "civil_rights": 0}, states={"NY": 0}
    )
    assert g["states"]["NY"] == 1 and g["momentum"]["nixon"] == 1
