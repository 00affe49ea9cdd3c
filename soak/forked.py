"""A `pbem` worker in a child forked from the crash soak (`soak/crash_injection.py`), which has
done its imports already: the child spends its time in the command, not in starting Python."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Protocol


class Child(Protocol):
    def wait(self, timeout: float | None = None) -> int: ...
    def poll(self) -> int | None: ...
    def send_signal(self, sig: int) -> None: ...
    def kill(self) -> None: ...


class Forked:
    """`pbem ARGS` in a child forked from this process (its imports are done already, so the
    child spends its time in the command itself, not in starting Python): the same code as
    ``python -m pbem``, entered through `pbem.cli.cli` with the worker's environment."""

    def __init__(self, args: list[str], env: dict[str, str], cwd: Path) -> None:
        from pbem.cli import cli

        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            code = 70
            try:
                os.chdir(cwd)
                os.environ.clear()
                os.environ.update(env)
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(null, fd)
                try:
                    cli.main(args=args, prog_name="pbem", standalone_mode=False)
                    code = 0
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                code = 70
            finally:
                os._exit(code)
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        end = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if end is not None and time.monotonic() >= end:
                raise subprocess.TimeoutExpired("pbem", timeout or 0)
            time.sleep(0.005)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)
