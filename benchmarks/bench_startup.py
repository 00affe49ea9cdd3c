"""CPU of an idle `pbem poll` (every cron poll pays it, mail or not) and of `pbem --help`.

Each run is a new process (`python -m pbem poll`, as the `pbem` program) on a SQLite
database whose schema is current and an empty mailbox of the real mail stack; measured is
the process's own CPU (user + sys from wait4), start-up, imports, schema check, clock pass,
IMAP and outbox query included. ``--against REF`` also runs the code of git revision REF
(extracted to a temporary folder), alternating with this checkout run by run; medians::

    python benchmarks/bench_startup.py [--runs 12 --against main] [--bytecode] [--smoke]

``--bytecode``: the modules' compiled bytecode is kept (in a private ``PYTHONPYCACHEPREFIX``,
written by the untimed first runs), as in an installed server (pip compiles it at install).
Without it, under ``PYTHONDONTWRITEBYTECODE=1`` and from a source tree (this checkout, a
`git archive`), every process compiles every pbem/engine module it imports anew.

Needs the mail stack (see benchmarks/README.md); says "skipped" without. ``--smoke`` (CI,
`run_all.py`): one timed run of each command, a check that it works, no figure to trust.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.mailenv import NoMailStack, mail_stack  # noqa: E402

COMMANDS: tuple[tuple[str, ...], ...] = (("poll",), ("--help",))


def cpu_ms(code: Path, args: tuple[str, ...], env: dict[str, str]) -> float:
    """User + sys CPU of one `pbem ARGS` process running the code in ``code``."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "pbem", *args],
        cwd=code,  # sys.path[0]: this tree's pbem, before the installed one
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read() if proc.stderr else b""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{code}: pbem {' '.join(args)} failed: {err[-500:]!r}")
    return (usage.ru_utime + usage.ru_stime) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=12)
    ap.add_argument("--against", help="a git revision to measure too, alternating (e.g. main)")
    ap.add_argument("--bytecode", action="store_true", help="keep compiled bytecode (installed)")
    ap.add_argument("--smoke", action="store_true", help="one run of each command (CI)")
    args = ap.parse_args()
    if args.smoke:
        args.runs = 1
    try:
        measure(args)
    except NoMailStack as exc:
        print(f"skipped: {exc}")


def measure(args: argparse.Namespace) -> None:
    codes = {"this checkout": ROOT}
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-startup-"))
    try:
        if args.against:
            tree = tmp / "against"
            tree.mkdir()
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", args.against], capture_output=True, check=True
            )
            subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
            codes = {args.against: tree, **codes}
        with mail_stack() as server:
            address = server.fresh_address("startup")
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            env.update(
                PBEM_DATABASE_URL=f"sqlite:///{tmp}/pbem.db",
                PBEM_ADDRESS=address,
                PBEM_SECRET="bench-startup-secret-0123456789abcdef",
                PBEM_IMAP_HOST=server.host,
                PBEM_IMAP_PORT=str(server.imap_port),
                PBEM_IMAP_USER=address,
                PBEM_IMAP_PASSWORD=server.password,
                PBEM_IMAP_SSL="false",
                PBEM_SMTP_HOST=server.host,
                PBEM_SMTP_PORT=str(server.smtp_port),
                PBEM_SMTP_USER="",
                PBEM_SMTP_PASSWORD="",
                PBEM_LOCK_PATH=f"{tmp}/lock",
            )
            if args.bytecode:
                env.pop("PYTHONDONTWRITEBYTECODE", None)
                env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
            envs = {  # a database per tree: each at its own schema (a newer one has more)
                name: {**env, "PBEM_DATABASE_URL": f"sqlite:///{tmp}/pbem-{i}.db"}
                for i, name in enumerate(codes)
            }
            for name, code in codes.items():  # the schema, the folders, the .pyc files
                cpu_ms(code, ("init",), envs[name])
                for cmd in COMMANDS:
                    cpu_ms(code, cmd, envs[name])
            res: dict[tuple[str, tuple[str, ...]], list[float]] = {
                (name, cmd): [] for name in codes for cmd in COMMANDS
            }
            names = list(codes)
            for i in range(args.runs):
                for name in names if i % 2 == 0 else names[::-1]:
                    for cmd in COMMANDS:
                        res[name, cmd].append(cpu_ms(codes[name], cmd, envs[name]))
        kept = "kept, as installed" if args.bytecode else "compiled by every process"
        print(f"bytecode: {kept}; load average {os.getloadavg()[0]:.2f}")
        for (name, cmd), values in res.items():
            print(
                f"{name:>14}  pbem {' '.join(cmd):7}  CPU median {statistics.median(values):7.1f} ms"
                f"  (min {min(values):.1f}, max {max(values):.1f}, n={len(values)})"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
