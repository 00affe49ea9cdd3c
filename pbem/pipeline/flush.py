"""The mail's ORM changes written at its commit with less bookkeeping than `Session.flush`.

What a mail leaves in the session for the commit is a few plain rows: the game (its
snapshot, version, clock), the seats (key generation, decision, log position), a seat's
orders and the new outbox row(s). `Session.flush` writes them through the unit of work —
dependency sort, per-mapper passes, history and defaults bookkeeping — at ~0.3 ms of CPU per
object. `flush` writes the same rows with the same statements (one UPDATE of the changed
columns by primary key per object, an executemany for consecutive ones with the same columns;
one INSERT per new object; tables in foreign-key order, updates before inserts as the unit
of work does), checks the matched row counts as it does, then hands the objects to the
session's own bookkeeping (`Session._register_persistent`, what a flush ends with): they are
clean and persistent, new ones keyed by their new id.

Anything else goes through `Session.flush` unchanged: a deleted object, a mapper with
relationships, inheritance, a version counter, mapper events or server-side/update defaults,
a column default the INSERT would have to fill in, a changed primary key, a SQL expression
as a value, or flush events other than the ones this module knows (`pbem.store.db`'s).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

import sqlalchemy
from sqlalchemy import Table, and_, bindparam
from sqlalchemy.orm import ColumnProperty, Mapper
from sqlalchemy.orm.exc import StaleDataError
from sqlalchemy.orm.state import InstanceState
from sqlalchemy.sql import ClauseElement
from sqlmodel import Session

from pbem.store import db

__all__ = ["flush"]


@dataclass(frozen=True)
class _Plan:
    """A plain mapper's table, its columns by attribute, its primary key column and attribute."""

    table: Table
    columns: dict[str, Any]
    pk: Any
    pk_attr: str


_PLANS: dict[Mapper[Any], _Plan | None] = {}  # None: `Session.flush` writes its rows
_UPDATES: dict[Table, Any] = {}
_ORDER: dict[Table, str] = {}  # a plain mapper's table: its class's module.name
_KNOWN_AFTER_FLUSH = (db._moves_flushed,)
# The unit of work's internals this module reads and calls, as SQLAlchemy 2.1 has them
# (tests/pbem/test_pipeline_flush.py compares the result with `Session.flush`); pyproject.toml
# bounds SQLAlchemy to the releases tested. Without them every write goes through
# `Session.flush`, so an SQLAlchemy that moved one costs speed, never a mail.
SUPPORTED = (
    sqlalchemy.__version__.split(".")[:2] == ["2", "1"]
    and hasattr(Session, "_register_persistent")
    and hasattr(InstanceState, "committed_state")
    and hasattr(InstanceState, "insert_order")
)


def flush(session: Session) -> None:
    """Write the session's pending changes, as `Session.flush` would (which it calls for
    anything but plain rows)."""
    try:  # reading only: an instance attribute gone in some release falls back, writes nothing
        work = _work(session) if SUPPORTED else None
    except AttributeError:
        work = None
    if work is None:
        session.flush()
        return
    if not work.states:
        return
    _write(session, work.tables)
    for listener in session.dispatch.after_flush:  # pbem.db's: the new objects still new
        listener(session, None)
    session._register_persistent(work.states)  # as a flush ends: clean, persistent, keyed


@dataclass
class _Work:
    states: set[Any] = field(default_factory=set)
    # per table: the UPDATEs (primary key, parameters) and the INSERTs (state, parameters)
    tables: dict[Table, tuple[list[Any], list[Any]]] = field(default_factory=dict)


def _work(session: Session) -> _Work | None:
    """What to write, or None if `Session.flush` must do it."""
    if session._deleted or not _plain_events(session):
        return None
    work = _Work()
    for state in session.identity_map._modified:
        plan = _plan(state.mapper)
        committed = state.committed_state
        if plan is None or state.key is None or plan.pk_attr in committed:
            return None  # not a plain row, or its primary key changed
        work.states.add(state)
        params: dict[str, Any] = {}
        for key in committed.keys() & plan.columns.keys():
            value = state.dict[key]
            if _is_sql(value):
                return None
            if state.manager[key].impl.is_equal(value, committed[key]) is not True:
                params[plan.columns[key].key] = value
        if params:  # (no net change: no UPDATE, as the unit of work)
            params[plan.pk._label] = state.key[1][0]
            work.tables.setdefault(plan.table, ([], []))[0].append((state.key[1], params))
    for state in sorted(session._new, key=lambda s: s.insert_order or 0):
        plan = _plan(state.mapper)
        if plan is None:
            return None
        work.states.add(state)
        params = {}
        for key, column in plan.columns.items():
            value = state.dict.get(key)
            if _is_sql(value):
                return None
            if value is None:
                if column is plan.pk:
                    continue  # the database numbers the row
                if column.default is not None:  # the INSERT would fill it in
                    return None
            params[column.key] = value
        work.tables.setdefault(plan.table, ([], []))[1].append((state, params))
    return work


