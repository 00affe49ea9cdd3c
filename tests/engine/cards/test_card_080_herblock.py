"""#80 Herblock: Kennedy removes up to 2 Nixon media support from any regions (R6.6)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

MEDIA = {"west": -2, "midwest": 0, "south": -1, "east": 1}


def test_choices_only_nixon_media() -> None:
    g = played("kennedy", 80, media=dict(MEDIA))
    assert engine.legal_commands(g, "kennedy") == ["media west", "media south", "done"]


def test_remove_two() -> None:
    g = played("kennedy", 80, media=dict(MEDIA))
    g = play(g, "kennedy", "media west", "media west")
    assert g["media"] == {"west": 0, "midwest": 0, "south": -1, "east": 1}
    assert awaiting_action(g, "nixon") and conserved(g)


def test_may_stop_and_limited_to_the_board() -> None:
    g = played("kennedy", 80, media=dict(MEDIA))
    g = play(g, "kennedy", "media south", "done")
    assert g["media"]["south"] == 0 and g["media"]["west"] == -2
    g = played("kennedy", 80, media={"west": 0, "midwest": 0, "south": -1, "east": 0})
    g = play(g, "kennedy", "media south")
    assert awaiting_action(g, "nixon")
    g = played("kennedy", 80)
    assert awaiting_action(g, "nixon")  # no Nixon media: nothing to choose


def test_triggered_by_kennedy() -> None:
    g = triggered("kennedy", 80, media=dict(MEDIA))
    assert engine.legal_commands(g, "kennedy") == ["media west", "media south", "done"]
