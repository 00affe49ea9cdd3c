"""`pbem serve`: the IDLE loop processes mail as it arrives and stops cleanly on SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from pbem.worker.serve import Stopper, serve
from tests.pbem.harness import Harness
from tests.pbem.mailtools import free_port, port_open


def test_the_loop_resyncs_after_idle_and_stops(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    stopper = Stopper()
    passes: list[str] = []
    worker = threading.Thread(
        target=serve,
        args=(h.db, h.settings, lambda: h.inbox, h.sender),
        kwargs={"stopper": stopper, "idle_timeout": 0.2, "on_pass": passes.append},
    )
    worker.start()
    try:
        h.inbox.deliver(h.reply_bytes("kennedy", "first kennedy"))
        deadline = time.monotonic() + 10
        while not any("1 applied" in p for p in passes) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stopper.stop()
        worker.join(5)
    assert not worker.is_alive()
    assert any("1 applied" in p for p in passes)
    assert h.inbox.folder_uids("Processed") == [1]
    assert len(h.mails_to("kennedy")) == 2  # welcome + the report, sent by the loop


def test_serve_embedded_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    smtp, imap = free_port(), free_port()
    env = os.environ | {
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/s.db",
        "PBEM_ADDRESS": "game@example.test",
        "PBEM_SECRET": "x" * 16,
    }
    subprocess.run([sys.executable, "-m", "pbem", "init"], env=env, check=True, capture_output=True)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pbem",
            "serve",
            "--embedded",
            "--smtp-port",
            str(smtp),
            "--imap-port",
            str(imap),
            "--idle-timeout",
            "30",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not port_open("127.0.0.1", imap) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)  # let it enter IDLE
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "stopped" in out and f"IMAP 127.0.0.1:{imap}" in out
    assert time.monotonic() - started < 10  # IDLE was interrupted, not waited out
