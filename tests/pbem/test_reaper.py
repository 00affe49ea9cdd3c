"""tests/pbem/reaper.py: the clean-up runs once the watched process is gone, and not before."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path


def _wait_for(path: Path, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_the_clean_up_runs_after_the_watched_process_is_killed(tmp_path: Path) -> None:
    watched = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    done = tmp_path / "cleaned"
    reaper = subprocess.Popen(
        [sys.executable, "-m", "tests.pbem.reaper", str(watched.pid), "touch", str(done)],
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        time.sleep(1.0)  # the reaper has polled at least once while the process lives
        assert not done.exists() and reaper.poll() is None
        watched.kill()
        watched.wait()
        assert _wait_for(done)
        assert reaper.wait(30) == 0
    finally:
        watched.kill()
        reaper.kill()
