"""R12 The Debates (turn 6): initiative, secret simultaneous picks, resolution when a side
holds two cards, simultaneous resolution order, 2/3/4 bonus, tile placement, ties, the end."""

from __future__ import annotations

from typing import Any

import engine
from engine.data import STATES
from tests.engine.builders import all_cards, at_step, legal, play, top


def debates(stacks: dict[str, list[int]], initiative: str = "kennedy", **kw: Any) -> Any:
    """Turn 6 with these campaign-strategy stacks; a one-colour bag decides the initiative."""
    bag = {"kennedy": 0, "nixon": 0}
    bag[initiative] = 5
    return at_step(
        [{"step": "debates", "stage": "start"}],
        turn=6,
        phase="debates",
        stacks=stacks,
        bag=bag,
        **kw,
    )


def rnd(g: Any, k: str, n: str) -> Any:
    """One debate round: both pick (Kennedy first, it does not matter)."""
    g = play(g, "kennedy", k)
    return play(g, "nixon", n)


def bonus(g: Any, side: str, states: list[str]) -> Any:
    assert top(g)["step"] == "debate_bonus" and top(g)["side"] == side
    assert top(g)["left"] == len(states)
    return play(g, side, *(f"support {s}" for s in states))


def test_r12_1_r12_2_initiative_and_debate_hands_from_the_stacks() -> None:
    g = debates({"kennedy": [55, 36], "nixon": [58, 29]}, initiative="nixon")
    d = g["debate"]
    assert d["initiative"] == "nixon"
    assert d["hands"] == {"kennedy": [36, 55], "nixon": [29, 58]}
    assert g["stacks"] == {"kennedy": [], "nixon": []}
    assert top(g)["step"] == "debate_pick"
    assert engine.active_sides(g) == {"kennedy", "nixon"}
    assert legal(g, "kennedy") == ["debate 36", "debate 55"]


def test_r12_4_picks_are_secret_until_both_have_chosen() -> None:
    g = debates({"kennedy": [55, 36], "nixon": [58, 29]})
    g = play(g, "kennedy", "debate 55")
    assert engine.active_sides(g) == {"nixon"}
    assert engine.view(g, "kennedy")["debate"]["my_pick"] == [55, "kennedy"]
    nixon_view = engine.view(g, "nixon")
    assert "my_pick" not in nixon_view["debate"]
    assert "55" not in str(nixon_view["debate"]) and "Hostile Press Corps" not in str(
        nixon_view["log"]
    )
    g = play(g, "nixon", "debate 58")
    assert g["debate"]["board"]["defense"] == {"kennedy": [55], "nixon": [58]}


def test_r12_4_a_two_icon_card_names_its_side() -> None:
    g = debates({"kennedy": [40, 36], "nixon": [58, 29]})
    assert legal(g, "kennedy") == ["debate 36", "debate 40", "debate 40 kennedy", "debate 40 nixon"]
    g = rnd(g, "debate 40 nixon", "debate 29")
    assert g["debate"]["board"]["defense"]["nixon"] == [40]


def test_r12_4_a_two_icon_card_without_a_side_is_placed_by_choice_after_the_reveal() -> None:
    g = debates({"kennedy": [40, 36], "nixon": [58, 29]})
    g = rnd(g, "debate 40", "debate 29")
    assert top(g)["step"] == "debate_side" and engine.active_sides(g) == {"kennedy"}
    assert legal(g, "kennedy") == ["side kennedy", "side nixon"]
    g = play(g, "kennedy", "side kennedy")
    assert g["debate"]["board"]["defense"]["kennedy"] == [40]
    assert g["debate"]["board"]["economy"]["nixon"] == [29]


