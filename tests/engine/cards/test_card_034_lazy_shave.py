"""#34 Lazy Shave: kept until the Debates (R6.4); in every debate round Nixon must reveal his card
before Kennedy chooses (R12.4). Debate events leave the game after the Debates (R12.7)."""

import engine
from engine.flow import advance
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def _debates(g: dict) -> dict:
    g["stacks"] = {"kennedy": [], "nixon": []}
    for side, cards in (("kennedy", [41, 43]), ("nixon", [42, 48])):
        for c in cards:
            for place in (g["deck"], g["discard"], g["hands"]["kennedy"], g["hands"]["nixon"]):
                if c in place:
                    place.remove(c)
        g["stacks"][side] = cards
    g["turn"] = 6
    g["stack"] = [{"step": "game"}]
    advance(g)
    return g


def test_played_it_waits_for_the_debates() -> None:
    g = played("kennedy", 34)
    assert g["persistent"]["debate"] == [34] and awaiting_action(g, "nixon") and conserved(g)


def test_nixon_reveals_first_each_round() -> None:
    g = _debates(played("kennedy", 34))
    assert engine.active_sides(g) == {"nixon"}
    assert engine.legal_commands(g, "kennedy") == []
    g = play(g, "nixon", "debate 42")
    assert "Nixon must reveal first (#34 Lazy Shave): #42 Henry Cabot Lodge for Nixon." in [
        e["text"] for e in g["log"]
    ]
    assert engine.active_sides(g) == {"kennedy"}
    assert 42 in engine.view(g, "kennedy")["debate"]["revealed"]
    g = play(g, "kennedy", "debate 41")
    assert engine.active_sides(g) == {"nixon"}  # next round: Nixon first again
    assert conserved(g)


def test_without_it_both_choose_together() -> None:
    g = _debates(played("kennedy", 5))
    assert engine.active_sides(g) == {"kennedy", "nixon"}


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 34)
    assert g["persistent"]["debate"] == [34] and g["momentum"]["kennedy"] == 1


def test_the_log_says_how_long_it_stays() -> None:
    """Found by playing: the card went to the board with no word of it in the report."""
    g = played("kennedy", 34)
    assert "#34 Lazy Shave stays on the board until the end of the Debates (R6.4)." in [
        e["text"] for e in g["log"]
    ]
