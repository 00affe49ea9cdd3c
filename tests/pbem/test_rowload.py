"""`pbem.rowload.load`: a game's seats and seat orders loaded with a Core SELECT, as the
ORM's query loads them (issue 14, benchmark 2: ~150 µs of CPU per query less)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Select, inspect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session

import engine
from pbem import orders, rowload
from pbem.db import transaction
from pbem.models import Seat, SeatOrders
from pbem.pipeline import process_message
from pbem.replies import _SEATS_OF, _SEATS_OF_ROWS, seats_of
from tests.pbem.harness import Harness


def _state(obj: Any) -> dict[str, Any]:
    st = inspect(obj)
    return {
        "key": st.key,
        "persistent": st.persistent,
        "modified": st.modified,
        "expired": st.expired,
        "committed": dict(st.committed_state),
        "unloaded": set(st.unloaded),
        "path": st.load_path,
        "values": obj.model_dump(),
        "pydantic": {k: obj.__dict__.get(k) for k in ("__pydantic_fields_set__",)},
    }


def test_rows_load_as_the_orm_query_loads_them(tmp_path: Path) -> None:
    """Same objects (values, identity, clean persistent state, load path), in the identity
    map; an object already in the session is returned as it is; after a rollback the expired
    ones are set from the row; a change is then tracked and flushed as usual."""
    h = Harness(tmp_path)
    h.new_game(seed=2)
    params = {"game_id": h.game_id}
    with transaction(h.db) as s:
        by_orm = [_state(o) for o in s.execute(_SEATS_OF, params).scalars()]
    with transaction(h.db) as s:
        loaded = rowload.load(s, Seat, _SEATS_OF_ROWS, params, _SEATS_OF)
        assert [_state(o) for o in loaded] == by_orm and len(loaded) == 2
        assert all(s.get(Seat, o.id) is o for o in loaded)
        loaded[0].email = "changed@players.test"  # autoflushed first, as by the ORM query
        again = rowload.load(s, Seat, _SEATS_OF_ROWS, params, _SEATS_OF)
        assert all(a is b for a, b in zip(again, loaded, strict=True))
        assert again[0].email == "changed@players.test" and not s.dirty
        s.rollback()
        assert inspect(loaded[0]).expired
        after = rowload.load(s, Seat, _SEATS_OF_ROWS, params, _SEATS_OF)
        assert all(a is b for a, b in zip(after, loaded, strict=True))
        assert [_state(o) for o in after] == by_orm, "the rolled back change is gone"
        after[1].key_gen += 5
        assert list(s.dirty) == [after[1]]
    with Session(h.db) as s:
        assert s.get(Seat, after[1].id).key_gen == by_orm[1]["values"]["key_gen"] + 5  # type: ignore[union-attr]


def test_rows_added_in_the_session_are_flushed_first_as_by_the_orm(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    params = {"game_id": h.game_id}
    with transaction(h.db) as s:
        extra = Seat(game_id=h.game_id, side="extra", email="x@players.test", key_salt="s")
        s.add(extra)
        loaded = rowload.load(s, Seat, _SEATS_OF_ROWS, params, _SEATS_OF)
        assert extra in loaded and extra.id is not None and not s.new
        s.rollback()
    with transaction(h.db) as s, s.no_autoflush:  # no autoflush: not seen, as by the ORM
        s.add(Seat(game_id=h.game_id, side="extra", email="x@players.test", key_salt="s"))
        by_orm = {o.side for o in s.execute(_SEATS_OF, params).scalars()}
        assert {o.side for o in rowload.load(s, Seat, _SEATS_OF_ROWS, params, _SEATS_OF)} == by_orm
        assert "extra" not in by_orm
        s.rollback()
    errors = []
    for how in ("orm", "rowload"):  # a failing autoflush: the same error, the same detail
        with transaction(h.db) as s:
            s.add(Seat(game_id=h.game_id + 999, side="x", email="x@players.test", key_salt="s"))
            with pytest.raises(IntegrityError) as err:
                if how == "orm":
                    s.execute(_SEATS_OF, params).all()
                else:
                    rowload.load(s, Seat, _SEATS_OF_ROWS, params, _SEATS_OF)
            errors.append(str(err.value))
            s.rollback()
    assert errors[0] == errors[1] and "Query-invoked autoflush" in errors[0]


def test_a_move_loads_only_its_game_through_the_orm_query(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seats (identify-seat) and their orders (autoplay) are read by `rowload` (was: the
    ORM query, ~150 µs of CPU more each); the game row, locked, still by the ORM."""
    h = Harness(tmp_path)
    h.new_game(seed=2)
    with transaction(h.db) as s:  # every seat has its orders row, as after a first move
        orders.book_rows(s, seats_of(s, h.game_id))
    side = sorted(engine.active_sides(h.state()))[0]
    raw = h.reply_bytes(side, h.legal(side)[0])
    tables: list[str] = []
    real = OrmSession.execute

    def execute(self: Any, statement: Any, *args: Any, **kw: Any) -> Any:
        if isinstance(statement, Select):
            entities = [d.get("entity") for d in statement.column_descriptions]
            tables.extend(e.__tablename__ for e in entities if e is not None)
        return real(self, statement, *args, **kw)

    monkeypatch.setattr(OrmSession, "execute", execute)
    assert process_message(h.db, h.settings, raw).outcome == "applied"
    assert tables == ["game"]


def test_a_mapper_that_is_not_plain_is_loaded_by_the_orm(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []

    class FakeSession:
        dispatch = type("D", (), {"loaded_as_persistent": ()})()

        def execute(self, stmt: Any, params: Any) -> Any:
            calls.append(stmt)
            return type("R", (), {"scalars": lambda _self: iter(["by the orm"])})()

    monkeypatch.setitem(rowload._PLANS, SeatOrders, None)
    assert rowload.load(FakeSession(), SeatOrders, "core", {}, "orm") == ["by the orm"]  # type: ignore[arg-type]
    assert calls == ["orm"]
