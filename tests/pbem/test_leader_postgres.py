"""IMAP leadership by PostgreSQL advisory lock (``PBEM_TEST_POSTGRES_URL``; skipped when unset)."""

from __future__ import annotations

import time

import pytest

from pbem.db import make_engine
from pbem.worker.leader import ImapLeader

pytestmark = pytest.mark.postgres  # skipped without PBEM_TEST_POSTGRES_URL (conftest.py)


def test_one_leader_per_mailbox_and_a_dead_leader_hands_over(postgres_url: str) -> None:
    a_db, b_db = make_engine(postgres_url), make_engine(postgres_url)
    try:
        a = ImapLeader(a_db, "game@x.test@imap:993/INBOX").__enter__()
        with ImapLeader(b_db, "game@x.test@imap:993/INBOX") as b:
            assert a.is_leader and not b.is_leader
        with ImapLeader(b_db, "other@x.test@imap:993/INBOX") as other:
            assert other.is_leader  # another mailbox has its own leader
        a._conn.invalidate()  # the leader's connection dies (a crash, a network cut)
        a._conn = None
        # the server ends that session a moment later (under load: later); a standby retries
        # every interval, as here, until the lock is free (failed once when asked only once)
        deadline = time.monotonic() + 120
        with ImapLeader(b_db, "game@x.test@imap:993/INBOX") as b:
            while not b.acquire():
                assert time.monotonic() < deadline, "the dead leader's lock was never released"
                time.sleep(0.05)
            assert b.is_leader
    finally:
        a_db.dispose()
        b_db.dispose()
