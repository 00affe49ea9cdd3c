"""CPU per report of `pbem poll`'s sending path: the sending process and the hand-over to it.

N outbox rows shaped like the reports of N/2 moves (each move a new board picture, shared by
its two reports; the text, HTML and picture of a real game's welcome mail, ~68 KB composed)
are sent to the real Dovecot + Postfix stack by `service.drain_outbox` with a
`pbem.send_process.ProcessSender`, as the pump thread does. Measured, per report:

* the sending process: its whole CPU (start-up included) ÷ N, its start-up (CPU until the
  first report's answer), and the rest ÷ (N − 1);
* the hand-over: CPU of the sending thread inside ``send_row`` (what the pump thread spends
  with the main process's GIL per row), and that thread's whole `send_due` (claims, image
  loads and marks included).

Baseline in the same run: the *wire* — a bare aiosmtplib client sending the same bytes on one
session (its process CPU ÷ N). ``--against REF`` also runs the code of git revision REF
(extracted to a temporary folder), alternating with this checkout, run by run::

    python benchmarks/bench_sendproc.py [--reports 200 --runs 5 --against main]

Needs the mail stack (see benchmarks/README.md). Each measurement runs in its own process.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def _proc_cpu(pid: int) -> float:
    raw = Path(f"/proc/{pid}/stat").read_text()
    fields = raw[raw.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def queue_move(
    session: Any, image: Any, rows: list[dict[str, Any]], k: int, tag: str, domain: str = ""
) -> None:
    """Add move ``k``'s outbox rows shaped like reports: a new board picture (``image``'s bytes
    made distinct) and one row per welcome row in ``rows`` (``model_dump``s) showing it; with
    ``domain``, each to its own recipient there (also used by bench_pump.py)."""
    from pbem.store.models import MailImage, OutboxMessage

    cid = f"board-{k:024d}@1960.pbem"
    data = image.data + k.to_bytes(4, "big")
    session.add(
        MailImage(cid=cid, content_type=image.content_type, filename=image.filename, data=data)
    )
    for side, row in zip(("k", "n"), rows, strict=True):
        fields = {**row, "message_id": f"<{tag}.{k}.{side}@pbem.test>"}
        if domain:
            fields["recipient"] = f"{side}{k % 7}@{domain}"
        fields["html"] = row["html"].replace(image.cid, cid)
        session.add(OutboxMessage(**fields))


def _inner(reports: int, host: str, port: int, domain: str) -> dict[str, float]:
    """One measurement, in this process (its ``pbem`` is the code under test)."""
    import asyncio
    import dataclasses
    import resource

    import aiosmtplib
    from sqlmodel import Session, select

    from pbem import service
    from pbem.mail import SmtpSender
    from pbem.outbox import parts as mailimages
    from pbem.outbox.compose import raw_message
    from pbem.send_process import ProcessSender
    from pbem.store.models import OutboxMessage
    from tests.pbem.harness import Harness

    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-sendproc-"))
    try:
        from pbem.outbox import queue as replies

        replies.DEFER_RENDER = False  # rows rendered when queued: their picture is stored
        h = Harness(tmp)
        h.new_game(seed=2)  # two welcome mails with the board picture (sent to a MemorySender)
        with Session(h.db) as s:
            welcome = list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))
            (image,) = mailimages.load(s, [welcome[0].html]).values()
            base = [r.model_dump(exclude={"id", "status", "sent_at"}) for r in welcome]
            for k in range(reports // 2):  # one move: a new picture, two reports showing it
                queue_move(s, image, base, k, tag="bench", domain=domain)
            for row in welcome:
                row.status = "sent"
                s.add(row)
            s.commit()
            rows = list(s.exec(select(OutboxMessage).where(OutboxMessage.status == "pending")))
            images = mailimages.load(s, (r.html for r in rows))
        raws = [raw_message(h.settings, r, images) for r in rows]
        settings = dataclasses.replace(h.settings)

        spent = [0.0]
        first: list[float] = []
        last: list[float] = []

        class Timed(ProcessSender):
            async def send_row(self, *args: Any) -> None:
                t = time.thread_time()
                try:
                    await super().send_row(*args)
                finally:
                    spent[0] += time.thread_time() - t
                    if not first and self._proc is not None:  # the child has answered once
                        first.append(_proc_cpu(self._proc.pid))

            async def __aexit__(self, *exc: object) -> None:
                if self._proc is not None:
                    last.append(_proc_cpu(self._proc.pid))
                await super().__aexit__(*exc)

        sender = Timed(settings, SmtpSender(host, port))
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.thread_time()
        stats = service.drain_outbox(h.db, settings, sender)
        thread = time.thread_time() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        assert stats.sent == len(rows) == reports and not stats.failed, stats
        child = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)

        async def wire() -> float:
            t = time.process_time()
            smtp = aiosmtplib.SMTP(hostname=host, port=port, start_tls=False)
            await smtp.connect()
            for raw, row in zip(raws, rows, strict=True):
                await smtp.sendmail(settings.address, [row.recipient], raw)
            await smtp.quit()
            return time.process_time() - t

        wire_cpu = asyncio.run(wire())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {
        "child": child / reports,
        "child_startup": first[0],
        "child_steady": (last[0] - first[0]) / (reports - 1),
        "handover": spent[0] / reports,
        "send_due": thread / reports,
        "wire": wire_cpu / reports,
        "bytes": sum(map(len, raws)) / len(raws),
    }


def _run(code: Path, reports: int, server: Any) -> dict[str, float]:
    # the base interpreter with this environment's packages on PYTHONPATH: no editable-install
    # finder (a .pth file), so ``code``'s pbem is the one imported, here and in the child
    site_packages = [p for p in sys.path if p.endswith("site-packages")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(code), str(ROOT), *site_packages])}
    out = subprocess.run(
        [
            str(Path(sys.base_prefix) / "bin" / "python3"),
            str(Path(__file__).resolve()),
            "--inner",
            json.dumps([reports, server.host, server.smtp_port, server.domain]),
        ],
        cwd=code,
        env=env,
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise SystemExit(f"measurement failed ({code}):\n{out.stderr[-3000:]}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:8.3f}  {min(values) * 1000:.3f}–{max(values) * 1000:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reports", type=int, default=200)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--against", help="a git revision to measure too, alternating (e.g. main)")
    ap.add_argument("--smoke", action="store_true", help="one tiny run (CI)")
    ap.add_argument("--inner", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:
        print(json.dumps(_inner(*json.loads(args.inner))))
        return
    if args.smoke:
        args.reports, args.runs = 6, 1
    sys.path.insert(0, str(ROOT))
    from benchmarks.mailenv import NoMailStack, mail_stack

    codes = {"this checkout": ROOT}
    tmp = None
    if args.against:
        tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-against-"))
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.against], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive.stdout, check=True)
        codes = {args.against: tmp, **codes}
    results: dict[str, list[dict[str, float]]] = {name: [] for name in codes}
    try:
        with mail_stack() as server:
            for _ in range(args.runs):
                for name, code in codes.items():  # alternating: the noise hits both alike
                    results[name].append(_run(code, args.reports, server))
    except NoMailStack as exc:
        print(f"skipped: {exc}")
        return
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    print(
        f"\nSending path, CPU per report (user + system), {args.reports} reports of "
        f"{statistics.median(r['bytes'] for rs in results.values() for r in rs) / 1000:.0f} KB, "
        f"{args.runs} runs, median and min–max in ms; uptime: {os.getloadavg()[0]:.2f}"
    )
    rows = [
        ("sending process, all ÷ N", "child"),
        ("  its start-up (to the first answer), once", "child_startup"),
        ("  its steady state, per report", "child_steady"),
        ("hand-over (send_row in the pump's thread)", "handover"),
        ("pump thread's send_due (claim, load, mark)", "send_due"),
        ("wire: bare aiosmtplib, same bytes (baseline)", "wire"),
    ]
    for name, rs in results.items():
        print(f"\n[{name}]")
        wire = statistics.median(r["wire"] for r in rs)
        for label, key in rows:
            values = [r[key] for r in rs]
            ratio = (
                ""
                if key in ("wire", "child_startup")
                else (f"   {statistics.median(values) / wire:5.2f} × wire")
            )
            print(f"{label:48s} {_ms(values)}{ratio}")


if __name__ == "__main__":
    main()
