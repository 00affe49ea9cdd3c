"""Where `pbem poll` spends its time per move: a timer around each part (no profiler overhead).

    python benchmarks/mail_breakdown.py [--moves 200] [--games 50]

The workload is benchmark 2's (bench_mail.py) on the real mail stack; the poll runs in this
process with wrappers around the pipeline stages, rendering, composing, SMTP, IMAP and the
public engine calls. Nested entries are indented under what contains them; times are per call
and in total. This is the profile that explains the gap to the wire limit in README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import bench_mail
from benchmarks.mailenv import NoMailStack, mail_stack

spent: collections.Counter[str] = collections.Counter()
calls: collections.Counter[str] = collections.Counter()


def wrap(owner: Any, name: str, label: str) -> None:
    fn: Callable[..., Any] = getattr(owner, name)
    if asyncio.iscoroutinefunction(fn):

        async def timed_async(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                spent[label] += time.perf_counter() - t
                calls[label] += 1

        setattr(owner, name, timed_async)
        return

    def timed(*args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[label] += time.perf_counter() - t
            calls[label] += 1

    setattr(owner, name, timed)


def instrument() -> None:
    import pbem.outbox_process
    import pbem.send_process

    import engine
    import pbem.boardmap
    import pbem.cli_worker
    import pbem.mail.imap
    import pbem.mail.smtp
    import pbem.outbox.compose
    import pbem.outbox.parts
    import pbem.pipeline.base as base
    import pbem.pipeline.commands
    import pbem.pipeline.rows
    import pbem.replies
    import pbem.service

    wrap(pbem.service, "poll_once", "poll_once (fetch, pipeline, IMAP moves)")
    wrap(pbem.service, "process_message", "  process_message (one transaction per mail)")
    for name, h in list(base.HANDLERS.items()):
        label = f"    stage {name}"

        def stage(ctx: Any, fn: Callable[[Any], None] = h.process, label: str = label) -> None:
            t = time.perf_counter()
            try:
                fn(ctx)
            finally:
                spent[label] += time.perf_counter() - t
                calls[label] += 1

        base.HANDLERS[name] = dataclasses.replace(h, process=stage)
    wrap(pbem.replies, "render", "      render (Jinja2, text + HTML, map picture)")
    wrap(pbem.replies, "render_input", "      render input for the sender (check + JSON)")
    wrap(pbem.pipeline.commands, "text_of", "      an unsent report's text rendered (extract)")
    wrap(pbem.boardmap, "picture", "        map picture (cached per board)")
    wrap(pbem.boardmap, "draw_png", "          map picture drawn (SVG -> PNG, palette)")
    wrap(pbem.outbox.parts, "store", "      store map picture (once per board)")
    wrap(pbem.mail.imap.ImapMailbox, "fetch_new", "  IMAP fetch")
    wrap(pbem.mail.imap.ImapMailbox, "move_many", "  IMAP move (per batch)")
    wrap(pbem.service, "drain_outbox", "drain_outbox (send every report)")
    wrap(pbem.outbox.compose, "build_message", "  compose (build_message, not in poll)")
    wrap(pbem.mail.smtp.SmtpSender, "send", "  SMTP send (not in poll)")
    wrap(pbem.send_process.ProcessSender, "_ask", "  sending process: compose + SMTP, waited for")
    wrap(pbem.outbox_process.OutboxProcess, "nudge", "  nudge the sending process (per mail)")
    wrap(pbem.outbox_process.OutboxProcess, "_due", "  anything due? (start and end of poll)")
    wrap(pbem.outbox_process.OutboxProcess, "_finish", "sending process: what is left, waited for")
    wrap(pbem.cli_worker, "migrate", "migrate (schema check)")
    for name in (
        "apply_in_place",
        "copy_state",
        "legal_commands",
        "decision",
        "view",
        "to_json",
        "from_json",
    ):
        wrap(engine, name, f"      engine.{name}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--games", type=int, default=50)
    a = ap.parse_args(argv)
    try:
        with mail_stack() as server, tempfile.TemporaryDirectory(prefix="pbem-breakdown-") as tmp:
            folder = Path(tmp)
            w = bench_mail.make_workload(server, folder, a.moves, a.games)
            bench_mail.fill(server, w.settings.address, w.mails)
            db_file = folder / "run.db"
            shutil.copy(w.db_file, db_file)
            os.environ.update(bench_mail.poll_env(w.settings, db_file))
            instrument()
            from pbem.cli import cli

            t = time.perf_counter()
            with contextlib.suppress(SystemExit):  # the command ends with sys.exit
                cli.main(args=["poll"], prog_name="pbem", standalone_mode=False)
            total = time.perf_counter() - t
    except NoMailStack as exc:
        print(f"skipped: {exc}")
        return
    n = len(w.mails)
    print(
        f"\npbem poll in process: {total:.2f} s for {n} moves ({len(w.replies)} reports): "
        f"{total / n * 1e3:.1f} ms per move"
    )
    print(f"{'part':52} {'total s':>8} {'share':>6} {'calls':>6} {'ms/call':>8} {'ms/move':>8}")
    for label, s in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(
            f"{label:52} {s:8.2f} {s / total:6.1%} {calls[label]:6d} "
            f"{s / calls[label] * 1e3:8.2f} {s / n * 1e3:8.2f}"
        )


if __name__ == "__main__":
    main()
