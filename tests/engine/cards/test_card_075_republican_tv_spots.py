"""#75 Republican TV Spots: Nixon's token to New York at no cost; Nixon places 3 media support in any
region(s), no checks (ruling)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_token_and_media_choices() -> None:
    g = played("nixon", 75)
    assert g["token"]["nixon"] == "NY"
    assert engine.legal_commands(g, "nixon") == [
        "media west",
        "media midwest",
        "media south",
        "media east",
    ]


def test_three_points_kennedy_media_removed_first() -> None:
    g = played("nixon", 75, media={"west": 0, "midwest": 0, "south": 0, "east": 2})
    g = play(g, "nixon", "media east", "media east", "media west")
    assert g["media"] == {"west": -1, "midwest": 0, "south": 0, "east": 0}
    assert g["bag"] == played("nixon", 75)["bag"]  # no support checks drawn
    assert awaiting_action(g, "kennedy") and conserved(g)


def test_triggered_by_nixon() -> None:
    g = triggered("nixon", 75)
    g = play(g, "nixon", "media south", "media south", "media south")
    assert g["media"]["south"] == -3 and g["token"]["nixon"] == "NY"


def test_each_point_is_logged_as_media_support() -> None:
    """As advertising and #45 say it (it read 'Nixon gains 1 support in the South media box')."""
    g = play(played("nixon", 75), "nixon", "media south")
    assert g["log"][-1]["text"] == "Nixon gains 1 media support in the South."
