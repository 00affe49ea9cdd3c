"""Run every benchmark, each in its own process (scripts/test.sh runs ``--smoke`` in CI).

    python benchmarks/run_all.py [--smoke]

``--smoke`` runs each once at a tiny size: a check that it still works and prints its table,
never a timing assertion. The exit status is non-zero only if a benchmark crashed. The mail
benchmarks (2, 3, 7, 8, 10, 11) need the real mail stack (MAILSTACK_* set, or root) and say "skipped" without;
7 also needs PostgreSQL (PBEM_TEST_POSTGRES_URL, or root).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHMARKS = (
    "bench_engine.py",
    "bench_mail.py",
    "bench_idle.py",
    "bench_replay.py",
    "bench_roundtrips.py",
    "bench_bots.py",
    "fit_evaluation.py",
    "bench_parse_budget.py",
    "bench_scaleout.py",
    "bench_latency.py",
    "bench_startup.py",
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--smoke", action="store_true", help="tiny sizes (CI)")
    a = ap.parse_args(argv)
    failed = []
    for name in BENCHMARKS:
        print(f"== {name}{' --smoke' if a.smoke else ''}", flush=True)
        t = time.perf_counter()
        done = subprocess.run([sys.executable, str(HERE / name), *(["--smoke"] if a.smoke else [])])
        print(f"   ({time.perf_counter() - t:.1f} s, exit {done.returncode})", flush=True)
        if done.returncode != 0:
            failed.append(name)
    if failed:
        print("crashed: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