def test_r12_1_two_revealed_two_icon_cards_the_initiative_player_orders_placement() -> None:
    g = debates({"kennedy": [40, 36], "nixon": [5, 29]}, initiative="nixon")
    g = rnd(g, "debate 40", "debate 5")
    assert top(g)["step"] == "debate_order" and engine.active_sides(g) == {"nixon"}
    g = play(g, "nixon", "first kennedy")
    assert top(g)["step"] == "debate_side" and top(g)["side"] == "kennedy"
    assert g["log"][-1]["text"] == (  # it read 'Nixon has Kennedy's debate card placed first'
        "Nixon chooses to place Kennedy's debate card first (R12.1)."
    )
    g = play(g, "kennedy", "side kennedy")
    assert g["log"][-1]["text"] == (
        "Kennedy's #40 Northern Blacks goes to Defense on Kennedy's side (R12.4)."
    )
    assert top(g)["step"] == "debate_side" and top(g)["side"] == "nixon"
    # Nixon places second, knowing Kennedy's choice; the second card on one side resolves Defense
    g = play(g, "nixon", "side kennedy")
    assert "defense" in g["debate"]["resolved"]


def test_r12_5_r12_6_an_issue_is_resolved_when_a_side_holds_two_cards() -> None:
    g = debates({"kennedy": [55, 36, 24], "nixon": [58, 29, 9]})
    g = rnd(g, "debate 55", "debate 58")  # defense 4 : 4
    assert top(g)["step"] == "debate_pick"
    g = rnd(g, "debate 36", "debate 29")  # Kennedy's second Defense card: 6 : 4
    assert g["debate"]["resolved"] == ["defense"]
    g = bonus(g, "kennedy", ["TX", "TX"])  # 2 points for the first issue, no checks (R12.6)
    assert g["states"]["TX"] == STATES["TX"].start + 2
    assert {55, 36, 58} <= set(g["discard"])  # the issue's cards go to the discard pile
    assert g["debate"]["board"]["defense"] == {"kennedy": [], "nixon": []}


def test_r12_5_a_tie_goes_to_the_debate_initiative() -> None:
    g = debates({"kennedy": [55, 36], "nixon": [58, 68]}, initiative="nixon")
    g = rnd(g, "debate 55", "debate 58")
    g = play(g, "kennedy", "debate 36")
    g = play(g, "nixon", "debate 68")  # 6 : 6, both sides due at once on the same issue
    assert g["debate"]["resolved"] == ["defense"]
    assert top(g)["side"] == "nixon"
    assert "Kennedy 6, Nixon 6" in g["log"][-1]["text"]


def test_r12_5_cards_revealed_together_are_all_placed_before_resolving() -> None:
    # Nixon has the initiative; his 2nd Defense card (total 6) and Kennedy's 2nd (total 7)
    # are revealed together: both count, Kennedy wins 7 : 6
    g = debates({"kennedy": [55, 6], "nixon": [58, 68]}, initiative="nixon")
    g = rnd(g, "debate 55", "debate 58")
    g = rnd(g, "debate 6", "debate 68")
    assert g["debate"]["resolved"] == ["defense"]
    assert top(g)["side"] == "kennedy"
    assert "Kennedy 7, Nixon 6" in g["log"][-1]["text"]


def test_r12_5_two_issues_due_at_once_the_lower_on_the_track_goes_first() -> None:
    # track: Defense 1st, Economy 2nd; Kennedy completes Defense, Nixon Economy in one round
    g = debates({"kennedy": [55, 36], "nixon": [29, 30]}, initiative="kennedy")
    g = rnd(g, "debate 55", "debate 29")
    g = rnd(g, "debate 36", "debate 30")
    d = g["debate"]
    assert d["resolved"] == ["economy"]  # lower on the track than Defense: first
    g = bonus(g, "nixon", ["OH", "OH"])  # 2 for the first issue
    assert g["debate"]["resolved"] == ["economy", "defense"]
    g = bonus(g, "kennedy", ["NY", "NY", "NY"])  # 3 for the second


def test_r12_4_a_card_for_a_resolved_issue_is_discarded_without_effect() -> None:
    g = debates({"kennedy": [55, 36, 20], "nixon": [58, 29, 9]})
    g = rnd(g, "debate 55", "debate 58")
    g = rnd(g, "debate 36", "debate 29")
    g = bonus(g, "kennedy", ["TX", "TX"])
    g = rnd(g, "debate 20", "debate 9")
    assert 20 in g["discard"]
    assert g["debate"] is None or g["debate"]["board"]["defense"] == {"kennedy": [], "nixon": []}


