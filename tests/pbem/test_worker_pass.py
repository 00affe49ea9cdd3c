"""pbem.worker.worker_pass: the replies to the mail leave before the housekeeping; what the
housekeeping queues leaves in the same pass; an SMTP server that does not answer is tried
once per pass."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from pbem.config import Settings
from pbem.mail import TemporaryFailure
from pbem.store.models import OutboxMessage
from pbem.worker import worker_pass as pass_module
from pbem.worker.intake import PollStats
from pbem.worker.worker_pass import worker_pass
from tests.pbem.harness import EMAILS, Harness


def _moved(tmp_path: Path) -> Harness:
    """A game whose player to move has a move waiting in the inbox (welcome mails sent)."""
    h = Harness(tmp_path)
    h.new_game(seed=2)
    h.inbox.deliver(h.reply_bytes("kennedy", h.legal("kennedy")[0]))
    return h


def test_the_replies_leave_before_the_housekeeping(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = _moved(tmp_path)
    welcome = len(h.sender.sent)
    sent_by_then: list[int] = []
    original = pass_module.housekeeping

    def housekeeping(
        db: Engine, settings: Settings, now: datetime | None, stats: PollStats
    ) -> PollStats:
        sent_by_then.append(len(h.sender.sent))
        return original(db, settings, now, stats)

    monkeypatch.setattr(pass_module, "housekeeping", housekeeping)
    report = worker_pass(h.db, h.settings, inbox=h.inbox, sender=h.sender)
    assert report.mail.outcomes["applied"] == 1
    assert sent_by_then[0] > welcome  # the move's reports were handed to SMTP already
    assert report.sent is not None and report.sent.sent == len(h.sender.sent) - welcome
    assert not [row for row in h.outbox() if row.status == "pending"]


def test_what_the_housekeeping_queues_leaves_in_the_same_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = _moved(tmp_path)
    welcome = len(h.sender.sent)
    original = pass_module.housekeeping

    def housekeeping(
        db: Engine, settings: Settings, now: datetime | None, stats: PollStats
    ) -> PollStats:
        with Session(db) as s:  # a mail the housekeeping queues (a notice, say)
            s.add(
                OutboxMessage(
                    message_id="<notice@pbem.test>",
                    kind="notice",
                    recipient=EMAILS["nixon"],
                    subject="a notice",
                    text="hello",
                    html="",
                )
            )
            s.commit()
        return original(db, settings, now, stats)

    monkeypatch.setattr(pass_module, "housekeeping", housekeeping)
    report = worker_pass(h.db, h.settings, inbox=h.inbox, sender=h.sender)
    assert not [row for row in h.outbox() if row.status == "pending"]
    assert report.sent is not None and report.sent.sent == len(h.sender.sent) - welcome
    assert h.last_mail("nixon")["Subject"] == "a notice"  # after both reports


def test_an_smtp_server_that_does_not_answer_is_tried_once_per_pass(tmp_path: Path) -> None:
    h = _moved(tmp_path)
    welcome = len(h.sender.sent)
    h.sender.fail_with = [TemporaryFailure("connection refused")]  # no SMTP reply at all
    report = worker_pass(h.db, h.settings, inbox=h.inbox, sender=h.sender)
    assert report.mail.outcomes["applied"] == 1
    assert report.sent is not None and report.sent.unreachable and report.sent.sent == 0
    assert len(h.sender.sent) == welcome  # the second send of the pass was not tried
    pending = [row for row in h.outbox() if row.status == "pending"]
    assert pending and all(row.attempts == 0 for row in pending)  # all due for the next pass
    again = worker_pass(h.db, h.settings, inbox=h.inbox, sender=h.sender).sent
    assert again is not None and again.sent == len(pending)
