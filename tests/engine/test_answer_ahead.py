"""Answering ahead: the rest of the Momentum phase with the 2nd-issue award (R10.3-R10.6, R11.1)
and next turn's initiative with the last strategy card (R5.2).

``endorsement: south, swap defense economy, strategy 40, first nixon`` and ``strategy 40: first
nixon`` are declared before the draws; each part applies only if its question arises for the
player, in this mail (the initiative: at the next turn's start), and is dropped otherwise, never
an error after a draw (R17). What cannot be meant is refused before anything is drawn.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from engine import determinize, rng
from tests.engine.builders import at_step, legal, top

NO_ISSUES = {"defense": 0, "economy": 0, "civil_rights": 0}
KENNEDY_MEDIA = {"west": 1, "midwest": 1, "south": 0, "east": 0}  # Kennedy: the majority (R10.6)


def momentum_phase(**kw: Any) -> Any:
    """Turn 1's Momentum phase; Kennedy leads Economy, the 2nd issue, and chooses (R10.3)."""
    kw.setdefault("issues", {**NO_ISSUES, "economy": 3})
    kw.setdefault("media", dict(KENNEDY_MEDIA))
    kw.setdefault("momentum", {"kennedy": 0, "nixon": 0})
    kw.setdefault("hands", {"kennedy": [36, 38], "nixon": [27]})
    g = at_step([{"step": "turn", "stage": "momentum", "i": 10}], phase="momentum", **kw)
    assert top(g)["step"] == "award_choice" and top(g)["side"] == "kennedy"
    return g


def test_the_award_line_answers_region_swap_and_strategy_card_in_the_games_order() -> None:
    g = momentum_phase(endorse_deck=["any"], endorse_discard=[])
    after, applied = engine.apply_logged(
        g, "kennedy", "endorsement: strategy 38, swap economy defense, south"
    )
    assert applied == ["endorsement", "region south", "swap defense economy", "strategy 38"]
    assert after["endorsements"]["south"] == 1
    assert after["issue_order"][:2] == ["economy", "defense"]
    assert after["stacks"]["kennedy"] == [38]
    assert engine.active_sides(after) == {"nixon"}  # only Nixon's strategy card is left


def test_a_region_for_an_endorsement_that_names_one_is_dropped_not_an_error() -> None:
    g = momentum_phase(endorse_deck=["west"], endorse_discard=[])
    after, applied = engine.apply_logged(g, "kennedy", "endorsement: south, no swap")
    assert applied == ["endorsement", "decline"]
    assert after["endorsements"] == {"west": 1, "midwest": 0, "south": 0, "east": 0}


def test_the_region_also_answers_the_1st_issue_endorsement_of_the_same_player() -> None:
    issues = {"defense": 2, "economy": 3, "civil_rights": 0}  # Kennedy leads the 1st and 2nd
    g = momentum_phase(issues=issues, endorse_deck=["any"], endorse_discard=[])
    after, applied = engine.apply_logged(g, "kennedy", "momentum: east")
    assert applied == ["momentum", "region east"]
    assert after["endorsements"]["east"] == 1
    assert top(after)["step"] == "issue_swap"  # not declared: asked
    assert legal(after, "kennedy")[-1] == "decline"


def test_parts_after_an_opponents_decision_are_dropped_and_asked_again() -> None:
    """Nixon leads the 1st issue and draws an 'any region' endorsement: his choice comes
    between Kennedy's award and Kennedy's swap, so the swap declared with the award is not
    applied (Kennedy learns something new first) and Kennedy is asked in his next mail."""
    issues = {"defense": -2, "economy": 3, "civil_rights": 0}
    g = momentum_phase(issues=issues, endorse_deck=["any"], endorse_discard=[])
    after, applied = engine.apply_logged(g, "kennedy", "momentum: swap defense economy")
    assert applied == ["momentum"]
    assert top(after) == {"step": "endorse_region", "side": "nixon"}
    after = engine.apply(after, "nixon", "region south")
    assert top(after)["step"] == "issue_swap" and top(after)["side"] == "kennedy"
    assert after["issue_order"][0] == "defense"


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("endorsement: swap defense civil rights", "not adjacent"),
        ("endorsement: swap defense economy, no swap", "one issue swap at most"),
        ("endorsement: strategy 40", "not in your hand"),
        ("endorsement: strategy 36 38", "you put 1 on your stack"),
        ("endorsement: strategy 36 36", "named twice"),
        ("endorsement: first nixon", "name them too"),
    ],
)
def test_what_cannot_be_meant_is_refused_before_the_draw(line: str, says: str) -> None:
    g = momentum_phase(endorse_deck=["any"], endorse_discard=[])
    with pytest.raises(engine.IllegalCommandError, match=says):
        engine.apply(g, "kennedy", line)
    assert g["endorse_deck"] == ["any"]  # nothing drawn


