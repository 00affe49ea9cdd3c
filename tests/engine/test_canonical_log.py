"""`apply_logged` / `apply_in_place` report the canonical commands a line stood for: what the
server's move log stores, so that a later alias or parser change cannot break a replay."""

from __future__ import annotations

import engine
from tests.engine.builders import action_position
from tests.engine.playout import options_for, play_out

QUIET = {"kennedy": 0, "nixon": 0}


def test_synonyms_and_names_become_canonical_commands() -> None:
    g = action_position("kennedy", [55], momentum=dict(QUIET), clear_board=True, states={"NY": -4})
    g, applied = engine.apply_logged(g, "kennedy", "camp 55")
    assert applied == ["campaign 55"]
    _, applied = engine.apply_logged(g, "kennedy", "place ohio")
    assert applied == ["support OH"]
    _, applied = engine.apply_logged(g, "kennedy", "support new york 2")  # R7.4: one declaration
    assert applied == ["check NY 2"]


def test_the_one_line_form_is_logged_step_by_step_and_replays_to_the_same_state() -> None:
    g = action_position("kennedy", [55], momentum=dict(QUIET), clear_board=True, states={"NY": -4})
    after, applied = engine.apply_logged(g, "kennedy", "campaign 55: NY 2, connecticut 1")
    assert applied == ["campaign 55", "check NY 2", "support CT"]
    again = g
    for cmd in applied:
        again = engine.apply(again, "kennedy", cmd)
    assert engine.to_json(again) == engine.to_json(after)


def test_canonical_text_is_logged_as_written() -> None:
    _, moves = play_out(3, "gmt")
    g = engine.new_game(3, edition="gmt", options=options_for(3, "gmt"))
    for side, cmd in moves[:200]:
        assert engine.apply_in_place(g, side, cmd) == [cmd]
