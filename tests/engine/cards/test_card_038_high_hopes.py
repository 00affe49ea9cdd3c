"""#38 High Hopes (ruling): the top two deck cards are turned up in order; Kennedy-icon and two-icon
cards have their events resolved as if Kennedy played them (then removed or persistent, R6.3/R6.4);
the others are discarded. Turned-up cards are public (R17.1)."""

import pytest

import engine
from engine.events import script
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    position_with,
    stack_deck,
)


def _high_hopes(side: str, top: list[int], **kw: object) -> tuple[dict, dict]:
    g0 = position_with(side, 38, **kw)
    stack_deck(g0, top)
    return g0, play(g0, side, "event 38")


def test_two_icon_resolved_nixon_only_discarded() -> None:
    g0, g = _high_hopes("kennedy", [5, 9])
    assert g["momentum"]["kennedy"] == 3  # #5 Volunteers, as if Kennedy played it
    assert 5 in g["removed"] and 9 in g["discard"] and 38 in g["removed"]
    log = new_log(g0, g)
    assert "#38 High Hopes turns up #5 Volunteers and #9 Baptist Ministers." in log
    assert "#9 Baptist Ministers shows only Nixon's icon and is discarded." in log
    assert new_log(g0, g, "nixon") == log  # public: both sides learn the same
    assert awaiting_action(g, "nixon") and conserved(g)


def test_events_resolve_in_order_with_kennedys_choices() -> None:
    _, g = _high_hopes("kennedy", [3, 36])
    assert g["stack"][-1]["step"] == "order_issues" and g["stack"][-1]["side"] == "kennedy"
    assert 36 not in g["deck"] and conserved(g)  # the second card is held, still waiting
    g = play(g, "kennedy", "order economy defense civil_rights")
    assert engine.legal_commands(g, "kennedy")[0] == "region west"
    g = play(g, "kennedy", "region east")
    assert g["endorsements"]["east"] == 1 and g["issue_order"][0] == "economy"
    assert {3, 36, 38} <= set(g["removed"]) and awaiting_action(g, "nixon") and conserved(g)


def test_persistent_card_goes_to_its_space() -> None:
    _, g = _high_hopes("kennedy", [7, 48])
    assert g["persistent"]["election_day"] == [7] and 48 in g["discard"]


def test_prevented_card_is_discarded() -> None:
    """R6.4: #74 is prevented by #18: it is not resolved."""
    g0, g = _high_hopes(
        "kennedy", [74, 5], persistent={"prevention": [18], "debate": [], "election_day": []}
    )
    assert 74 in g["discard"] and g["momentum"]["kennedy"] == 3 and conserved(g)
    assert any("prevented by #18 Dwight D. Eisenhower" in line for line in new_log(g0, g))


def test_triggered_by_nixon_still_resolves_for_kennedy() -> None:
    g0 = position_with("kennedy", 38)
    stack_deck(g0, [5, 21])
    g = play(
        g0,
        "kennedy",
        "position 38",
        "done",
    )
    g = play(g, "nixon", "trigger")
    assert g["momentum"] == {"kennedy": 3, "nixon": 1}
    assert 5 in g["removed"] and 21 in g["removed"] and conserved(g)


def test_nixon_learns_nothing_of_kennedys_hand() -> None:
    """Non-interference (R17): Nixon's view after the event does not depend on Kennedy's hidden card."""
    from tests.engine.cards.part1_helpers import swap_hidden

    g1 = position_with("kennedy", 38, extra=[43])
    stack_deck(g1, [5, 9])
    g2 = swap_hidden(g1, "kennedy", 43)
    a, b = play(g1, "kennedy", "event 38"), play(g2, "kennedy", "event 38")
    assert engine.view(a, "nixon") == engine.view(b, "nixon")
    assert engine.view(a, "kennedy") != engine.view(b, "kennedy")


def test_nothing_to_turn_up_says_why() -> None:
    g0 = position_with("kennedy", 38)
    g0["removed"] += g0["deck"] + g0["discard"]
    g0["deck"], g0["discard"] = [], []
    assert "#38 High Hopes turns up no card: the deck and the discard pile are empty." in new_log(
        g0, play(g0, "kennedy", "event 38")
    )


def test_a_turned_up_card_without_an_event_is_discarded_in_plain_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """It read '#5 Volunteers: its event is has no event to resolve; ...'."""
    monkeypatch.delitem(script.EVENTS, 5)
    g0, g = _high_hopes("kennedy", [5, 9])
    assert "#5 Volunteers has no event to resolve and is discarded." in new_log(g0, g)
