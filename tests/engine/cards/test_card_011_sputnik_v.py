"""#11 Sputnik V: Defense moves up 1; the Defense leader places up to 3 support, max 1 per state (R6.3)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

ORDER = ["economy", "defense", "civil_rights"]


def test_defense_up_and_leader_places_three_max_one_each() -> None:
    g = played(
        "kennedy",
        11,
        issue_order=list(ORDER),
        clear_board=True,
        issues={"defense": -1, "economy": 0, "civil_rights": 0},
    )
    assert g["issue_order"] == ["defense", "economy", "civil_rights"]
    legal = engine.legal_commands(g, "nixon")
    assert len(legal) == 51 and legal[-1] == "done"  # 50 states + done
    assert engine.legal_commands(g, "kennedy") == []
    g = play(g, "nixon", "support OH")
    assert "support OH" not in engine.legal_commands(g, "nixon")
    g = play(g, "nixon", "support TX", "support CA")
    assert (g["states"]["OH"], g["states"]["TX"], g["states"]["CA"]) == (-1, -1, -1)
    assert awaiting_action(g, "nixon") and conserved(g)


def test_nobody_leads_defense() -> None:
    g = played("nixon", 11, issue_order=list(ORDER))
    assert g["issue_order"][0] == "defense" and awaiting_action(g, "kennedy")


def test_the_log_says_the_place_on_the_issue_track() -> None:
    """It read 'Defense moves up to position 1.' (and so when it was 1st already)."""
    texts = [e["text"] for e in played("nixon", 11, issue_order=list(ORDER))["log"]]
    assert "Defense moves up to 1st place on the issue track." in texts
    texts = [e["text"] for e in played("nixon", 11)["log"]]
    assert "Defense is already 1st on the issue track." in texts


def test_triggered() -> None:
    g = triggered("kennedy", 11, issues={"defense": 2, "economy": 0, "civil_rights": 0})
    assert g["stack"][-1]["step"] == "place_support" and g["stack"][-1]["side"] == "kennedy"
    g = play(g, "kennedy", "done")
    assert g["momentum"]["kennedy"] == 1
