"""Whether a database's schema is at the newest migration already, without loading Alembic.

`pbem.store.db.migrate` (Alembic: its command module, the migration scripts and env.py, ~0.15 s
of CPU in a new process) runs at the start of every `pbem poll`, `tick` and `send`, and on a
schema that is up to date it does nothing. `migrate_if_behind` answers that case from the
``alembic_version`` table and the ``revision``/``down_revision`` lines of the migration
scripts (read as text), and calls `migrate` for anything else: an empty database, an older
schema, an unreadable version table or scripts it cannot follow (Alembic decides then).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Engine

from pbem.store.db import migrate

__all__ = ["head", "is_current", "migrate_if_behind"]

VERSIONS = Path(__file__).parent / "migrations" / "versions"
_REVISION = re.compile(r"^revision\s*(?::[^=]*)?=\s*(.+)$", re.M)
_DOWN = re.compile(r"^down_revision\s*(?::[^=]*)?=\s*(.+)$", re.M)
_QUOTED = re.compile(r"""["']([^"']+)["']""")


@cache
def head() -> str | None:
    """The newest revision (the one script no other names as its down_revision), or None
    when the scripts do not show exactly one (Alembic then decides)."""
    revisions: set[str] = set()
    downs: set[str] = set()
    for path in VERSIONS.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        rev = _REVISION.search(source)
        if rev is None:
            continue  # __init__.py
        down = _DOWN.search(source)
        names = _QUOTED.findall(rev.group(1))
        if down is None or len(names) != 1:
            return None
        revisions.add(names[0])
        downs.update(_QUOTED.findall(down.group(1)))
    heads = revisions - downs
    return heads.pop() if len(heads) == 1 else None


def is_current(db: Engine) -> bool:
    """Whether ``db``'s schema is at `head` (False when it cannot tell)."""
    want = head()
    if want is None:
        return False
    try:
        with db.connect() as conn:
            have = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except Exception:  # no version table (an empty database), or not readable: migrate decides
        return False
    return list(have) == [want]


def migrate_if_behind(db: Engine) -> None:
    """`pbem.store.db.migrate` unless the schema is at the newest revision already."""
    if not is_current(db):
        migrate(db)
