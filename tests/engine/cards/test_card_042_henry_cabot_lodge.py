"""#42 Henry Cabot Lodge: two Nixon cubes in Massachusetts and two on Defense (R1.4); an exhausted
Nixon candidate card becomes active again (R6.9)."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_cubes_and_candidate_restored() -> None:
    g = played(
        "nixon",
        42,
        states={"MA": 1},
        issues={"defense": 1, "economy": 0, "civil_rights": 0},
        candidate={"kennedy": "exhausted", "nixon": "exhausted"},
    )
    assert g["states"]["MA"] == -1 and g["issues"]["defense"] == -1
    assert g["candidate"] == {"kennedy": "exhausted", "nixon": "active"}
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_active_candidate_stays_active() -> None:
    g = played("nixon", 42, states={"MA": 0})
    assert g["candidate"]["nixon"] == "active" and g["states"]["MA"] == -2


def test_triggered_by_nixon() -> None:
    g = triggered(
        "nixon", 42, states={"MA": 0}, candidate={"kennedy": "active", "nixon": "exhausted"}
    )
    assert g["states"]["MA"] == -2 and g["candidate"]["nixon"] == "active"
