"""R9 Positioning on issues: first point 1 CP, further points in the same issue 2 CP (R9.1)."""

from __future__ import annotations

from tests.engine.builders import action_position, legal, play, top

QUIET = {"kennedy": 0, "nixon": 0}


def _position(card: int = 40, **kw: object):  # type: ignore[no-untyped-def]
    kw.setdefault("momentum", dict(QUIET))
    g = action_position("kennedy", [card, 41], **kw)  # type: ignore[arg-type]
    return play(g, "kennedy", f"position {card}")


def test_r9_1_three_cp_buy_one_point_in_each_issue() -> None:
    g = _position()
    g = play(g, "kennedy", "issue defense", "issue economy", "issue civil rights")
    assert g["issues"] == {"defense": 1, "economy": 1, "civil_rights": 1}
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"


def test_r9_1_three_cp_buy_two_points_in_one_issue() -> None:
    g = _position()
    g = play(g, "kennedy", "issue defense")
    assert top(g)["cp"] == 2
    g = play(g, "kennedy", "issue defense")  # second point: 2 CP
    assert g["issues"]["defense"] == 2
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"


def test_r9_1_second_point_unaffordable_with_one_cp_left() -> None:
    g = _position(card=20)  # 2 CP
    g = play(g, "kennedy", "issue economy")
    assert legal(g, "kennedy") == ["issue defense", "issue civil_rights", "done"]


def test_r9_1_the_higher_price_applies_only_within_one_action() -> None:
    g = _position(card=20)
    g = play(g, "kennedy", "issue economy", "issue defense")
    g["stack"][-1] = {"step": "action", "side": "kennedy"}
    g = play(g, "kennedy", "position 41", "issue economy")
    assert top(g)["cp"] == 2  # the first Economy point of this action cost 1 again
    assert g["issues"]["economy"] == 2


def test_r9_2_points_first_remove_opponent_issue_cubes() -> None:
    issues = {"defense": -2, "economy": 0, "civil_rights": 0}
    g = _position(issues=issues)
    g = play(g, "kennedy", "issue defense", "issue defense")
    assert g["issues"]["defense"] == 0  # two Nixon cubes removed, no leader now


def test_r9_1_done_leaves_cp_unspent() -> None:
    g = _position()
    g = play(g, "kennedy", "issue defense", "done")
    assert g["issues"]["defense"] == 1
    assert top(g)["step"] == "action" and top(g)["side"] == "nixon"
