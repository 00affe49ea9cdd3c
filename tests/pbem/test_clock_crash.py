"""Idempotence under a crash: a tick SIGKILLed between recording and sending (a subprocess).

Killed after its commit, the reminder is in the outbox once and the next run sends it once;
killed inside the transaction (after the event row was flushed), nothing is recorded and the
next run records and sends it once.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.games.timekeeping.tick import tick
from tests.pbem.clockharness import ClockGame
from tests.pbem.harness import Harness

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import os, signal, sys
from datetime import datetime, UTC
from pbem.config import load_settings
from pbem.store.db import make_engine
from pbem.games.timekeeping import tick as service
settings = load_settings()
db = make_engine(settings.database_url)
now = datetime.fromtimestamp(float(sys.argv[2]), UTC)
if sys.argv[1] == "inside":
    real = service.notify
    def notify(*a, **kw):
        real(*a, **kw)
        os.kill(os.getpid(), signal.SIGKILL)  # the event and the outbox row are flushed, not committed
    service.notify = notify
service.tick(db, settings, now=now)
os.kill(os.getpid(), signal.SIGKILL)  # committed, not yet sent
"""


def _run(g: ClockGame, where: str) -> int:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PBEM_DATABASE_URL": g.h.settings.database_url,
        "PBEM_ADDRESS": g.h.settings.address,
        "PBEM_SECRET": g.h.settings.secret,
        "PBEM_OUTAGE_THRESHOLD": g.h.settings.outage_threshold,
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, where, str(g.at.timestamp())],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    return done.returncode


def _reminders_sent(g: ClockGame) -> int:
    return sum("Reminder" in s for side in ("kennedy", "nixon") for s in g.subjects(side))


@pytest.mark.parametrize("where", ["after-commit", "inside"])
def test_a_tick_killed_between_record_and_send_sends_each_reminder_once(
    tmp_path: Path, where: str
) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h")
    g.at += timedelta(hours=5, minutes=1)
    _run(g, where)
    recorded = len(g.events("reminder"))
    assert recorded == (1 if where == "after-commit" else 0)
    assert _reminders_sent(g) == 0
    again = tick(g.h.db, g.h.settings, now=g.at)
    assert again.reminders == (0 if where == "after-commit" else 1)
    g.send()
    g.tick()
    assert len(g.events("reminder")) == 1
    assert _reminders_sent(g) == 1
    assert sum(r.kind == "notice" for r in g.h.outbox()) == 1
