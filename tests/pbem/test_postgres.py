"""Persistence on PostgreSQL (``PBEM_TEST_POSTGRES_URL``; skipped when unset).

The same migrations, pipeline and replay as on SQLite, plus the row lock that
serialises two workers applying mail to one game.
"""

from __future__ import annotations

import random
import threading
from contextlib import nullcontext

import pytest
from sqlalchemy import text
from sqlmodel import Session

import engine
from pbem.games import views as game_views
from pbem.pipeline.base import Context
from pbem.pipeline.stages.dedupe import DuplicateMessage, dedupe
from pbem.pipeline.stages.parse import parse
from pbem.store.db import lock_game, transaction
from pbem.store.models import utcnow
from tests.pbem.harness import Harness

pytestmark = pytest.mark.postgres  # skipped without PBEM_TEST_POSTGRES_URL (conftest.py)


@pytest.fixture
def h(postgres_harness: Harness) -> Harness:
    return postgres_harness  # conftest.py: one new game on an emptied PostgreSQL database


def test_migrations_and_a_played_game_replay_on_postgres(h: Harness) -> None:
    assert h.db.dialect.name == "postgresql"
    rnd = random.Random(1)
    for _ in range(30):
        state = h.state()
        side = sorted(engine.active_sides(state))[0]
        assert h.reply(side, rnd.choice(engine.legal_commands(state, side))).outcomes == {
            "applied": 1
        }
    assert game_views.replay(h.db, h.game_id).ok


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


@pytest.mark.parametrize("first_ends", ["commit", "rollback"])
def test_a_mail_recorded_concurrently_waits_for_the_first(h: Harness, first_ends: str) -> None:
    """`dedupe`'s INSERT … ON CONFLICT DO NOTHING: a second worker recording the same mail
    waits for the first one's transaction; a duplicate if it committed, recorded if not."""
    raw = h.reply_bytes("kennedy", "first kennedy")
    said: list[str] = []
    recorded = threading.Event()

    def record(s: Session) -> str:
        ctx = Context(s, h.settings, raw, utcnow())
        parse(ctx)
        try:
            dedupe(ctx)
        except DuplicateMessage:
            return "duplicate"
        return "recorded"

    def second() -> None:
        recorded.wait(5)
        with transaction(h.db) as s:
            said.append("second " + record(s))

    t = threading.Thread(target=second)
    t.start()
    crash = pytest.raises(RuntimeError) if first_ends == "rollback" else nullcontext()
    with crash, transaction(h.db) as s:
        said.append("first " + record(s))
        recorded.set()
        t.join(0.5)
        assert t.is_alive(), "the second insert waits for the first transaction"
        if first_ends == "rollback":
            raise RuntimeError("crash")
    t.join(5)
    second_says = "duplicate" if first_ends == "commit" else "recorded"
    assert said == ["first recorded", f"second {second_says}"]
    assert len(h.inbound()) == 1


@pytest.mark.parametrize("fact", ["observers", "talk"])
def test_what_the_lock_holder_committed_is_seen_after_waiting_for_the_lock(
    h: Harness, fact: str
) -> None:
    """A worker that waited for a game's row lock sees what the first worker's transaction
    committed (an observer added, table talk posted), so its mail's report includes them."""
    from pbem.outbox import notes as tabletalk

    facts: list[bool] = []
    locked = threading.Event()

    def seen(s: Session) -> bool:
        if fact == "observers":
            found = s.execute(
                text("select count(*) from observer where game_id = :g"), {"g": h.game_id}
            )
            return bool(found.scalar())
        return bool(tabletalk.take(s, h.game_id, "nixon", utcnow()))

    def second() -> None:
        locked.wait(5)
        with transaction(h.db) as s:
            lock_game(s, h.game_id)  # blocks until the first transaction ends
            facts.append(seen(s))

    t = threading.Thread(target=second)
    t.start()
    with transaction(h.db) as s:
        lock_game(s, h.game_id)
        assert not seen(s)
        if fact == "observers":
            s.execute(
                text(
                    "insert into observer (game_id, email, salt, added_by, active, created_at) "
                    "values (:g, 'w@observers.test', 'x', 'operator', true, now())"
                ),
                {"g": h.game_id},
            )
        else:
            tabletalk.post(
                s,
                h.game_id,
                to_side="nixon",
                from_side="kennedy",
                kind="say",
                text="hello",
                now=utcnow(),
            )
            s.flush()
        locked.set()
        t.join(0.5)
        assert t.is_alive(), "the second worker waits for the game's row lock"
    t.join(5)
    assert facts == [True]
