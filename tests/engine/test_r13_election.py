"""R13 Election Day (turn 9): bonus cubes (R13.1), initiative (R13.2), campaign-strategy
checks with no refill (R13.3, R3.4), Election Day events (R13.4), undecided states (R13.5)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.data import REGIONS, STATES
from engine.events import EVENTS, EventDef, op
from tests.engine.builders import at_step, legal, play, top

NO_MEDIA = {r: 0 for r in REGIONS}
NO_ISSUES = {"defense": 0, "economy": 0, "civil_rights": 0}


def election(**kw: Any) -> Any:
    """Turn 9 from the given board; by default no momentum, media or issue cubes."""
    kw.setdefault("momentum", {"kennedy": 0, "nixon": 0})
    kw.setdefault("media", dict(NO_MEDIA))
    kw.setdefault("issues", dict(NO_ISSUES))
    kw.setdefault("stacks", {"kennedy": [], "nixon": []})
    return at_step([{"step": "election", "stage": "bonus"}], turn=9, phase="election", **kw)


def _bonus_line(g: Any) -> str:
    return next(e["text"] for e in g["log"] if e["text"].startswith("Bonus cubes"))


def test_r13_1_media_issue_and_momentum_become_bag_cubes() -> None:
    g = election(
        bag={"kennedy": 0, "nixon": 0},
        media={**NO_MEDIA, "west": 2, "east": -1},
        issues={"defense": 1, "economy": -3, "civil_rights": 0},
        momentum={"kennedy": 2, "nixon": 1},
    )
    # Kennedy 2 media + 1 issue + 2x2 momentum = 7; Nixon 1 + 3 + 2x1 = 6
    assert _bonus_line(g) == (
        "Bonus cubes go into the bag (R13.1): 7 Kennedy and 6 Nixon; "
        "it now holds 7 Kennedy and 6 Nixon cubes."
    )
    assert g["media"] == NO_MEDIA and g["issues"] == NO_ISSUES
    assert g["momentum"] == {"kennedy": 0, "nixon": 0}
    assert g["result"] is not None  # nothing to decide: the game ran to its end


def test_r13_2_r13_3_initiative_player_resolves_first_in_an_order_they_choose() -> None:
    g = election(
        bag={"kennedy": 20, "nixon": 0},
        clear_board=True,
        stacks={"kennedy": [55, 36], "nixon": [58, 29]},
    )
    f = next(x for x in g["stack"] if x["step"] == "election")
    assert f["initiative"] == "kennedy"
    assert g["no_refill"] is True
    assert top(g)["step"] == "election_card" and top(g)["side"] == "kennedy"
    assert legal(g, "kennedy") == ["resolve 36", "resolve 55"]
    assert engine.active_sides(g) == {"kennedy"}
    g = play(g, "kennedy", "resolve 55")
    assert g["states"]["PA"] == 3  # three checks, all Kennedy cubes
    # the last card follows on its own, then Nixon chooses his order
    assert g["states"]["WV"] == 3
    assert top(g)["step"] == "election_card" and top(g)["side"] == "nixon"
    g = play(g, "nixon", "resolve 29")
    # a Kennedy-only bag: Nixon's six checks all fail, so Illinois stays empty and goes to its
    # blue border on R13.5
    assert g["states"]["IL"] == 1
    assert g["bag"] == {"kennedy": 20 - 2 - 6 - 6, "nixon": 0}
    assert {55, 36, 58, 29} <= set(g["discard"])
    assert g["result"] is not None


def test_r13_3_the_bag_is_not_refilled_and_checks_on_an_empty_bag_fail() -> None:
    g = election(
        bag={"kennedy": 3, "nixon": 0}, clear_board=True, stacks={"kennedy": [55], "nixon": []}
    )
    # the initiative check took two cubes; one check succeeds, two find the bag empty
    assert g["states"]["PA"] == 1
    assert g["bag"] == {"kennedy": 0, "nixon": 0}
    assert not any("refilled" in e["text"] for e in g["log"])


def test_r13_3_checks_ignore_r7_4() -> None:
    # Nixon carries PA with his token there and Kennedy has no media: the card still checks 3 times
    g = election(
        bag={"kennedy": 20, "nixon": 0},
        states={"PA": -4},
        token={"kennedy": "MA", "nixon": "PA"},
        stacks={"kennedy": [55], "nixon": []},
    )
    assert g["states"]["PA"] == -1


def test_r13_4_election_day_event_is_resolved_then_leaves() -> None:
    g = election(
        bag={"kennedy": 20, "nixon": 0}, clear_board=True, persistent={"election_day": [7]}
    )
    assert g["states"]["IL"] == 5  # #7 Late Returns from Cook County: 5 checks for Illinois
    assert 7 in g["removed"] and g["persistent"]["election_day"] == []


def test_r13_4_the_initiative_player_orders_election_day_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(
        EVENTS, 90, EventDef(90, (), (op("gain_support", who="nixon", state="TX", n=2),))
    )
    g = election(
        bag={"kennedy": 0, "nixon": 20}, clear_board=True, persistent={"election_day": [7, 90]}
    )
    assert top(g)["step"] == "election_event" and top(g)["side"] == "nixon"
    assert legal(g, "nixon") == ["resolve 7", "resolve 90"]
    g = play(g, "nixon", "resolve 90")
    assert g["states"]["TX"] == -2
    # then #7: five checks for Kennedy from a Nixon-only bag fail; Illinois goes by its border
    assert g["states"]["IL"] == 1
    texts = [e["text"] for e in g["log"]]
    tx = next(i for i, t in enumerate(texts) if "support in Texas" in t)
    il = next(i for i, t in enumerate(texts) if "checks for Illinois" in t)
    assert tx < il
    assert sorted(g["removed"][-2:]) == [7, 90]
    assert g["result"] is not None


def test_r13_5_undecided_states_by_endorsement_then_border_colour() -> None:
    endorse = {"west": 1, "midwest": 0, "south": 0, "east": -2}
    g = election(bag={"kennedy": 5, "nixon": 5}, clear_board=True, endorsements=endorse)
    for st, info in STATES.items():
        expected = {"west": "kennedy", "east": "nixon"}.get(info.region, info.border)
        assert g["states"][st] == (1 if expected == "kennedy" else -1), st
    r = engine.result(g)
    assert r is not None
    k = sum(
        i.ev
        for i in STATES.values()
        if (i.region == "west") or (i.region in ("midwest", "south") and i.border == "kennedy")
    )
    assert r["electoral_votes"] == {"kennedy": k, "nixon": 537 - k}


def test_r13_5_decided_states_are_left_alone() -> None:
    g = election(
        bag={"kennedy": 5, "nixon": 5},
        clear_board=True,
        states={"AK": 2, "NY": -1},
        endorsements={r: 0 for r in REGIONS},
    )
    assert g["states"]["AK"] == 2 and g["states"]["NY"] == -1  # not topped up
    assert g["states"]["HI"] == 1  # border colour blue (R13.5)


def test_r13_6_the_game_ends_with_a_result() -> None:
    g = election(bag={"kennedy": 5, "nixon": 5})
    assert g["phase"] == "over" and g["stack"] == []
    assert engine.active_sides(g) == set()
    assert engine.legal_commands(g, "kennedy") == [] and engine.legal_commands(g, "nixon") == []
    with pytest.raises(engine.GameOverError, match="'done'"):
        engine.apply(g, "kennedy", "done")
    r = engine.result(g)
    assert r is not None
    assert set(r) >= {"winner", "electoral_votes", "states_won", "tie_break"}
    assert sum(r["electoral_votes"].values()) == 537
    assert engine.view(g, None)["result"] == r


def test_r13_1_the_bonus_line_tells_the_bonus_from_the_bag() -> None:
    """It read 'Bonus cubes go into the bag (R13.1): Kennedy 7, Nixon 2': the bag's contents."""
    g = election(bag={"kennedy": 5, "nixon": 2}, momentum={"kennedy": 1, "nixon": 0})
    assert _bonus_line(g) == (
        "Bonus cubes go into the bag (R13.1): 2 Kennedy and 0 Nixon; "
        "it now holds 7 Kennedy and 2 Nixon cubes."
    )


