"""#36 Henry Luce: Kennedy places one endorsement marker in a region of his choice (R10.5, R1.4)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

REGION_CHOICES = ["region west", "region midwest", "region south", "region east"]


def test_kennedy_chooses_the_region() -> None:
    g = played("kennedy", 36)
    assert engine.legal_commands(g, "kennedy") == REGION_CHOICES
    g = play(g, "kennedy", "region south")
    assert g["endorsements"] == {"west": 0, "midwest": 0, "south": 1, "east": 0}
    assert awaiting_action(g, "nixon") and conserved(g)


def test_removes_a_nixon_marker_first() -> None:
    g = played("kennedy", 36, endorsements={"west": -2, "midwest": 0, "south": 0, "east": 0})
    g = play(g, "kennedy", "region west")
    assert g["endorsements"]["west"] == -1


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 36)
    assert engine.legal_commands(g, "kennedy") == REGION_CHOICES
    g = play(g, "kennedy", "region east")
    assert g["endorsements"]["east"] == 1 and g["momentum"]["kennedy"] == 1
