"""#45 Compact of Fifth Avenue: Nixon's token to New York; then one Civil Rights cube, two cubes in
New York and one media cube in the East, all Nixon's (R1.4)."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_all_four_changes() -> None:
    g = played(
        "nixon", 45, states={"NY": 1}, media={"west": 0, "midwest": 0, "south": 0, "east": 2}
    )
    assert g["token"]["nixon"] == "NY"
    assert g["issues"]["civil_rights"] == -1 and g["states"]["NY"] == -1 and g["media"]["east"] == 1
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_triggered_by_kennedy_still_nixon() -> None:
    g = triggered("kennedy", 45, states={"NY": 0})
    assert g["states"]["NY"] == -2 and g["media"]["east"] == -1 and g["token"]["nixon"] == "NY"