def test_r13_3_the_whole_order_may_be_declared_in_one_line() -> None:
    # the order is fixed before the first draw (R13.3: each player chooses their own order);
    # the last card, resolved by the engine on its own, may be named too
    g = election(
        bag={"kennedy": 30, "nixon": 0},
        clear_board=True,
        stacks={"kennedy": [55, 36, 58], "nixon": [29, 22]},
    )
    g, applied = engine.apply_logged(g, "kennedy", "resolve 36, 58, 55")
    assert applied == ["resolve 36", "resolve 58"]  # 55 follows on its own (the last card)
    revealed = [e["text"] for e in g["log"] if e["text"].startswith("Kennedy reveals")]
    assert [t.rsplit(" for ", 1)[1] for t in revealed] == [
        "West Virginia.",
        "Illinois.",
        "Pennsylvania.",
    ]
    assert top(g)["step"] == "election_card" and top(g)["side"] == "nixon"


def test_r13_3_a_declared_order_naming_a_card_not_on_the_stack_draws_nothing() -> None:
    g = election(
        bag={"kennedy": 30, "nixon": 0},
        clear_board=True,
        stacks={"kennedy": [55, 36, 58], "nixon": [29, 22]},
    )
    with pytest.raises(engine.CommandError, match="29"):
        engine.apply(g, "kennedy", "resolve 36, 29")
    with pytest.raises(engine.CommandError, match="36"):
        engine.apply(g, "kennedy", "resolve 36, 36")
