"""#62 Trial of Gary Powers: Defense moves up 2; the Defense leader (if any) gains 1 momentum."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

ORDER = ["economy", "civil_rights", "defense"]


def test_defense_to_the_top_and_leader_gains() -> None:
    g = played(
        "kennedy",
        62,
        issue_order=list(ORDER),
        issues={"defense": -1, "economy": 0, "civil_rights": 0},
    )
    assert g["issue_order"] == ["defense", "economy", "civil_rights"]
    assert g["momentum"] == {"kennedy": 2, "nixon": 3}
    assert awaiting_action(g, "nixon") and conserved(g)


def test_moves_at_most_to_the_top() -> None:
    g = played("nixon", 62, issue_order=["economy", "defense", "civil_rights"])
    assert g["issue_order"] == ["defense", "economy", "civil_rights"]


def test_nobody_leads_no_momentum() -> None:
    g = played("nixon", 62)
    assert g["momentum"] == {"kennedy": 2, "nixon": 2}


def test_triggered() -> None:
    g = triggered("kennedy", 62, issues={"defense": 2, "economy": 0, "civil_rights": 0})
    assert g["momentum"]["kennedy"] == 2  # -1 trigger, +1 Defense leader
