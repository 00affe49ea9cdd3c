"""#71 Heartland of America: Nixon places up to 7 support, max 1 per state, in Western or Midwestern
states worth 10 EV or fewer."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered

HEARTLAND = [
    "AK",
    "AZ",
    "CO",
    "HI",
    "ID",
    "IA",
    "KS",
    "KY",
    "MT",
    "NE",
    "NV",
    "NM",
    "ND",
    "OK",
    "OR",
    "SD",
    "UT",
    "WA",
    "WY",
]


def test_choices() -> None:
    g = played("nixon", 71)
    legal = engine.legal_commands(g, "nixon")
    assert sorted(c.split()[1] for c in legal[:-1]) == sorted(HEARTLAND) and legal[-1] == "done"
    assert "support CA" not in legal and "support MN" not in legal  # 32 and 11 EV


def test_one_per_state_seven_in_all() -> None:
    g = played("nixon", 71, clear_board=True)
    g = play(g, "nixon", "support IA")
    assert "support IA" not in engine.legal_commands(g, "nixon")
    g = play(
        g,
        "nixon",
        "support KY",
        "support AK",
        "support HI",
        "support WA",
        "support OR",
        "support NV",
    )
    assert sum(g["states"].values()) == -7 and awaiting_action(g, "kennedy") and conserved(g)


def test_triggered() -> None:
    g = triggered("nixon", 71, clear_board=True)
    g = play(g, "nixon", "support KS", "done")
    assert g["states"]["KS"] == -1
