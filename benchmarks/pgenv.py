"""PostgreSQL for the scale-out benchmark: a running one (PBEM_TEST_POSTGRES_URL) or a private one.

As for the mail stack (`benchmarks/mailenv.py`): when ``PBEM_TEST_POSTGRES_URL`` is set
(`eval "$(bash scripts/pgtest.sh env)"`, as `scripts/test.sh` does) that server is used; otherwise,
as root, `scripts/pgtest.sh` starts a private cluster in a temporary folder on a free loopback
port, stopped afterwards. `fresh_database` makes a database (optionally a copy of a template)
and drops it afterwards.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, text

from tests.pbem.mailtools import free_port

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "pgtest.sh"


class NoPostgres(RuntimeError):
    """No PostgreSQL is configured and none can be started here."""


@contextmanager
def postgres() -> Iterator[str]:
    """The URL of a PostgreSQL database whose user may create databases."""
    url = os.environ.get("PBEM_TEST_POSTGRES_URL")
    if url:
        yield url
        return
    if os.geteuid() != 0:
        raise NoPostgres("no PostgreSQL: export PBEM_TEST_POSTGRES_URL or run as root")
    folder = tempfile.mkdtemp(prefix="pbem-bench-pg-")
    env = {**os.environ, "PGTEST_DIR": folder, "PGTEST_PORT": str(free_port())}
    done = subprocess.run(
        ["bash", str(SCRIPT), "start"], env=env, capture_output=True, text=True, timeout=180
    )
    try:
        if done.returncode != 0:
            raise NoPostgres(f"scripts/pgtest.sh start failed: {done.stderr.strip()[-400:]}")
        yield f"postgresql+psycopg://postgres@127.0.0.1:{env['PGTEST_PORT']}/pbem_test"
    finally:
        subprocess.run(["bash", str(SCRIPT), "stop"], env=env, capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


def _admin(url: str) -> object:
    return create_engine(url, isolation_level="AUTOCOMMIT")


def create_database(url: str, template: str | None = None) -> str:
    """A new database on ``url``'s server (a copy of ``template``'s database if given); its URL."""
    name = f"bench_{uuid.uuid4().hex[:10]}"
    admin = _admin(url)
    with admin.connect() as c:  # type: ignore[attr-defined]
        tmpl = ""
        if template:
            source = template.rsplit("/", 1)[1]
            tmpl = f" TEMPLATE {source}"
            # PostgreSQL copies a template only while nobody is connected to it: close the
            # idle sessions other engines of this process keep in their pools (they reconnect)
            c.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = :db AND pid <> pg_backend_pid()"
                ),
                {"db": source},
            )
        c.execute(text(f"CREATE DATABASE {name}{tmpl}"))
    admin.dispose()  # type: ignore[attr-defined]
    return url.rsplit("/", 1)[0] + "/" + name


def drop_database(url: str, db_url: str) -> None:
    admin = _admin(url)
    with admin.connect() as c:  # type: ignore[attr-defined]
        c.execute(text(f"DROP DATABASE IF EXISTS {db_url.rsplit('/', 1)[1]} WITH (FORCE)"))
    admin.dispose()  # type: ignore[attr-defined]


@contextmanager
def fresh_database(url: str, template: str | None = None) -> Iterator[str]:
    db_url = create_database(url, template)
    try:
        yield db_url
    finally:
        drop_database(url, db_url)