def test_a_gathering_momentum_card_is_refused_for_the_stack() -> None:
    g = momentum_phase(hands={"kennedy": [36, 14], "nixon": [27]})  # #14: Gathering Momentum
    with pytest.raises(engine.IllegalCommandError, match=r"R11\.2"):
        engine.apply(g, "kennedy", "momentum: strategy 14")


def strategy_phase(bag: dict[str, int]) -> Any:
    """Turn 1's strategy phase; the next initiative check is won by whoever owns ``bag``."""
    return at_step(
        [{"step": "turn", "stage": "strategy", "i": 10}],
        phase="strategy",
        hands={"kennedy": [36, 38], "nixon": [27, 33]},
        bag=bag,
    )


def test_initiative_answered_with_the_last_strategy_card_is_kept_and_applied() -> None:
    g = strategy_phase({"kennedy": 12, "nixon": 0})  # Kennedy will win turn 2's initiative
    g, applied = engine.apply_logged(g, "kennedy", "strategy 36: first kennedy")
    assert applied == ["strategy 36: first kennedy"]  # the log replays the kept answer too
    assert not engine.legal_commands(g, "kennedy") and "nixon" in engine.active_sides(g)
    # R17: nothing Nixon (or an observer, or a bot's look-ahead for Nixon) sees holds it
    for side in ("nixon", None):
        assert "first kennedy" not in json.dumps(engine.view(g, side))
    looked = determinize.determinize(g, "nixon", rng.new_rng(1))
    assert "first kennedy" not in json.dumps(looked["stack"])
    assert "first kennedy" in json.dumps(determinize.determinize(g, "kennedy", rng.new_rng(1)))
    assert engine.view(g, "kennedy")["first_ahead"] == "kennedy"  # shown to its owner
    assert "first_ahead" not in engine.view(g, "nixon")
    g = engine.apply(g, "nixon", "strategy 27")
    assert g["turn"] == 2 and g["first"] == "kennedy"
    assert top(g) == {"step": "action", "side": "kennedy"}  # no initiative question asked
    assert any("answered ahead" in e["text"] for e in g["log"])


def test_initiative_answer_is_dropped_when_the_other_side_wins() -> None:
    g = strategy_phase({"kennedy": 0, "nixon": 12})
    g = engine.apply(g, "kennedy", "strategy 36: first kennedy")
    g = engine.apply(g, "nixon", "strategy 27")
    assert top(g) == {"step": "choose_first", "side": "nixon"}


def test_initiative_answer_applies_at_once_when_the_deal_follows_the_same_mail() -> None:
    g = strategy_phase({"kennedy": 12, "nixon": 0})
    g = engine.apply(g, "nixon", "strategy 27")
    g, applied = engine.apply_logged(g, "kennedy", "strategy 36: first kennedy")
    assert applied == ["strategy 36", "first kennedy"]
    assert g["first"] == "kennedy" and top(g) == {"step": "action", "side": "kennedy"}


def test_the_replayed_log_keeps_the_answer() -> None:
    g = strategy_phase({"kennedy": 12, "nixon": 0})
    g1, applied = engine.apply_logged(g, "kennedy", "strategy 36: first nixon")
    replayed = engine.copy_state(g)
    for cmd in applied:
        engine.apply_in_place(replayed, "kennedy", cmd)
    assert replayed == g1
    for s in (g1, replayed):
        engine.apply_in_place(s, "nixon", "strategy 27")
    assert replayed == g1 and g1["first"] == "nixon"


def test_no_initiative_answer_before_the_debates() -> None:
    """Turn 6 has no initiative check (R4.2, R12.1): the prompt does not offer it, and a line
    that gives one keeps nothing."""
    g = at_step(
        [{"step": "turn", "stage": "strategy", "i": 10}],
        turn=5,
        phase="strategy",
        hands={"kennedy": [36, 38], "nixon": [27, 33]},
    )
    assert "first" not in engine.decision(g, "kennedy")
    assert engine.apply_logged(g, "kennedy", "strategy 36: first nixon")[1] == ["strategy 36"]


def test_prompts_show_the_forms_with_the_players_own_cards_and_issues() -> None:
    g = momentum_phase()
    text = engine.decision(g, "kennedy")
    form = "endorsement: south, swap defense economy, strategy 36, first kennedy"
    assert f"'{form}'" in text and "civil_rights" not in text
    assert engine.view(g, "kennedy")["ahead_example"] == form  # shown unwrapped among examples
    assert "ahead_example" not in engine.view(g, "nixon")
    g = strategy_phase({"kennedy": 1, "nixon": 1})
    assert "'strategy 36: first kennedy'" in engine.decision(g, "kennedy")
