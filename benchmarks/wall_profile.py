"""Where benchmark 2's `pbem poll` spends its *wall* time: a sampling profile of the poll and
its sending process, waits included (the CPU tables say what each process computes, not what
it waits for).

    python benchmarks/wall_profile.py [--moves 200 --games 40] [--rate 100] [--keep FILE]
    python benchmarks/wall_profile.py --read FILE      # a kept profile again

Runs `benchmarks/bench_mail.py` (``--runs 1``, the given size) and, when its timed `pbem poll`
starts, attaches ``py-spy record --idle --threads --subprocesses --nonblocking --format raw``
to it, which follows the forked sending process. py-spy is not a dependency of the server:
install it where you profile (``pip install py-spy``, or ``--py-spy PATH``); without it this
prints "skipped". Sampling costs CPU on a small machine, so the benchmark's figures in that
run are lower than without it: read the shares, not the throughput.

Printed per process and thread: its samples in seconds and the frames that took most of them,
each as the innermost two frames of the project (``pbem``/``engine``) and the frame the
thread was in (e.g. ``_send_rows > _on_begin <- do_execute``: waiting in SQLite's BEGIN). A
thread that only waits for work (an idle executor thread) shows ``(none) <- _worker``.
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECT_FRAME = re.compile(r"\((pbem|engine)/")


def _short(frame: str) -> str:
    return frame.split(" (", 1)[0]


def summarise(raw: str, rate: int, top: int = 15) -> str:
    """The report for py-spy's raw (collapsed) output ``raw`` sampled at ``rate`` Hz."""
    groups: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        parts = stack.split(";")
        processes = [p for p in parts if p.startswith("process ")]
        threads = [p for p in parts if p.startswith("thread ")]
        who = "sending process" if len(processes) > 1 else "poll"
        if threads:
            who += " / " + threads[-1].split(":", 1)[-1].strip()
        frames = [p for p in parts if not p.startswith(("process ", "thread "))]
        ours = [_short(p) for p in frames if PROJECT_FRAME.search(p)]
        key = (" > ".join(ours[-2:]) if ours else "(none)") + "  <- "
        key += _short(frames[-1]) if frames else "(start-up)"
        groups[who][key] += int(count)
    out = []
    for who, counter in sorted(groups.items()):
        total = sum(counter.values())
        out.append(f"== {who}: {total / rate:.2f} s ({total} samples)")
        for key, n in counter.most_common(top):
            out.append(f"{n / rate:8.2f} s {100 * n / total:5.1f} %  {key[:150]}")
    return "\n".join(out)


def _timed_poll() -> int | None:
    """The pid of bench_mail's timed `pbem poll` (probe.py ... poll, not --no-send), if running."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        words = [a.decode(errors="replace") for a in argv]
        probe = any(w.endswith("probe.py") for w in words)
        if probe and "poll" in words and "--no-send" not in words:
            return int(entry.name)
    return None


def profile(args: argparse.Namespace, spy: str, out: Path) -> int:
    bench = subprocess.Popen(
        [
            sys.executable,
            str(HERE / "bench_mail.py"),
            "--moves",
            str(args.moves),
            "--games",
            str(args.games),
            "--runs",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    recorder = None
    while bench.poll() is None and recorder is None:
        pid = _timed_poll()
        if pid is None:
            time.sleep(0.005)
            continue
        how = ["--idle", "--threads", "--subprocesses", "--nonblocking", "--format", "raw"]
        recorder = subprocess.Popen(
            [spy, "record", "-p", str(pid), *how, "--rate", str(args.rate), "-o", str(out)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    output, _ = bench.communicate()
    if recorder is not None:
        recorder.wait(60)
    print(output, end="")
    if not out.exists():
        print("no profile was recorded (is ptrace allowed? run as root or see py-spy's docs)")
        return 1
    print(f"\nWall-time profile of the timed `pbem poll` ({args.rate} Hz, waits included)")
    print(summarise(out.read_text(), args.rate))
    return bench.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--rate", type=int, default=100, help="samples per second (py-spy)")
    ap.add_argument("--py-spy", default=shutil.which("py-spy"), help="the py-spy program")
    ap.add_argument("--keep", type=Path, help="keep the raw profile in this file")
    ap.add_argument("--read", type=Path, help="only summarise a kept raw profile")
    args = ap.parse_args()
    if args.read:
        print(summarise(args.read.read_text(), args.rate))
        return 0
    if not args.py_spy:
        print("skipped: py-spy not found (pip install py-spy, or --py-spy PATH)")
        return 0
    with tempfile.TemporaryDirectory(prefix="pbem-wall-profile-") as tmp:
        out = args.keep or Path(tmp) / "profile.txt"
        return profile(args, args.py_spy, out)


if __name__ == "__main__":
    sys.exit(main())
