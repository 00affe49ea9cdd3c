"""A `pbem` worker in a child forked from the crash soak (`soak/crash_injection.py`), which has
done its imports already: the child spends its time in the command, not in starting Python."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Protocol

from pbem.send_process import ForkedChild


class Child(Protocol):
    def wait(self, timeout: float | None = None) -> int: ...
    def poll(self) -> int | None: ...
    def send_signal(self, sig: int) -> None: ...
    def kill(self) -> None: ...


class Forked(ForkedChild):
    """`pbem ARGS` in a child forked from this process (its imports are done already, so the
    child spends its time in the command itself, not in starting Python): the same code as
    ``python -m pbem``, entered through `pbem.cli.cli` with the worker's environment. Waited
    for and signalled as the poll's own forked sending process is (`ForkedChild`)."""

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
        super().__init__(pid)
