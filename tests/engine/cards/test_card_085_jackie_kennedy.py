"""#85 Jackie Kennedy: until the turn ends, Nixon pays 1 momentum for every card he uses for its event
(also when triggering, R6.7)."""

import pytest

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import played, triggered
from tests.engine.cards.part2_helpers import effect_ids


def test_nixon_pays_for_an_event() -> None:
    g = played("kennedy", 85, other_hand=[89], momentum={"kennedy": 2, "nixon": 2})
    assert effect_ids(g) == [("jackie_kennedy", "nixon")]
    g = play(g, "nixon", "event 89")  # The New Nixon: +1
    assert g["momentum"]["nixon"] == 2


def test_without_momentum_no_event() -> None:
    g = played("kennedy", 85, other_hand=[89], momentum={"kennedy": 2, "nixon": 0})
    assert "event 89" not in engine.legal_commands(g, "nixon")
    with pytest.raises(engine.IllegalCommandError, match="cost cannot be paid"):
        engine.apply(g, "nixon", "event 89")


def test_triggering_costs_two() -> None:
    g = played("kennedy", 85, extra=[49], other_hand=[89], momentum={"kennedy": 2, "nixon": 1})
    g = play(g, "nixon", "position 89", "done")
    g = play(g, "kennedy", "decline", "position 49", "done")
    assert engine.legal_commands(g, "nixon") != ["trigger", "decline"]  # needs 2


def test_kennedy_unaffected() -> None:
    g = played("kennedy", 85, extra=[89], other_hand=[70], momentum={"kennedy": 0, "nixon": 2})
    g = play(g, "nixon", "position 70", "done")
    assert "event 89" in engine.legal_commands(g, "kennedy")


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 85)
    assert effect_ids(g) == [("jackie_kennedy", "nixon")]
