"""A `pbem` worker in a child forked from the crash soak (`soak/crash_injection.py`), which has
done its imports already: the child spends its time in the command, not in starting Python."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from pbem.cli import cli

_RESET = {signal.SIGTERM, signal.SIGHUP, signal.SIGINT}  # as a fresh `python -m pbem` has them


class Child(Protocol):
    def wait(self, timeout: float | None = None) -> int: ...
    def poll(self) -> int | None: ...
    def send_signal(self, sig: int) -> None: ...
    def kill(self) -> None: ...


class ForkedChild:
    """A forked child used as a `subprocess.Popen`: ``pid``, ``returncode``, `poll`, `wait`
    (reaps it), `send_signal` and `kill`."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored): as Popen says
                self.returncode = 0
            else:
                if pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if timeout is None:
            while self.returncode is None:
                try:
                    _, status = os.waitpid(self.pid, 0)
                except ChildProcessError:
                    self.returncode = 0
                else:
                    self.returncode = os.waitstatus_to_exitcode(status)
            return self.returncode
        deadline = time.monotonic() + timeout
        pause = 0.0005
        while (code := self.poll()) is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout)
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.02)
        return code

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:  # not reaped: the id is still the child's
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Forked(ForkedChild):
    """`pbem ARGS` in a child forked from this process (its imports are done already, so the
    child spends its time in the command itself, not in starting Python): the same code as
    ``python -m pbem``, entered through `pbem.cli.cli` with the worker's environment."""

    def __init__(
        self,
        args: list[str],
        env: dict[str, str],
        cwd: Path,
        before: Callable[[], None] | None = None,
    ) -> None:
        """``before`` runs in the child first (e.g. to plant a crash point)."""
        sys.stdout.flush()
        sys.stderr.flush()
        # the child starts with the signal handlers of a fresh process, not the harness's
        # (which unwinds on SIGTERM): the signals wait until they are reset
        signal.pthread_sigmask(signal.SIG_BLOCK, _RESET)
        pid = os.fork()
        if pid:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _RESET)
        else:  # the child: never returns
            code = 70
            try:
                for sig in _RESET:
                    signal.signal(sig, signal.SIG_DFL)
                signal.signal(signal.SIGINT, signal.default_int_handler)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, _RESET)
                os.chdir(cwd)
                os.environ.clear()
                os.environ.update(env)
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(null, fd)
                if before is not None:
                    before()
                try:
                    cli.main(args=args, prog_name="pbem", standalone_mode=False)
                    code = 0
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                code = 70
            finally:
                os._exit(code)
        super().__init__(pid)
