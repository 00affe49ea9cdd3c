"""The `pbem` program as a process: how it starts and how it ends.

The console script and ``python -m pbem`` enter here (`main`). Two things a short-lived worker
run from cron every minute pays on every run, and that do nothing for it:

* **The cyclic garbage collector during the imports.** Importing the command (SQLAlchemy,
  SQLModel, the models, the engine) makes ~125,000 long-lived objects and no garbage; the
  collector looks through them again and again while they are made (0.80 s instead of 0.88 s
  on the 2-core benchmark machine). `start` pauses it for the imports and then *freezes* what
  they made (`gc.freeze`): the later full collections of a long `pbem poll` or `pbem serve`
  no longer walk the modules, and a forked sending process shares those pages untouched.
* **Tearing the interpreter down.** After the command has finished, Python frees every module
  and object one by one: 0.28 s of wall time after a 200-move `pbem poll`. `finish` ends the
  process with `os._exit` instead, once its work is safely out: the database engines are
  disposed (SQLite closes its files and checkpoints the WAL as in a normal exit), the
  ``atexit`` functions have run (logging flushes its handlers there), stdout and stderr are
  flushed. Only when no other non-daemon thread is alive: a thread that Python would wait for
  is waited for, by the normal exit.

The exit status is the command's (`pbem.cli` documents the codes), as with a normal exit.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading
from typing import Any

__all__ = ["finish", "main", "start"]


def start() -> Any:
    """Import the `pbem` command with the collector paused, freeze what the imports made,
    and return the click group."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        from pbem.cli import cli
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
    return cli


def main() -> None:
    """The console script `pbem` and ``python -m pbem``."""
    cli = start()
    try:
        cli.main(prog_name="pbem")  # standalone: ends in SystemExit with the status
    except SystemExit as exc:
        finish(exc.code)
    finish(0)


def exit_status(code: object) -> int:
    """The status `sys.exit(code)` would give: None is 0, an int itself, anything else is
    printed on stderr and is 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def finish(code: object) -> None:
    """End the process with ``code`` as `sys.exit` would, without tearing the interpreter
    down when nothing else is running (see the module docstring)."""
    others = [
        t for t in threading.enumerate() if t is not threading.current_thread() and not t.daemon
    ]
    if others or threading.current_thread() is not threading.main_thread():
        raise SystemExit(code)  # a thread Python would wait for: the normal exit waits for it
    status = exit_status(code)
    from pbem.store.db import dispose_engines

    dispose_engines()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: Python's own exit says 120 then
            status = status or 120
    os._exit(status)
