"""CPU of the pump thread's bookkeeping per report (claim, image load, mark), without SMTP.

`pbem poll` wakes the pump after each committed mail; a move's two reports are then due. This
commits the two outbox rows of a move (a new board picture each move, shared by both), then
runs `service.send_due` as the pump does, with a sender that does nothing (so only the main
process's share — the claims, the picture loads, the marks and their commits — is measured):
the thread CPU of `send_due` ÷ reports. Run it with PYTHONPATH set to the tree under test::

    PYTHONPATH=<tree> python benchmarks/bench_pump.py [--moves 200]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=200)
    args = ap.parse_args()
    sys.path.insert(1, str(Path(__file__).resolve().parent.parent))  # tests.pbem.harness
    from sqlmodel import Session, select

    from benchmarks.bench_sendproc import queue_move
    from pbem import service
    from pbem.outbox import parts as mailimages
    from pbem.store.models import OutboxMessage, utcnow
    from tests.pbem.harness import Harness

    class Null:
        sent = 0

        async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
            raise AssertionError

        async def send_row(self, settings: Any, row: Any, images: Any) -> None:
            self.sent += 1

    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-pump-"))
    try:
        from pbem.outbox import queue as replies

        replies.DEFER_RENDER = False  # rows rendered when queued: their picture is stored
        h = Harness(tmp)
        h.new_game(seed=2)
        with Session(h.db) as s:
            welcome = list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))
            (image,) = mailimages.load(s, [welcome[0].html]).values()
            base = [r.model_dump(exclude={"id", "status", "sent_at"}) for r in welcome]
        sender = Null()
        stats = service.SendStats()
        spent = 0.0
        for k in range(args.moves):
            with Session(h.db) as s:
                queue_move(s, image, base, k, tag="b")
                s.commit()
            loop = asyncio.new_event_loop()
            t = time.thread_time()
            loop.run_until_complete(service.send_due(h.db, h.settings, sender, utcnow(), stats))
            spent += time.thread_time() - t
            loop.close()
        n = 2 * args.moves
        assert stats.sent >= n, stats
        print(f"send_due per report: {spent / n * 1000:.3f} ms CPU ({n} reports)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
