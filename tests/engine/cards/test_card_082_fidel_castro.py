"""#82 Fidel Castro: the Defense leader (if any) gains 1 momentum and 1 support in Florida."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

NIXON_DEFENSE = {"defense": -1, "economy": 0, "civil_rights": 0}


def test_defense_leader_gains() -> None:
    g = played("kennedy", 82, clear_board=True, issues=dict(NIXON_DEFENSE))
    assert g["momentum"] == {"kennedy": 2, "nixon": 3} and g["states"]["FL"] == -1
    assert awaiting_action(g, "nixon") and conserved(g)


def test_nobody_leads_nothing_happens() -> None:
    g = played("kennedy", 82, clear_board=True)
    assert g["momentum"] == {"kennedy": 2, "nixon": 2} and g["states"]["FL"] == 0


def test_triggered() -> None:
    g = triggered(
        "nixon", 82, clear_board=True, issues={"defense": 1, "economy": 0, "civil_rights": 0}
    )
    assert g["momentum"] == {"kennedy": 3, "nixon": 1} and g["states"]["FL"] == 1
