"""A killed worker's outbox claims (`pbem.outbox.claims`): freed at once when provably dead, else kept.

A worker claims rows before sending them (a lease, `pbem.outbox.send.CLAIM_LEASE`). The claim names its
claimant (machine, pid, process start time); the next `send_due` on the same machine sends the
rows of a claimant that is gone (or whose pid now belongs to a later process) at once, and
leaves those of a live worker or of another machine to their lease.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import Session, select

from pbem.mail import MemorySender
from pbem.outbox import claims
from pbem.outbox import send as outbox
from pbem.outbox import send as outbox_send
from pbem.store.models import OutboxMessage, utcnow
from tests.pbem.harness import Harness

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def h(request: pytest.FixtureRequest, tmp_path: Path) -> Harness:
    if request.param == "postgres":  # skipped without PBEM_TEST_POSTGRES_URL
        harness: Harness = request.getfixturevalue("postgres_harness")
        return harness  # one new game
    h = Harness(tmp_path)
    h.new_game()  # the welcome mails: two rows, sent
    return h


@pytest.fixture
def worker() -> Iterator[subprocess.Popen[bytes]]:
    """Another process of this machine, alive until the test ends."""
    proc = subprocess.Popen(["sleep", "60"])
    yield proc
    proc.kill()
    proc.wait()


def _claimed_by(h: Harness, token: str) -> int:
    """Every row pending again, claimed by ``token`` for the whole lease; how many."""
    with Session(h.db) as s:
        rows = list(s.exec(select(OutboxMessage)))
        for row in rows:
            row.status, row.claimed_by = "pending", token
            row.next_attempt_at = utcnow() + outbox.CLAIM_LEASE
            s.add(row)
        s.commit()
    outbox_send._dead_claims_seen.clear()  # a new worker process
    return len(rows)


def _sent_now(h: Harness) -> int:
    sender = MemorySender()
    outbox.drain_outbox(h.db, h.settings, sender)
    return len(sender.sent)


def _token(pid: int, start: str | None = None) -> str:
    return "|".join((claims.machine(), str(pid), start or claims._start_time(pid) or ""))


def test_the_claims_of_a_dead_worker_of_this_machine_are_sent_at_once(h: Harness) -> None:
    gone = subprocess.Popen(["sleep", "60"])
    token = _token(gone.pid)
    gone.kill()
    gone.wait()
    assert _claimed_by(h, token) == 2
    assert _sent_now(h) == 2
    with Session(h.db) as s:
        assert {(r.status, r.claimed_by) for r in s.exec(select(OutboxMessage))} == {("sent", None)}


def test_a_reused_pid_is_a_dead_worker(h: Harness, worker: subprocess.Popen[bytes]) -> None:
    start = claims._start_time(worker.pid)
    assert start
    _claimed_by(h, _token(worker.pid, str(int(start) - 1)))  # that pid, started earlier
    assert _sent_now(h) == 2


def test_the_claims_of_a_live_worker_keep_their_lease(
    h: Harness, worker: subprocess.Popen[bytes]
) -> None:
    _claimed_by(h, _token(worker.pid))
    assert _sent_now(h) == 0


def test_a_zombie_is_a_dead_worker(h: Harness) -> None:
    zombie = subprocess.Popen(["true"])
    token = _token(zombie.pid)
    deadline = time.monotonic() + 10
    while (
        claims._start_time(zombie.pid) is not None and time.monotonic() < deadline
    ):  # exited, not reaped yet (no wait)
        time.sleep(0.01)
    _claimed_by(h, token)
    assert _sent_now(h) == 2
    zombie.wait()


def test_the_claims_of_another_machine_keep_their_lease(h: Harness) -> None:
    gone = subprocess.Popen(["sleep", "60"])
    token = _token(gone.pid).replace(claims.machine(), "elsewhere|boot|1", 1)
    gone.kill()
    gone.wait()
    _claimed_by(h, token)
    assert _sent_now(h) == 0


def test_claims_name_their_worker_and_tried_rows_no_longer_do(h: Harness) -> None:
    with Session(h.db) as s:
        for row in s.exec(select(OutboxMessage)):
            row.status = "pending"
            s.add(row)
        s.commit()
    claimed = outbox_send._claim(h.db, utcnow(), 10)
    assert len(claimed) == 2
    with Session(h.db) as s:
        assert {r.claimed_by for r in s.exec(select(OutboxMessage))} == {claims.claimant()}
    assert not claims.dead(claims.claimant())
    outbox_send._dead_claims_seen.clear()
    assert _sent_now(h) == 0  # this very process holds them: not dead, the lease stands
    outbox_send._release(h.db, claimed, utcnow())
    assert _sent_now(h) == 2
    with Session(h.db) as s:
        assert {r.claimed_by for r in s.exec(select(OutboxMessage))} == {None}
