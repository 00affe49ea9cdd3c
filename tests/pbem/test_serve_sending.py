"""`pbem serve` sends the outbox from a fork of itself (`pbem.worker.serve._send`, as `pbem poll`
does), so a serve killed while the SMTP server holds a mail's reply makes no duplicate: the
fork finishes that mail, marks it sent and hands the rest back.

Before, serve sent in its own process, and a kill between a mail's end of data and its mark
left it delivered and still due: the next worker sent it again (the crash soak of 2026-12-02
found 2 such duplicates in 310 kills of serve, none in 690 kills of poll)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pbem import service
from tests.pbem.harness import Harness
from tests.pbem.mailtools import free_port, process_gone, wait_until
from tests.pbem.test_outbox_process import _message_ids, _Stall

ROOT = Path(__file__).resolve().parents[2]
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork, /proc")

SERVE_SENDS = """
import os, sys
from pbem.outbox import send as outbox_send
from pbem.worker import serve
from pbem.config import Settings
from pbem.store.db import make_engine
from pbem.mail import SmtpSender

url, port = sys.argv[1], int(sys.argv[2])
settings = Settings(database_url=url, address="game@pbem.test", secret="test-secret")
send_due = outbox_send.send_due


async def where(*args, **kwargs):  # which process sends
    print("sending in", os.getpid(), flush=True)
    return await send_due(*args, **kwargs)


outbox_send.send_due = where
print("serve", os.getpid(), flush=True)
stats = serve._send(make_engine(url), settings, SmtpSender("127.0.0.1", port))
print("sent", stats.sent, flush=True)
"""


def _serve_sends(h: Harness, port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", SERVE_SENDS, h.settings.database_url, str(port)],
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )


def _queued(tmp_path: Path) -> Harness:
    h = Harness(tmp_path)
    service.new_game(h.db, h.settings, kennedy="k@players.test", nixon="n@players.test")
    h.db.dispose()
    return h


@linux
def test_serve_sends_from_a_fork_and_a_kill_mid_mail_makes_no_duplicate(tmp_path: Path) -> None:
    from aiosmtpd.controller import Controller

    h = _queued(tmp_path)
    capture = _Stall("DATA")  # the first mail's end of data received, its reply held 3 s
    controller = Controller(capture, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        proc = _serve_sends(h, controller.port)
        assert proc.stdout is not None
        serve_line = proc.stdout.readline().split()
        sending_line = proc.stdout.readline().split()
        assert serve_line[0] == b"serve" and sending_line[:2] == [b"sending", b"in"]
        sender_pid = int(sending_line[2])
        assert sender_pid != int(serve_line[1])  # not serve's own process
        assert wait_until(lambda: capture.waiting, 60)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert wait_until(lambda: process_gone(sender_pid), 30, 0.02)
    finally:
        controller.stop()
    first, second = h.outbox()
    assert _message_ids(capture) == [first.message_id.encode()]  # delivered once
    assert first.status == "sent" and first.attempts == 1  # and marked: not sent again
    assert second.status == "pending" and second.claimed_by is None and second.attempts == 0


@linux
def test_serve_sends_everything_due_and_says_so(tmp_path: Path) -> None:
    from aiosmtpd.controller import Controller

    from tests.pbem.mailtools import Capture

    h = _queued(tmp_path)
    capture = Capture()
    controller = Controller(capture, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        proc = _serve_sends(h, controller.port)
        out, _ = proc.communicate(timeout=120)
    finally:
        controller.stop()
    assert proc.returncode == 0
    assert out.decode().splitlines()[-1] == "sent 2"
    rows = h.outbox()
    assert all(r.status == "sent" and r.attempts == 1 for r in rows)
    assert sorted(_message_ids(capture)) == sorted(r.message_id.encode() for r in rows)
