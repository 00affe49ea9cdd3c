"""#55 Hostile Press Corps: for the rest of the turn Nixon's campaigning needs support checks in every
state, as if Kennedy carried them all (R7.4; media support still exempts)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import played, triggered
from tests.engine.cards.part2_helpers import effect_ids


def _nixon_campaigns(g: engine.GameState) -> list[str]:
    g = play(g, "nixon", "campaign 89")
    return engine.legal_commands(g, "nixon")


def test_nixon_checks_everywhere() -> None:
    g = played("kennedy", 55, other_hand=[89], clear_board=True)
    assert effect_ids(g) == [("hostile_press_corps", "nixon")]
    legal = _nixon_campaigns(g)
    assert "check CA 1" in legal and "check CA 2" in legal and "support CA" not in legal


def test_media_support_still_exempts() -> None:
    g = played(
        "kennedy",
        55,
        other_hand=[89],
        clear_board=True,
        media={"west": -1, "midwest": 0, "south": 0, "east": 0},
    )
    legal = _nixon_campaigns(g)
    assert "support CA" in legal and "check CA 1" not in legal
    assert "check OH 1" in legal  # no media in the Midwest


def test_kennedy_unaffected() -> None:
    g = played("kennedy", 55, extra=[59], other_hand=[89], clear_board=True)
    g = play(g, "nixon", "position 89", "done")
    g = play(g, "kennedy", "decline", "campaign 59")
    assert "support MA" in engine.legal_commands(g, "kennedy")


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 55)
    assert effect_ids(g) == [("hostile_press_corps", "nixon")]
