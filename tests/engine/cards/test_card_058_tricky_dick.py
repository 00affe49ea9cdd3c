"""#58 Tricky Dick: Nixon loses 1 momentum and may at once take any card from the discard pile and
resolve its event as if he played it; it earns no rest cubes (R6.2) and then leaves the game (R6.3)."""

import engine
from tests.engine.builders import move_cards, play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, position_with
from tests.engine.cards.part2_helpers import in_force


def _tricky(discard: list[int], **kw: object) -> engine.GameState:
    g = position_with("nixon", 58, **kw)
    move_cards(g, discard, to="discard")
    return play(g, "nixon", "event 58")


def test_offers_each_discarded_event_and_done() -> None:
    g = _tricky([89, 5, 49])
    assert g["momentum"]["nixon"] == 1
    assert engine.legal_commands(g, "nixon") == ["take 5", "take 49", "take 89", "done"]


def test_resolves_the_event_without_rest_cubes() -> None:
    g = _tricky([89, 5])
    g = play(g, "nixon", "take 89")  # The New Nixon: +1 momentum
    assert g["momentum"]["nixon"] == 2 and g["rest"]["nixon"] == 0
    assert 89 in g["removed"] and 58 in g["removed"] and g["discard"] == [5]
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_a_two_icon_event_acts_for_nixon() -> None:
    g = _tricky([5])
    g = play(g, "nixon", "take 5")  # Volunteers: the player gains 1 momentum
    assert g["momentum"] == {"kennedy": 2, "nixon": 2}


def test_a_choice_in_the_taken_event_is_offered_then_play_goes_on() -> None:
    g = _tricky([50], clear_board=True)
    g = play(g, "nixon", "take 50")
    assert engine.legal_commands(g, "nixon")[0] == "support IL"
    g = play(g, "nixon", "support IL", "done")
    assert g["states"]["IL"] == -1 and awaiting_action(g, "kennedy") and conserved(g)


def test_prevented_events_are_not_offered() -> None:
    g = position_with("nixon", 58)
    in_force(g, 1)
    move_cards(g, [73, 89], to="discard")
    g = play(g, "nixon", "event 58")
    assert engine.legal_commands(g, "nixon") == ["take 89", "done"]


def test_momentum_loss_limited_and_done_takes_nothing() -> None:
    g = _tricky([89], momentum={"kennedy": 2, "nixon": 0})
    g = play(g, "nixon", "done")
    assert g["momentum"]["nixon"] == 0 and g["discard"] == [89] and awaiting_action(g, "kennedy")


def test_triggered_by_nixon() -> None:
    g = position_with("kennedy", 58)
    move_cards(g, [89], to="discard")
    g = play(g, "kennedy", "position 58", "done")
    g = play(g, "nixon", "trigger")
    assert g["momentum"]["nixon"] == 0  # 1 to trigger, 1 from the event
    g = play(g, "nixon", "take 89")
    assert g["momentum"]["nixon"] == 1 and conserved(g)


def test_empty_discard_offers_only_done() -> None:
    g = _tricky([])
    assert g["discard"] == [] and engine.legal_commands(g, "nixon") == ["done"]
