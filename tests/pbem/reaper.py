"""Run a clean-up command once a watched process is gone, even if that process was SIGKILLed.

    python -m tests.pbem.reaper PID COMMAND [ARG ...]

The test fixtures that start servers as child processes (``private_mailstack``) start one of
these beside them, in its own session: a pytest killed by an outside ``timeout`` or SIGKILL runs no
fixture finalizer, and without the reaper its private Postfix and Dovecot would keep running. On a
normal teardown the fixture stops the servers itself and terminates the reaper first.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    try:  # a zombie (exited, not yet reaped by its parent) is gone for our purpose
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    pid, command = int(argv[0]), argv[1:]
    while alive(pid):
        time.sleep(0.5)
    return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
