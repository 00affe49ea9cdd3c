"""#46 Prime-Time Television: the player chooses a region where they have media support (R1.3) and
places up to 5 support there, max 2 per state."""

import engine
from engine.data import STATES_BY_REGION
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    played,
    position_with,
    triggered,
)

MEDIA = {"west": 1, "midwest": -1, "south": 2, "east": 0}


def test_regions_with_own_media_then_five_max_two() -> None:
    g = played("kennedy", 46, clear_board=True, media=dict(MEDIA))
    assert engine.legal_commands(g, "kennedy") == ["region west", "region south"]
    g = play(g, "kennedy", "region south")
    assert engine.legal_commands(g, "kennedy") == [
        f"support {s}" for s in STATES_BY_REGION["south"]
    ] + ["done"]
    g = play(g, "kennedy", "support TX 2", "support GA 2", "support FL")
    assert "support TX" not in engine.legal_commands(g, "kennedy")
    assert sum(g["states"].values()) == 5 and awaiting_action(g, "nixon") and conserved(g)


def test_no_media_nothing() -> None:
    g0 = position_with("nixon", 46, media=dict(MEDIA))
    g = play(g0, "nixon", "event 46")
    assert g["stack"][-1]["step"] == "choose_region"  # Nixon has the Midwest
    g1 = position_with("nixon", 46, media={"west": 1, "midwest": 0, "south": 0, "east": 0})
    g2 = play(g1, "nixon", "event 46")
    assert awaiting_action(g2, "kennedy")
    assert (
        "#46 Prime-Time Television: Nixon has no region that qualifies, so nothing happens."
        in new_log(g1, g2)
    )


def test_triggered_uses_the_triggerers_media() -> None:
    g = triggered("nixon", 46, media=dict(MEDIA))
    assert engine.legal_commands(g, "nixon") == ["region midwest"]
