"""#64 Stump Speech: if the opponent has more momentum, the player gains enough to draw level."""

from tests.engine.builders import play
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    played,
    position_with,
    triggered,
)


def test_draws_level() -> None:
    g = played("kennedy", 64, momentum={"kennedy": 1, "nixon": 4})
    assert g["momentum"] == {"kennedy": 4, "nixon": 4}
    assert awaiting_action(g, "nixon") and conserved(g)


def test_nothing_when_not_behind() -> None:
    g = position_with("nixon", 64, momentum={"kennedy": 2, "nixon": 2})
    before = g
    g = play(g, "nixon", "event 64")
    assert g["momentum"] == {"kennedy": 2, "nixon": 2}
    assert "Nixon does not have less momentum than Kennedy: no gain." in new_log(before, g)


def test_triggered_counts_after_paying_the_trigger() -> None:
    g = triggered("nixon", 64, momentum={"kennedy": 5, "nixon": 2})
    assert g["momentum"] == {"kennedy": 5, "nixon": 5}
