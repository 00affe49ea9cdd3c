"""#76 Nixon's Pledge: for the rest of the turn Kennedy gains 1 momentum every time Nixon plays a
card for anything other than a campaigning action (R6.3, a rest-of-turn effect)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import played
from tests.engine.cards.part2_helpers import effect_ids

MOMENTUM = {"kennedy": 0, "nixon": 0}


def _pledged() -> engine.GameState:
    g = played("kennedy", 76, other_hand=[89, 70, 25], momentum=dict(MOMENTUM))
    assert effect_ids(g) == [("nixons_pledge", "kennedy")]
    return g


def test_kennedy_gains_when_nixon_positions_and_the_line_names_the_card() -> None:
    g = _pledged()
    n = len(g["log"])
    g = play(g, "nixon", "position 25")
    assert g["momentum"]["kennedy"] == 1
    gained = [e for e in g["log"][n:] if e["text"].startswith("Kennedy gains 1 momentum")]
    assert [e["why"] for e in gained] == ["#76 Nixon's Pledge"]


def test_kennedy_gains_when_nixon_plays_an_event() -> None:
    g = play(_pledged(), "nixon", "event 89")  # The New Nixon
    assert g["momentum"]["kennedy"] == 1


def test_a_campaigning_action_gives_nothing() -> None:
    g = play(_pledged(), "nixon", "campaign 25")
    assert g["momentum"]["kennedy"] == 0


def test_kennedys_own_plays_give_nothing() -> None:
    g = played("kennedy", 76, extra=[7], other_hand=[25], momentum=dict(MOMENTUM))
    g = play(g, "nixon", "campaign 25", "done")  # #25 shows Nixon's icon: no trigger question
    g = play(g, "kennedy", "position 7")
    assert g["momentum"]["kennedy"] == 0
