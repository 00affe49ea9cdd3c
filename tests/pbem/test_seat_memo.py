"""`pbem.outbox.queue.seats_of` asks the database once per game and transaction, and is never stale.

A mail's handlers (orders, autoplay, bot moves, report) each ask for the game's seats; the
answer is kept for the transaction (issue 14: fewer round trips per mail) and forgotten when a
seat is added in the session, and at commit and rollback.
"""

from __future__ import annotations

from pathlib import Path

from sqlmodel import Session

from pbem.outbox.queue import seats_of
from pbem.store.models import Seat
from tests.pbem.harness import Harness


def test_one_query_per_game_and_transaction(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game()
    queries = h.selects_from("seat")
    with Session(h.db) as s:
        first = seats_of(s, h.game_id)
        second = seats_of(s, h.game_id)
        assert len(queries) == 1
        assert first == second and set(first) == {"kennedy", "nixon"}
        assert first["kennedy"] is second["kennedy"]  # the session's own objects
        second.pop("nixon")  # a caller's dict is its own
        assert set(seats_of(s, h.game_id)) == {"kennedy", "nixon"}
        s.rollback()
        seats_of(s, h.game_id)
        assert len(queries) == 2, "a rollback forgets the answer"


def test_a_seat_added_in_the_session_is_seen(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game()
    other = h.new_game(seed=8)
    with Session(h.db) as s:
        assert set(seats_of(s, other)) == {"kennedy", "nixon"}
        s.add(Seat(game_id=other, side="observer-test", email="x@pbem.test", key_salt="00"))
        assert "observer-test" in seats_of(s, other)
        s.rollback()
        assert "observer-test" not in seats_of(s, other)
