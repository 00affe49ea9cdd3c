"""#79 Advance Men: for the rest of the turn the player pays no travel costs and makes no support
checks where the opponent carries the state or has his token (R7.3, R7.4)."""

import engine
from tests.engine.builders import play, top
from tests.engine.cards.part1_helpers import played, triggered
from tests.engine.cards.part2_helpers import effect_ids


def _after(**kw: object) -> engine.GameState:
    g = played("kennedy", 79, extra=[49], other_hand=[89], clear_board=True, **kw)
    g = play(g, "nixon", "position 89", "done")
    return play(g, "kennedy", "decline", "campaign 49")


def test_no_travel_cost() -> None:
    g = _after()
    assert effect_ids(g)[0] == ("advance_men", "kennedy")
    legal = engine.legal_commands(g, "kennedy")
    assert not any(c.startswith("travel") for c in legal)
    g = play(g, "kennedy", "support CA", "support HI", "support TX")  # West, Hawaii, South from MA
    assert g["states"]["CA"] == g["states"]["HI"] == g["states"]["TX"] == 1
    assert top(g)["step"] != "campaign"


def test_no_checks_where_nixon_carries_or_stands() -> None:
    g = _after(states={"TX": -4}, token={"kennedy": "MA", "nixon": "OH"})
    legal = engine.legal_commands(g, "kennedy")
    assert "support TX" in legal and "check TX 1" not in legal
    assert "support OH" in legal and "check OH 1" not in legal


def test_hostile_press_still_forces_checks_elsewhere() -> None:
    """Waive (#79) beats force (#55) only where the opponent carries the state or stands."""
    g = played(
        "nixon", 79, clear_board=True, states={"TX": 4}, token={"kennedy": "OH", "nixon": "CA"}
    )
    g["effects"].append({"id": "hostile_press_corps", "side": "nixon", "card": 55})
    g = play(g, "kennedy", "candidate position", "done")
    g = play(g, "nixon", "candidate campaign")
    legal = engine.legal_commands(g, "nixon")
    assert "support TX" in legal and "support OH" in legal
    assert "check NY 1" in legal and "support NY" not in legal  # forced by #55


def test_opponent_unaffected() -> None:
    g = played("kennedy", 79, other_hand=[70])
    g = play(g, "nixon", "campaign 70")
    assert any(c.startswith("travel") for c in engine.legal_commands(g, "nixon"))


def test_triggered_the_triggering_player_benefits() -> None:
    g = triggered("nixon", 79)
    assert effect_ids(g) == [("advance_men", "nixon")]
