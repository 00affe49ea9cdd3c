"""#35 Harvard Brain Trust: kept until the Debates (R6.4); there Kennedy adds 1 to his CP total in each
issue contest (R12.5), Nixon gets nothing. Debate events leave the game after the Debates (R12.7
[ruling]), so it has no effect afterwards."""

from typing import Any

from tests.engine.builders import all_cards, at_step, play, top
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

# Civil Rights cards: Kennedy #41 (3 CP) + #31 (2 CP) = 5; Nixon #48 (3 CP) + #25 (2 CP) = 5.
STACKS = {"kennedy": [41, 31], "nixon": [48, 25]}


def _debates(harvard: bool) -> Any:
    """Turn 6, Nixon holding the debate initiative (a Nixon-only bag), #35 in force or not."""
    return at_step(
        [{"step": "debates", "stage": "start"}],
        turn=6,
        phase="debates",
        stacks=STACKS,
        persistent={"debate": [35] if harvard else []},
        bag={"kennedy": 0, "nixon": 5},
    )


def _civil_rights(g: Any) -> Any:
    for k, n in (("debate 41", "debate 48"), ("debate 31", "debate 25")):
        g = play(play(g, "kennedy", k), "nixon", n)
    return g


def test_played_it_waits_for_the_debates() -> None:
    g = played("kennedy", 35, clear_board=True, momentum={"kennedy": 2, "nixon": 2})
    assert g["persistent"]["debate"] == [35] and 35 not in g["removed"]
    assert not any(g["states"].values()) and g["momentum"] == {"kennedy": 2, "nixon": 2}
    assert awaiting_action(g, "nixon") and conserved(g)
    assert played("nixon", 35)["persistent"]["debate"] == [35]
    assert triggered("kennedy", 35)["persistent"]["debate"] == [35]


def test_kennedy_plus_one_turns_a_tie_he_would_lose() -> None:
    """5 : 5 goes to Nixon by the debate initiative (R12.5); with #35 Kennedy wins 6 : 5."""
    without = _civil_rights(_debates(False))
    assert top(without)["step"] == "debate_bonus" and top(without)["side"] == "nixon"
    g = _civil_rights(_debates(True))
    assert g["debate"]["initiative"] == "nixon"
    assert "Kennedy 6, Nixon 5" in g["log"][-1]["text"]
    assert top(g)["step"] == "debate_bonus" and top(g)["side"] == "kennedy" and top(g)["left"] == 2


def test_every_contest_even_an_empty_one_and_then_it_leaves() -> None:
    """R12.7: the issues with no cards are 0 : 0; #35 makes them 1 : 0 for Kennedy."""
    g = _civil_rights(_debates(True))
    g = play(g, "kennedy", "support NY", "support NY")
    assert top(g)["side"] == "kennedy" and top(g)["left"] == 3  # Economy, 3rd-to-resolve next
    assert "Kennedy 1, Nixon 0" in g["log"][-1]["text"]
    g = play(g, "kennedy", *["support CA"] * 3)
    assert top(g)["side"] == "kennedy" and top(g)["left"] == 4
    before = sorted(all_cards(g))
    g = play(g, "kennedy", *["support TX"] * 4)
    assert g["debate"] is None and g["turn"] == 7
    assert 35 in g["removed"] and g["persistent"]["debate"] == []  # R12.7 [ruling]
    assert sorted(all_cards(g)) == before
