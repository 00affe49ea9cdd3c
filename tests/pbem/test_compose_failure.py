"""An outbox row whose mail cannot be rendered or composed is marked failed and does not hold up
the rows after it (reports are rendered at send time, `outboxmessage.render_input`): a bug in a
template, or a stored render input the templates no longer take, costs that one mail — the
operator sees it (`failed`, its error, exit 3) — never the game's outbox."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import Session

from pbem import service
from pbem.mail import SmtpSender
from pbem.outbox_process import OutboxProcess
from pbem.store.models import OutboxMessage
from tests.pbem.harness import Harness
from tests.pbem.mailtools import Capture
from tests.pbem.test_outbox_pump import _queue_moves

BROKEN = '{"kind": "report", "ctx": {}}'  # a render input the templates reject (no view)


def _break_first_pending(h: Harness, which: int = 0) -> tuple[int, set[int]]:
    """Queue reports, make the first pending one (``which``: that one) unrenderable; its id
    and the others'."""
    _queue_moves(h, 3)
    service.poll_once(h.db, h.settings, h.inbox)
    pending = [r for r in h.outbox() if r.status == "pending"]
    assert len(pending) >= 2 + which and pending[which].render_input, pending
    with Session(h.db) as s:
        row = s.get(OutboxMessage, pending[which].id)
        assert row is not None
        row.render_input = BROKEN
        s.add(row)
        s.commit()
    bad = pending.pop(which)
    return bad.id or 0, {r.id or 0 for r in pending}


def _check(h: Harness, broken: tuple[int, set[int]], stats: service.SendStats) -> None:
    rows = {r.id: r for r in h.outbox() if r.id in broken[1] or r.id == broken[0]}
    bad = rows.pop(broken[0])
    assert bad.status == "failed" and bad.attempts == 1, bad
    assert bad.last_error.startswith("could not compose the mail: ValueError: "), bad.last_error
    assert all(r.status == "sent" for r in rows.values()), [(r.id, r.status) for r in rows.values()]
    assert stats.failed == 1 and stats.sent == len(rows)


def test_in_process_the_row_fails_and_the_rest_are_sent(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game()
    broken = _break_first_pending(h)
    stats = h.send()  # raised ValueError before, with every row after it left unsent
    _check(h, broken, stats)


@pytest.mark.parametrize("which", [0, 1])  # 1: composed while the row before it is sent
def test_in_pbem_polls_sending_process_the_row_fails_and_the_rest_are_sent(
    tmp_path: Path, smtp_capture: tuple[Capture, int], which: int
) -> None:
    capture, port = smtp_capture
    h = Harness(tmp_path)
    h.new_game()
    broken = _break_first_pending(h, which)
    with OutboxProcess(h.db, h.settings, SmtpSender("127.0.0.1", port)) as pump:
        pass  # rows are due: the child sends them as the poll leaves
    _check(h, broken, pump.stats)
    assert len(capture.messages) == pump.stats.sent


@pytest.mark.parametrize(
    "broken_input", [BROKEN, "{not json", '{"kind": "no-such-kind", "ctx": {}}']
)
def test_compose_failure_names_the_cause(tmp_path: Path, broken_input: str) -> None:
    from pbem.outbox.compose import ComposeFailure, composed

    h = Harness(tmp_path)
    h.new_game()
    row = h.outbox()[0]
    row.render_input = broken_input
    with pytest.raises(ComposeFailure, match=r"^could not compose the mail: \w+"):
        composed(h.settings, row)


def test_a_row_composed_while_the_one_before_is_sent_fails_alone(tmp_path: Path) -> None:
    # the sender composes the next row while the server queues the current one
    # (`outbox_send._send_row`): its failure is still its own, in its own turn
    h = Harness(tmp_path)
    h.new_game()
    broken = _break_first_pending(h, 1)
    _check(h, broken, h.send())
