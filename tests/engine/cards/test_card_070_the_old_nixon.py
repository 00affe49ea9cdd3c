"""#70 The Old Nixon: Nixon loses 1 momentum and Kennedy loses 3 (never below zero)."""

from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_both_lose() -> None:
    g = played("nixon", 70, momentum={"kennedy": 5, "nixon": 2})
    assert g["momentum"] == {"kennedy": 2, "nixon": 1}
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_never_below_zero() -> None:
    g = played("kennedy", 70, momentum={"kennedy": 1, "nixon": 0})
    assert g["momentum"] == {"kennedy": 0, "nixon": 0}


def test_triggered_by_nixon() -> None:
    g = triggered("nixon", 70, momentum={"kennedy": 4, "nixon": 3})
    assert g["momentum"] == {"kennedy": 1, "nixon": 1}
