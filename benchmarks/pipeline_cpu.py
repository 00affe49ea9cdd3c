"""CPU per move of the pipeline around the report (issue 14): every stage of `process_message`.

    python benchmarks/pipeline_cpu.py [--moves 200] [--games 40] [--runs 5] [--workload DIR]

Benchmark 2's workload (`bench_mail.make_workload`: N move mails over G games, each answering
the report the server would have sent), made without a mail stack, then the mails are applied
in this process with `process_message` on a fresh copy of the pristine database, ``--runs``
times. Measured with `time.process_time` (CPU, not wall: the machine is shared) around
`process_message` and around each stage, and the SQL statements each stage sends
(``before_cursor_execute``). The ``report`` stage (rendering and queueing the reports) is shown
but not counted in "pipeline without report", the figure this benchmark is for. ``--workload``
keeps the workload in DIR (made once, reused), so runs of two versions of the code can
alternate on the very same mails.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import pickle
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event

from benchmarks.common import Row, print_table


def make(folder: Path, moves: int, games: int) -> tuple[Path, Any, list[bytes]]:
    """The pristine database, settings and mails in *folder* (made on the first call)."""
    saved = folder / "workload.pickle"
    if saved.exists():
        settings, mails = pickle.loads(saved.read_bytes())
        return folder / "pristine.db", settings, mails
    from benchmarks import bench_mail
    from tests.pbem.mailtools import MailServer

    server = MailServer("embedded", "127.0.0.1", 1, 1, "example.test", "x")  # never connected
    w = bench_mail.make_workload(server, folder, moves, games)
    saved.write_bytes(pickle.dumps((w.settings, w.mails)))
    return w.db_file, w.settings, w.mails


def run_once(pristine: Path, settings: Any, mails: list[bytes], tmp: Path) -> dict[str, Any]:
    """Apply every mail to a fresh copy; CPU seconds and statements per stage, and in all."""
    from pbem.pipeline.runner import STAGES, process_message
    from pbem.store.db import make_engine, migrate

    db_file = tmp / "run.db"
    shutil.copy(pristine, db_file)
    url = f"sqlite:///{db_file}"
    db = make_engine(url)
    migrate(db)
    settings = settings.with_(database_url=url)
    cpu: collections.Counter[str] = collections.Counter()
    sql: collections.Counter[str] = collections.Counter()
    current = ["(outside)"]

    @event.listens_for(db, "before_cursor_execute")
    def _count(*_args: Any) -> None:
        sql[current[0]] += 1

    timed = []
    for h in STAGES:

        def stage(ctx: Any, fn: Callable[[Any], None] = h.process, name: str = h.name) -> None:
            current[0] = name
            t = time.process_time()
            try:
                fn(ctx)
            finally:
                cpu[name] += time.process_time() - t
                current[0] = "(outside)"

        timed.append(dataclasses.replace(h, process=stage))
    outcomes: collections.Counter[str] = collections.Counter()
    try:
        for i, raw in enumerate(mails):
            t = time.process_time()
            out = process_message(
                db, settings, raw, mailbox="INBOX", uidvalidity=1, uid=i + 1, pipeline=tuple(timed)
            )
            cpu["(process_message)"] += time.process_time() - t
            outcomes[out.outcome] += 1
    finally:
        db.dispose()
    if outcomes != {"applied": len(mails)}:
        raise RuntimeError(f"not every mail applied: {dict(outcomes)}")
    return {"cpu": cpu, "sql": sql}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--workload", type=Path, help="keep (or reuse) the workload in this folder")
    ap.add_argument("--json", type=Path, help="also write the per-run figures here")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pbem-pipeline-cpu-") as tmp:
        folder = a.workload or Path(tmp) / "workload"
        folder.mkdir(parents=True, exist_ok=True)
        pristine, settings, mails = make(folder, a.moves, a.games)
        runs = [run_once(pristine, settings, mails, Path(tmp)) for _ in range(a.runs)]
    n = len(mails)
    if a.json:
        a.json.write_text(json.dumps([{k: dict(v) for k, v in r.items()} for r in runs]))
    stages = sorted({s for r in runs for s in r["cpu"]} - {"(process_message)"})
    rows = [
        Row(
            "pipeline without report (CPU per move)",
            n,
            "s",
            [(r["cpu"]["(process_message)"] - r["cpu"]["report"]) / n for r in runs],
        ),
        Row(
            "process_message (CPU per move)",
            n,
            "s",
            [r["cpu"]["(process_message)"] / n for r in runs],
        ),
    ]
    rows += [
        Row(f"  stage {s}", n, "s", [r["cpu"][s] / n for r in runs])
        for s in sorted(stages, key=lambda s: -statistics.median(r["cpu"][s] for r in runs))
    ]
    print_table(f"Pipeline CPU per move ({n} moves, {a.runs} runs, time.process_time)", rows)
    sql = runs[-1]["sql"]
    total = sum(v for k, v in sql.items() if k != "report")
    print(f"\nSQL statements per move, without report: {total / n:.2f}")
    for name, count in sorted(sql.items(), key=lambda kv: -kv[1]):
        print(f"  {name:24} {count / n:6.2f}")


if __name__ == "__main__":
    main()
