"""`benchmarks.cpu.stack_cpu`: the CPU of a mail stack's processes, found from its pid files."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.cpu import stack_cpu

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")

BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < {s}: pass\n"


def _master(tmp_path: Path, seconds: float) -> subprocess.Popen[bytes]:
    """A stand-in "master": burns CPU in a child it reaps, then burns some itself, then waits."""
    code = (
        "import subprocess, sys, time\n"
        f"subprocess.run([sys.executable, '-c', {BURN.format(s=seconds)!r}])\n"
        + BURN.format(s=seconds)
        + "time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code])
    (tmp_path / "dovecot.pid").write_text(f"{proc.pid}\n")
    return proc


def _cpu_reaching(state_dir: Path, seconds: float) -> float:
    """`stack_cpu` of ``state_dir`` once it reaches ``seconds`` (or what it is after 30 s)."""
    deadline = time.monotonic() + 30
    seen = 0.0
    while time.monotonic() < deadline and seen < seconds:
        time.sleep(0.1)
        seen = stack_cpu(str(state_dir)) or 0.0
    return seen


def test_counts_a_master_and_the_children_it_reaped(tmp_path: Path) -> None:
    proc = _master(tmp_path, 0.3)
    try:
        seen = _cpu_reaching(tmp_path, 0.55)
        assert seen >= 0.55  # 0.3 s in the reaped child + 0.3 s in the master, less rounding
        assert seen < 5
    finally:
        proc.kill()
        proc.wait()


def test_no_stack_is_none(tmp_path: Path) -> None:
    assert stack_cpu(None) is None
    assert stack_cpu(str(tmp_path)) is None  # no pid files
    (tmp_path / "dovecot.pid").write_text("999999999\n")  # no such process
    assert stack_cpu(str(tmp_path)) is None


def test_a_running_child_counts_before_it_is_reaped(tmp_path: Path) -> None:
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys; subprocess.run([sys.executable, '-c', "
            + repr(BURN.format(s=0.4) + "import time; time.sleep(60)\n")
            + "])",
        ]
    )
    (tmp_path / "dovecot.pid").write_text(str(parent.pid))
    try:
        assert _cpu_reaching(tmp_path, 0.35) >= 0.35
    finally:
        for child in Path(f"/proc/{parent.pid}/task/{parent.pid}/children").read_text().split():
            os.kill(int(child), 9)
        parent.kill()
        parent.wait()
