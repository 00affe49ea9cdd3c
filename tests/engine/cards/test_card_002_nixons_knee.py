"""#2 Nixon's Knee: Nixon's token goes to Maryland at no travel cost. Until the turn ends (R6.3),
every card Nixon uses for campaigning in states costs him 1 momentum on top; other uses of his cards,
and Kennedy's plays, cost nothing extra. A preempted campaign (R6.8) costs 2 + 1 momentum."""

import pytest

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered
from tests.engine.cards.part2_helpers import effect_ids, finish_turn


def test_token_to_maryland_and_the_effect_in_force() -> None:
    g = played("kennedy", 2, momentum={"kennedy": 2, "nixon": 2})
    assert g["token"] == {"kennedy": "MA", "nixon": "MD"}
    assert g["momentum"] == {"kennedy": 2, "nixon": 2}
    assert effect_ids(g) == [("nixons_knee", "kennedy")]
    assert 2 in g["removed"] and awaiting_action(g, "nixon") and conserved(g)


def test_campaigning_costs_nixon_one_momentum_other_uses_nothing() -> None:
    kw = {"other_hand": [40], "momentum": {"kennedy": 0, "nixon": 2}}
    g = play(played("kennedy", 2, **kw), "nixon", "campaign 40")
    assert g["momentum"]["nixon"] == 1
    for use in ("advertise 40", "position 40", "event 40"):
        g = play(played("kennedy", 2, **kw), "nixon", use)
        assert g["momentum"]["nixon"] == 2, use


def test_without_momentum_nixon_cannot_campaign() -> None:
    g = played("kennedy", 2, other_hand=[40], momentum={"kennedy": 0, "nixon": 0})
    assert engine.legal_commands(g, "nixon") == [
        "event 40",
        "advertise 40",
        "position 40",
        "candidate advertise",
        "candidate position",
    ]


def test_a_preempted_campaign_needs_both_costs() -> None:
    """R6.8 costs 2 momentum; the Knee's 1 comes on top, so 2 momentum are not enough."""
    g = played("kennedy", 2, other_hand=[40], momentum={"kennedy": 0, "nixon": 2})
    legal = engine.legal_commands(g, "nixon")
    assert "campaign 40" in legal and "campaign 40 preempt" not in legal
    assert "advertise 40 preempt" in legal
    with pytest.raises(engine.IllegalCommandError):
        engine.apply(g, "nixon", "campaign 40 preempt")
    g = played("kennedy", 2, other_hand=[40], momentum={"kennedy": 0, "nixon": 3})
    g = play(g, "nixon", "campaign 40 preempt")
    assert g["momentum"]["nixon"] == 0


def test_kennedy_unaffected_and_the_effect_ends_with_the_turn() -> None:
    g = played("kennedy", 2, extra=[41], other_hand=[40], momentum={"kennedy": 0, "nixon": 0})
    g = play(g, "nixon", "position 40", "done")
    assert "campaign 41" in engine.legal_commands(g, "kennedy")
    g = play(g, "kennedy", "campaign 41")
    assert g["momentum"]["kennedy"] == 0
    assert effect_ids(g) == [("nixons_knee", "kennedy")]
    g = finish_turn(g)
    assert g["turn"] == 2 and effect_ids(g) == []


def test_triggered_by_nixon_still_hits_nixon() -> None:
    g = triggered("nixon", 2, momentum={"kennedy": 2, "nixon": 2})
    assert g["token"]["nixon"] == "MD" and g["momentum"]["nixon"] == 1
    assert effect_ids(g) == [("nixons_knee", "nixon")]


def test_the_momentum_a_campaign_costs_names_the_knee() -> None:
    """The report prints the cause after the line: 'Nixon loses 1 momentum and now has 1 (#2
    Nixon's Knee).' (it said only 'Nixon loses 1 momentum (now 1).')."""
    g0 = played("kennedy", 2, other_hand=[40], momentum={"kennedy": 0, "nixon": 2})
    g = play(g0, "nixon", "campaign 40")
    lost = [e for e in g["log"][len(g0["log"]) :] if "momentum" in e["text"]]
    assert [(e["text"], e["why"]) for e in lost] == [
        ("Nixon loses 1 momentum and now has 1.", "#2 Nixon's Knee")
    ]
