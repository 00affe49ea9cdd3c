"""#60 World Series Ends: if one player has media support in the East, that player places up to 5
support in Eastern states, max 2 per state; otherwise nothing happens."""

import engine
from engine.data import STATES
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import (
    awaiting_action,
    conserved,
    new_log,
    played,
    position_with,
)

EAST = [s for s, i in STATES.items() if i.region == "east"]


def _media(east: int) -> dict[str, int]:
    return {"west": 0, "midwest": 0, "south": 0, "east": east}


def test_the_side_with_eastern_media_places_even_if_the_other_played_it() -> None:
    g = played("nixon", 60, clear_board=True, media=_media(2))
    assert engine.active_sides(g) == {"kennedy"}
    assert engine.legal_commands(g, "kennedy") == [f"support {s}" for s in EAST] + ["done"]
    g = play(g, "kennedy", "support NY", "support NY")
    assert "support NY" not in engine.legal_commands(g, "kennedy")
    g = play(g, "kennedy", "support PA", "support PA", "support WV")
    assert g["states"]["NY"] == 2 and g["states"]["PA"] == 2 and g["states"]["WV"] == 1
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_nixon_media() -> None:
    g = played("kennedy", 60, clear_board=True, media=_media(-1))
    g = play(g, "nixon", "support NJ", "done")
    assert g["states"]["NJ"] == -1


def test_no_eastern_media_nothing_happens() -> None:
    g = position_with(
        "kennedy", 60, clear_board=True, media={"west": 3, "midwest": 0, "south": 0, "east": 0}
    )
    before = g
    g = play(g, "kennedy", "event 60")
    assert g["states"] == before["states"] and awaiting_action(g, "nixon") and 60 in g["removed"]
    assert (
        "#60 World Series Ends: nobody has media support in the East, so nothing happens."
        in new_log(before, g)
    )
