"""An outbox row whose mail cannot be composed is marked failed and does not hold up the rows
after it: a bug, or a stored row the composer no longer takes, costs that one mail — the
operator sees it (`failed`, its error, exit 3) — never the game's outbox."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import Session

import engine
from pbem.mail import SmtpSender
from pbem.outbox import send as outbox
from pbem.outbox.compose import ComposeFailure, raw_message
from pbem.store.models import OutboxMessage
from pbem.worker import intake
from tests.pbem.harness import Harness
from tests.pbem.mailtools import Capture

BROKEN = "{not json"  # extras (headers, attachments) that cannot be read


def _queue_moves(h: Harness, n: int) -> None:
    """Deliver ``n`` legal moves of the side to move (each answering the newest report)."""
    state = h.state()
    side = sorted(engine.active_sides(state))[0]
    for cmd in engine.legal_commands(state, side)[:1]:
        h.inbox.deliver(h.reply_bytes(side, cmd))
    for i in range(n - 1):  # then mails that are answered (help) without waiting for the first
        h.inbox.deliver(h.reply_bytes(side, "help", message_id=f"<help.{i}@players.test>"))


def _break_pending(h: Harness, which: int = 0) -> tuple[int, set[int]]:
    """Queue reports, make pending row ``which`` uncomposable; its id and the others'."""
    _queue_moves(h, 3)
    intake.poll_once(h.db, h.settings, h.inbox)
    pending = [r for r in h.outbox() if r.status == "pending"]
    assert len(pending) >= 2 + which, pending
    with Session(h.db) as s:
        row = s.get(OutboxMessage, pending[which].id)
        assert row is not None
        row.extras = BROKEN
        s.add(row)
        s.commit()
    bad = pending.pop(which)
    return bad.id or 0, {r.id or 0 for r in pending}


def _check(h: Harness, broken: tuple[int, set[int]], stats: outbox.SendStats) -> None:
    rows = {r.id: r for r in h.outbox() if r.id in broken[1] or r.id == broken[0]}
    bad = rows.pop(broken[0])
    assert bad.status == "failed" and bad.attempts == 1, bad
    assert bad.last_error.startswith("could not compose the mail: JSONDecodeError: "), bad
    assert all(r.status == "sent" for r in rows.values()), [(r.id, r.status) for r in rows.values()]
    assert stats.failed == 1 and stats.sent == len(rows)


@pytest.mark.parametrize("which", [0, 1])
def test_the_row_fails_and_the_rest_are_sent(tmp_path: Path, which: int) -> None:
    h = Harness(tmp_path)
    h.new_game()
    broken = _break_pending(h, which)
    _check(h, broken, h.send())


def test_over_smtp_the_row_fails_and_the_rest_are_sent(
    tmp_path: Path, smtp_capture: tuple[Capture, int]
) -> None:
    capture, port = smtp_capture
    h = Harness(tmp_path)
    h.new_game()
    broken = _break_pending(h)
    stats = outbox.drain_outbox(h.db, h.settings, SmtpSender("127.0.0.1", port))
    _check(h, broken, stats)
    assert len(capture.messages) == stats.sent


def test_compose_failure_names_the_cause(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game()
    row = h.outbox()[0]
    row.extras = BROKEN
    with pytest.raises(ComposeFailure, match=r"^could not compose the mail: \w+"):
        raw_message(h.settings, row)