def _is_sql(value: Any) -> bool:
    return isinstance(value, ClauseElement) or hasattr(value, "__clause_element__")


def _write(session: Session, tables: dict[Table, tuple[list[Any], list[Any]]]) -> None:
    """The statements, tables in foreign-key order, each table's UPDATEs then INSERTs."""
    conn = session.connection()
    dialect = conn.dialect
    for table in sorted(tables, key=lambda t: _ORDER[t]):
        updates, inserts = tables[table]
        updates.sort(key=lambda u: u[0])  # by primary key, as the unit of work
        for _keys, group in groupby(updates, key=lambda u: u[1].keys()):
            rows = [params for _pk, params in group]
            matched = conn.execute(_update(table), rows if len(rows) > 1 else rows[0]).rowcount
            if (
                dialect.supports_sane_rowcount
                and (len(rows) == 1 or dialect.supports_sane_multi_rowcount)
                and matched != len(rows)
            ):
                raise StaleDataError(
                    f"UPDATE statement on table '{table.description}' expected to update "
                    f"{len(rows)} row(s); {matched} were matched."
                )
        for _keys, group in groupby(inserts, key=lambda i: i[1].keys()):
            batch = list(group)
            if len(batch) == 1:
                state, params = batch[0]
                keys: Any = [conn.execute(table.insert(), params).inserted_primary_key]
            else:  # several rows at once, their new ids in order (the ORM's "insertmanyvalues")
                stmt = table.insert().return_defaults(sort_by_parameter_order=True)
                keys = conn.execute(stmt, [p for _s, p in batch]).inserted_primary_key_rows
            for (state, _params), key in zip(batch, keys, strict=True):
                plan = _plan(state.mapper)
                assert plan is not None
                if state.dict.get(plan.pk_attr) is None:
                    state.dict[plan.pk_attr] = key[0]


def _plain_events(session: Session) -> bool:
    d = session.dispatch
    return (
        not d.before_flush
        and not d.after_flush_postexec
        and not d.pending_to_persistent
        and all(listener in _KNOWN_AFTER_FLUSH for listener in d.after_flush)
    )


def _plan(mapper: Mapper[Any]) -> _Plan | None:
    """How to write ``mapper``'s rows, or None if it is not a plain row (see the module)."""
    if mapper in _PLANS:
        return _PLANS[mapper]
    plan = None
    table = mapper.local_table
    d = mapper.dispatch
    props = list(mapper.iterate_properties)
    if (
        isinstance(table, Table)
        and len(mapper.tables) == 1
        and mapper.inherits is None
        and not mapper.relationships
        and mapper.version_id_col is None
        and len(mapper.primary_key) == 1
        and not (d.before_insert or d.after_insert or d.before_update or d.after_update)
        and not mapper.class_manager.dispatch.refresh_flush
        and all(isinstance(p, ColumnProperty) and len(p.columns) == 1 for p in props)
        and {p.columns[0].key for p in props} == set(table.c.keys())
        and all(
            c.server_default is None and c.onupdate is None and c.server_onupdate is None
            for c in table.columns
        )
    ):
        pk = mapper.primary_key[0]
        plan = _Plan(
            table, {p.key: p.columns[0] for p in props}, pk, mapper.get_property_by_column(pk).key
        )
        # the unit of work's order: by class (mapper._sort_key), not by foreign keys
        _ORDER[table] = f"{mapper.class_.__module__}.{mapper.class_.__name__}"
    _PLANS[mapper] = plan
    return plan


def _update(table: Table) -> Any:
    stmt = _UPDATES.get(table)
    if stmt is None:
        pk = next(iter(table.primary_key))
        stmt = _UPDATES[table] = table.update().where(
            and_(pk == bindparam(pk._label, type_=pk.type))
        )
    return stmt
