"""Persistence on PostgreSQL (``PBEM_TEST_POSTGRES_URL``; skipped when unset).

The same migrations, pipeline and replay as on SQLite, plus the row lock that
serialises two workers applying mail to one game.
"""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import Session, SQLModel

import engine
from pbem import service
from pbem.db import lock_game, make_engine, transaction
from tests.pbem.harness import Harness

URL = os.environ.get("PBEM_TEST_POSTGRES_URL", "")
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not URL, reason="PBEM_TEST_POSTGRES_URL is not set (scripts/pgtest.sh)"),
]


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    db = make_engine(URL)
    SQLModel.metadata.drop_all(db)
    with db.begin() as conn:
        conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    db.dispose()
    harness = Harness(tmp_path, database_url=URL)
    harness.new_game(seed=2)
    yield harness
    harness.db.dispose()


def test_migrations_and_a_played_game_replay_on_postgres(h: Harness) -> None:
    assert h.db.dialect.name == "postgresql"
    rnd = random.Random(1)
    for _ in range(30):
        state = h.state()
        side = sorted(engine.active_sides(state))[0]
        assert h.reply(side, rnd.choice(engine.legal_commands(state, side))).outcomes == {"applied": 1}
    assert service.replay(h.db, h.game_id).ok


def test_duplicate_delivery_on_postgres(h: Harness) -> None:
    raw = h.reply_bytes("kennedy", "first kennedy")
    h.inbox.deliver(raw)
    h.inbox.deliver(raw)
    assert h.poll().outcomes == {"applied": 1, "duplicate": 1}


def test_the_game_row_lock_serialises_writers(h: Harness) -> None:
    order: list[str] = []
    locked = threading.Event()

    def second() -> None:
        locked.wait(5)
        with transaction(h.db) as s:
            lock_game(s, h.game_id)  # blocks until the first transaction ends
            order.append("second")

    t = threading.Thread(target=second)
    t.start()
    with transaction(h.db) as s:
        lock_game(s, h.game_id)
        locked.set()
        t.join(0.5)
        order.append("first")
    t.join(5)
    assert order == ["first", "second"]
    with Session(h.db) as s:
        assert s.exec(text("select count(*) from seat")).one()[0] == 2  # type: ignore[call-overload]
