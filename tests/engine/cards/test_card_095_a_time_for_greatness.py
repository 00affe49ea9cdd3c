"""#95 A Time for Greatness (GMT, R16.6): one Nixon cube comes off every issue where he has any;
Kennedy places up to 3 support anywhere, max 1 per state (R16.3 checks where Nixon carries/stands)."""

import engine
from tests.engine.builders import play
from tests.engine.cards.part1_helpers import awaiting_action, conserved, played, triggered


def test_issues_and_placement() -> None:
    g = played(
        "kennedy",
        95,
        edition="gmt",
        clear_board=True,
        issues={"defense": -2, "economy": -1, "civil_rights": 1},
    )
    assert g["issues"] == {"defense": -1, "economy": 0, "civil_rights": 1}
    g = play(g, "kennedy", "support NY")
    assert "support NY" not in engine.legal_commands(g, "kennedy")
    g = play(g, "kennedy", "support OH", "support TX")
    assert g["states"]["NY"] == g["states"]["OH"] == g["states"]["TX"] == 1
    assert awaiting_action(g, "nixon") and conserved(g)


def test_gmt_check_where_nixon_carries() -> None:
    g = played(
        "kennedy",
        95,
        edition="gmt",
        clear_board=True,
        states={"OH": -4},
        bag={"kennedy": 0, "nixon": 3},
    )
    assert "support OH" not in engine.legal_commands(g, "kennedy")
    assert "check OH 1" in engine.legal_commands(g, "kennedy")  # max 1 per state
    g = play(g, "kennedy", "support OH 1")  # R16.3 ruling: one declaration, drawn at once
    assert g["states"]["OH"] == -4 and g["bag"]["nixon"] == 2  # R16.3 check failed


def test_triggered() -> None:
    g = triggered(
        "kennedy", 95, edition="gmt", issues={"defense": -1, "economy": 0, "civil_rights": 0}
    )
    assert g["issues"]["defense"] == 0 and engine.legal_commands(g, "kennedy")[-1] == "done"
