"""The server, the engine and the bots use libraries through their public APIs only.

A private attribute (``x._name``) of a library object ties the code to one release of that
library (and forces an upper pin). This scan reads every module of pbem/, engine/ and bots/
with `ast` and fails on ``x._name`` where ``x`` is a name imported from a module outside the
project (a third-party or standard library module, or something imported from one), or a
library object by its usual name (a session, a connection, a protocol, a transport, a loop, an
SMTP or IMAP client), also as the last part of a chain (``self.conn._buffer``). The project's
own private names (``self._x``, ``module._x`` of its own modules) are allowed, and so are
dunder names (``__table__``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("pbem", "engine", "bots")
OWN = frozenset(SCANNED)
# usual names of library objects: whatever they hold comes from a library
LIBRARY_OBJECTS = frozenset(
    {
        "session",
        "s",
        "conn",
        "connection",
        "dbapi_conn",
        "cursor",
        "protocol",
        "transport",
        "loop",
        "smtp",
        "client",
        "imap",
        "server",
        "reader",
        "writer",
        "sock",
    }
)


def _private(attr: str) -> bool:
    return attr.startswith("_") and not (attr.startswith("__") and attr.endswith("__"))


def _library_names(tree: ast.Module) -> set[str]:
    """The names a module binds by importing from outside the project."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in OWN:
                    names.add((alias.asname or alias.name).split(".")[0])
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and (node.module or "").split(".")[0] not in OWN
        ):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def private_uses(source: str, filename: str = "<source>") -> list[str]:
    """``x._name`` uses in ``source`` where ``x`` is a library's (see the module docstring)."""
    tree = ast.parse(source, filename)
    library = _library_names(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _private(node.attr):
            continue
        base = node.value
        if isinstance(base, ast.Name):
            name = base.id
            hit = name in library or name in LIBRARY_OBJECTS
        elif isinstance(base, ast.Attribute):
            name = base.attr
            hit = name in LIBRARY_OBJECTS
        else:
            continue
        if hit:
            found.append(f"{filename}:{node.lineno}: {name}.{node.attr}")
    return found


def _modules() -> list[Path]:
    return sorted(p for folder in SCANNED for p in (ROOT / folder).rglob("*.py"))


def test_no_private_attribute_of_a_library_is_used() -> None:
    found = [
        use
        for path in _modules()
        for use in private_uses(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert found == []


@pytest.mark.parametrize(
    ("source", "hits"),
    [
        ("import atexit\natexit._run_exitfuncs()\n", 1),
        ("import asyncio\nasyncio._set_running_loop(None)\n", 1),
        ("from sqlmodel import Session\nSession._register_persistent(s, [])\n", 1),
        ("def f(protocol):\n    protocol._buffer.extend(b'')\n", 1),
        ("def f(self):\n    return self.protocol._response_waiter\n", 1),
        ("import gc\ngc.freeze()\n", 0),
        ("class A:\n    def f(self):\n        return self._conn\n", 0),
        ("from pbem import claims\nclaims._cache\n", 0),
        ("from pbem.store.models import OutboxMessage\nOutboxMessage.__table__\n", 0),
    ],
)
def test_the_scan_finds_library_privates_and_only_them(source: str, hits: int) -> None:
    assert len(private_uses(source)) == hits