def test_r12_6_r12_7_bonus_2_3_4_tiles_return_lowest_free_and_empty_issue_ties() -> None:
    # one card each; then every unresolved issue is resolved, lowest track position first:
    # Civil Rights (no cards: 0-0, initiative Nixon), Economy (Nixon 3-0), Defense (Kennedy 4-0)
    g = debates({"kennedy": [55], "nixon": [29]}, initiative="nixon")
    g = rnd(g, "debate 55", "debate 29")
    assert g["debate"]["resolved"] == ["civil_rights"]
    g = bonus(g, "nixon", ["CA", "CA"])
    g = bonus(g, "nixon", ["OH", "OH", "OH"])
    g = bonus(g, "kennedy", ["NY", "NY", "PA", "PA"])
    # first resolved becomes 3rd, last becomes 1st
    assert g["issue_order"] == ["defense", "economy", "civil_rights"]
    assert g["debate"] is None and g["turn"] == 7
    assert (
        g["states"]["NY"] == STATES["NY"].start + 2 and g["states"]["PA"] == STATES["PA"].start + 2
    )


def test_r12_6_track_order_follows_the_resolution_order() -> None:
    # Kennedy wins Defense first (2), then the rest: Economy 0-0 tie and Civil Rights 0-0 tie
    g = debates({"kennedy": [55, 36], "nixon": [58]}, initiative="kennedy")
    g = rnd(g, "debate 55", "debate 58")
    g = play(g, "kennedy", "debate 36")  # Nixon has no cards left: only Kennedy picks
    g = bonus(g, "kennedy", ["TX", "TX"])
    g = bonus(g, "kennedy", ["TX", "TX", "TX"])  # Civil Rights (3rd on the track) next
    g = bonus(g, "kennedy", ["TX", "TX", "TX", "TX"])  # Economy last
    assert g["issue_order"] == ["economy", "civil_rights", "defense"]


def test_r12_7_unplayed_debate_cards_and_debate_events_leave_afterwards() -> None:
    g = debates({"kennedy": [55, 36, 41, 74], "nixon": [58, 29, 9, 48]})
    g["persistent"]["debate"] = [35]
    g["deck"].remove(35)
    before = sorted(all_cards(g))
    g = rnd(g, "debate 55", "debate 58")
    g = rnd(g, "debate 36", "debate 29")  # Defense: Kennedy 4+2+1 : Nixon 4
    g = bonus(g, "kennedy", ["TX", "TX"])
    g = rnd(g, "debate 41", "debate 9")
    g = rnd(g, "debate 74", "debate 48")  # Civil Rights: Kennedy 7+1 : Nixon 6
    g = bonus(g, "kennedy", ["TX", "TX", "TX"])
    # Economy: Nixon 3, Kennedy 0 + 1 (Harvard Brain Trust)
    g = bonus(g, "nixon", ["CA", "CA", "CA", "CA"])
    assert g["debate"] is None
    assert 35 in g["removed"] and g["persistent"]["debate"] == []  # R12.7 [ruling]
    assert sorted(all_cards(g)) == before


def test_r12_debate_event_adds_to_every_contest() -> None:
    # #35 Harvard Brain Trust: Kennedy +1 CP in every issue contest
    g = debates({"kennedy": [36, 20], "nixon": [58]}, initiative="nixon")
    g["persistent"]["debate"] = [35]
    g["deck"].remove(35)
    g = rnd(g, "debate 36", "debate 58")
    g = play(g, "kennedy", "debate 20")  # Kennedy 2+2+1 = 5 : Nixon 4
    assert g["debate"]["resolved"] == ["defense"]
    assert top(g)["side"] == "kennedy"
    assert "Kennedy 5, Nixon 4" in g["log"][-1]["text"]
