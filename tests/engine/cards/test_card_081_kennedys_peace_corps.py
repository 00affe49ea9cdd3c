"""#81 Kennedy's Peace Corps: for the rest of the turn Kennedy may preempt events on the cards he
plays without spending momentum (R6.8)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import played, triggered
from tests.engine.cards.part2_helpers import effect_ids


def test_free_preempt() -> None:
    g = played("kennedy", 81, extra=[89], other_hand=[70], momentum={"kennedy": 0, "nixon": 3})
    assert effect_ids(g) == [("kennedys_peace_corps", "kennedy")]
    g = play(g, "nixon", "position 70", "done")
    assert "position 89 preempt" in engine.legal_commands(g, "kennedy")
    g = play(g, "kennedy", "position 89 preempt", "done")
    assert g["momentum"]["kennedy"] == 0 and 89 in g["discard"]
    assert engine.legal_commands(g, "nixon") != ["trigger", "decline"]


def test_nixon_still_pays() -> None:
    g = played("kennedy", 81, other_hand=[70], momentum={"kennedy": 0, "nixon": 1})
    assert not any(c.endswith("preempt") for c in engine.legal_commands(g, "nixon"))


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 81)
    assert effect_ids(g) == [("kennedys_peace_corps", "kennedy")]
