"""Receipts through the pipeline: an applied mail that gets no report for its sender is answered
with a short receipt (what was applied, who is on the move, when the sender hears next);
``notify receipts off`` stops them; a mail that gets a report gets no receipt besides."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pbem.harness import Harness

MOVE = "position 27: civil rights 1, economy 1, defense 1"  # seed 2: Kennedy's whole action


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    harness = Harness(tmp_path)
    harness.new_game(seed=2)  # Kennedy won the initiative
    harness.reply("kennedy", "first kennedy")
    return harness


def _new_mails(h: Harness, side: str, body: str) -> list[str]:
    before = len(h.mails_to(side))
    assert set(h.reply(side, body).outcomes) <= {"applied", "answered"}
    return [
        " ".join(h.text_of(m).split()) + " | " + str(m["Subject"])
        for m in h.mails_to(side)[before:]
    ]


def test_a_move_that_asks_the_sender_nothing_gets_a_short_receipt(h: Harness) -> None:
    (receipt,) = _new_mails(h, "kennedy", MOVE)
    assert "received, waiting for Nixon" in receipt  # the subject
    assert f"Received and applied: {MOVE}" in receipt
    assert (
        "Now: activity phase 1 of 5. On the move: Nixon (trigger #27 Nelson Rockefeller)."
        in receipt
    )
    assert "You hear from us next as soon as you must decide" in receipt
    assert "'notify receipts off' stops these receipts" in receipt
    assert "YOUR HAND" not in receipt and "THE BOARD" not in receipt  # small
    assert len(h.last_mail("kennedy").as_bytes()) < 10_000


def test_notify_receipts_off_stops_them(h: Harness) -> None:
    (confirmed,) = _new_mails(h, "kennedy", "notify receipts off")
    assert "no receipts" in confirmed
    assert _new_mails(h, "kennedy", MOVE) == []
    assert _new_mails(h, "kennedy", f"undo\n{MOVE}\nnotify receipts on")[0].count("Received and")


def test_a_mail_that_gets_a_report_gets_no_receipt_besides(h: Harness) -> None:
    h.reply("kennedy", "notify every")
    mails = _new_mails(h, "kennedy", MOVE)
    assert len(mails) == 1 and "Received and applied" not in mails[0]
