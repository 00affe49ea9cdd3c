"""``undo`` and the clocks, through the pipeline with an injected clock: an undone mail's
hand-over is taken back with it (no second increment, the opponent not charged), and a
reminder already sent is not sent again."""

from __future__ import annotations

import re
from pathlib import Path

from tests.pbem.clockharness import ClockGame
from tests.pbem.harness import Harness

H = 3600.0
MOVE = "position 27: civil rights 1, economy 1, defense 1"  # seed 2: Kennedy's whole action
OTHER_MOVE = "position 45: civil rights 1, economy 1, defense 1"


def _game(tmp_path: Path) -> ClockGame:
    g = ClockGame.create(Harness(tmp_path), "4d+36h/10d", seed=2, reminders="50%")
    g.advance(hours=1)
    g.reply("kennedy", "first kennedy")  # Kennedy keeps deciding: no hand-over yet
    return g


def _shown(g: ClockGame, side: str, to: str) -> str:
    """``side``'s clock as the last mail to ``to`` shows it."""
    found = re.search(rf"Clock {side.title()}: ([^,]+?) left", g.text(to))
    assert found is not None, g.text(to)
    return found.group(1)


def test_undo_and_a_new_move_give_one_increment_and_charge_the_whole_decision(
    tmp_path: Path,
) -> None:
    g = _game(tmp_path)
    g.advance(hours=10)
    g.reply("kennedy", MOVE)  # 11 h used, +36 h: 4 d 25 h = 5 d 1 h
    assert g.left("kennedy") == 4 * 24 * H - 11 * H + 36 * H
    g.advance(hours=12)  # Nixon's clock runs on the trigger question meanwhile
    g.reply("kennedy", f"undo\n{OTHER_MOVE}")
    # one increment in all, and the whole decision (23 h) charged to Kennedy
    assert g.left("kennedy") == 4 * 24 * H - 23 * H + 36 * H
    assert _shown(g, "kennedy", to="nixon") == "4 d 13 h"  # Nixon's new question
    assert g.left("nixon") == 4 * 24 * H  # Nixon is charged nothing for the undone question


def test_repeated_undo_never_banks_time(tmp_path: Path) -> None:
    g = _game(tmp_path)
    for _ in range(4):
        g.advance(hours=1)
        g.reply("kennedy", MOVE)
        g.advance(hours=1)
        g.reply("kennedy", "undo")
    assert g.left("kennedy") == 4 * 24 * H - 9 * H  # its clock ran all along, no increment kept
    g.reply("kennedy", MOVE)
    assert g.left("kennedy") == 4 * 24 * H - 9 * H + 36 * H


def test_a_reminder_sent_before_the_undone_move_is_not_sent_again(tmp_path: Path) -> None:
    g = _game(tmp_path)
    g.advance(hours=49)
    g.tick()  # half of Kennedy's 4 days is gone: the 50 % reminder
    assert sum("Reminder" in s for s in g.subjects("kennedy")) == 1
    g.reply("kennedy", MOVE)
    g.advance(hours=1)
    g.reply("kennedy", "undo")
    g.advance(hours=1)
    g.tick()
    assert sum("Reminder" in s for s in g.subjects("kennedy")) == 1
