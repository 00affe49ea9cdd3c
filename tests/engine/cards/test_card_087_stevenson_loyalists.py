"""#87 Stevenson Loyalists: Kennedy may not spend CP campaigning in the West or the Midwest for the
rest of the turn (reuses the region ban of #19/#20/#30)."""

import engine
from engine.data import STATES
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import new_log, played, position_with, triggered
from tests.engine.cards.part2_helpers import effect_ids


def test_kennedy_barred_from_west_and_midwest() -> None:
    g = played("nixon", 87, other_hand=[49], clear_board=True)
    assert effect_ids(g) == [("campaign_ban_regions", "kennedy")]
    g = play(g, "kennedy", "campaign 49")
    targets = {
        c.split()[1]
        for c in engine.legal_commands(g, "kennedy")
        if c.startswith(("support", "check"))
    }
    assert targets == {s for s, i in STATES.items() if i.region in ("south", "east")}


def test_nixon_unaffected() -> None:
    g = played("kennedy", 87, other_hand=[70], clear_board=True)
    g = play(g, "nixon", "campaign 70")
    assert "support CA" in engine.legal_commands(g, "nixon")


def test_triggered_by_nixon() -> None:
    g = triggered("nixon", 87)
    assert effect_ids(g) == [("campaign_ban_regions", "kennedy")]


def test_the_log_names_both_regions() -> None:
    g0 = position_with("nixon", 87)
    assert new_log(g0, play(g0, "nixon", "event 87"))[-1] == (
        "Kennedy may not campaign in the West or the Midwest for the rest of the turn "
        "(#87 Stevenson Loyalists)."
    )
