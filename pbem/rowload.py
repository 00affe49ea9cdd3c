"""Plain rows loaded as ORM objects without the ORM's query machinery.

``session.execute(select(Seat).where(...))`` sets up an ORM compile state, a loading context
and per-row populators for every call: ~150 µs of CPU over the same Core SELECT for the two
seats of a game. A mail loads its game's seats and their orders this way once each
(`pbem.replies.seats_of`, `pbem.orders.book_rows`). `load` runs a Core SELECT of every
column of the table, then does what `sqlalchemy.orm.loading` does for a plain row: the
object already in the session under the row's identity is returned as it is, otherwise a new
object is made (`ClassManager.new_instance`: the constructor is not called, as by the ORM),
its attributes set, keyed and put in the session's identity map, clean.

As the ORM query would, it autoflushes first. It falls back to the ORM query for anything but
a plain mapper (one table, no relationships, inheritance or polymorphism, no load/refresh
events, no deferred or expression columns) or when a session event listens for loaded
objects. An object already in the session with expired attributes (after a rollback) gets
them from the row, as the ORM's partial population does; the others are left as they are.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import ColumnProperty, Mapper, Session
from sqlalchemy.orm.attributes import instance_state

__all__ = ["load"]


class _Plan:
    """A plain mapper's class, its attribute keys in table column order, its key's index."""

    def __init__(self, mapper: Mapper[Any]) -> None:
        table = mapper.local_table
        assert isinstance(table, Table)
        self.mapper, self.cls = mapper, mapper.class_
        self.keys = [mapper.get_property_by_column(c).key for c in table.columns]
        self.pk = list(table.columns).index(mapper.primary_key[0])
        self.path = mapper._path_registry  # what the ORM's loader gives the objects it makes


_PLANS: dict[type, _Plan | None] = {}


def load(session: Session, entity: type, stmt: Any, params: dict[str, Any], orm: Any) -> list[Any]:
    """The ``entity`` objects of the rows ``stmt`` finds — ``stmt`` a Core SELECT of every
    column of the entity's table in table order — as ``session.execute(orm, params)``
    (``orm``: the same query as an ORM select of the entity) gives them."""
    plan = _plan(entity)
    if plan is None or session.dispatch.loaded_as_persistent:
        return list(session.execute(orm, params).scalars())
    session._autoflush()  # as the ORM query does (the same error detail if it fails)
    rows = session.connection().execute(stmt, params).all()
    identity_map = session.identity_map
    found: list[Any] = []
    for row in rows:
        key = (plan.cls, (row[plan.pk],), None)
        obj = identity_map.get(key)
        if obj is not None:
            state = instance_state(obj)
            unloaded = state.unloaded  # expired (a rollback): set from the row, as the ORM
            if unloaded:
                state.dict.update(
                    (k, v) for k, v in zip(plan.keys, row, strict=True) if k in unloaded
                )
                state._commit(state.dict, unloaded)
            found.append(obj)
            continue
        obj = plan.mapper.class_manager.new_instance()
        state = instance_state(obj)
        state.dict.update(zip(plan.keys, row, strict=True))
        state.key = key
        state.identity_token = None
        state.load_path = plan.path
        state.session_id = session.hash_key
        identity_map._add_unpresent(state, key)
        state._commit_all(state.dict, identity_map)
        found.append(obj)
    return found


def _plan(entity: type) -> _Plan | None:
    if entity in _PLANS:
        return _PLANS[entity]
    mapper: Mapper[Any] = sa_inspect(entity)
    table = mapper.local_table
    props = list(mapper.iterate_properties)
    plain = (
        isinstance(table, Table)
        and len(mapper.tables) == 1
        and mapper.inherits is None
        and mapper.polymorphic_on is None
        and not mapper.relationships
        and len(mapper.primary_key) == 1
        and not mapper.class_manager.dispatch.load
        and not mapper.class_manager.dispatch.refresh
        and all(
            isinstance(p, ColumnProperty)
            and len(p.columns) == 1
            and not p.deferred
            and p.columns[0].table is table
            for p in props
        )
        and {p.columns[0].key for p in props} == set(table.c.keys())
    )
    plan = _PLANS[entity] = _Plan(mapper) if plain else None
    return plan
