"""`pbem check`: connectivity and configuration checks, each (name, ok, detail), and
`refusals`, every setting the mail-handling commands refuse to run with."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import aiosmtplib
from sqlalchemy.engine import Engine

from pbem.config import Settings, identity_problems
from pbem.mail import dkimcheck
from pbem.store.schema_head import head
from pbem.worker.intake import open_mailbox

__all__ = ["refusals", "run_checks"]

Check = tuple[str, bool, str]


def refusals(settings: Settings) -> list[str]:
    """Every setting `new`, `poll`, `serve` and `send` refuse to run with (empty: none)."""
    problems = identity_problems(settings)
    if settings.dkim_verify and not dkimcheck.available():
        problems.append(
            "PBEM_DKIM_VERIFY is on but dkimpy is not installed (pip install 'pbem1960[dkim]')"
        )
    return problems


def run_checks(open_db: Callable[[], Engine], settings: Settings) -> Iterator[Check]:
    """The settings (one check per refused setting), the database, IMAP and SMTP.

    ``open_db`` opens the existing database at the newest schema (it creates none; its
    error is the check's detail)."""
    problems = refusals(settings)
    for problem in problems:
        yield ("settings", False, problem)
    if not problems:
        yield ("settings", True, f"address {settings.address}, secret set")
    yield _database(open_db)
    yield _imap(settings)
    yield _smtp(settings)


def _database(open_db: Callable[[], Engine]) -> Check:
    try:
        db = open_db()
    except Exception as exc:  # the CLI's known database errors; their message says it all
        return ("database", False, str(exc).replace("\n", "; "))
    return ("database", True, f"{db.url.render_as_string()} at revision {head()}")


def _imap(settings: Settings) -> Check:
    where = f"{settings.imap_user}@{settings.imap_host}:{settings.imap_port}"
    try:
        with open_mailbox(settings) as box:
            box.ensure_folders()
            waiting = len(box.folder_uids("INBOX"))
    except Exception as exc:
        return ("imap", False, f"{where}: {exc}")
    return ("imap", True, f"{where}: login ok, folders ok, {waiting} mail(s) waiting")


def _smtp(settings: Settings) -> Check:
    where = f"{settings.smtp_host}:{settings.smtp_port}"

    async def probe() -> str:
        client = aiosmtplib.SMTP(
            hostname=settings.smtp_host,
            port=settings.smtp_port,
            use_tls=settings.smtp_tls,
            timeout=15,
            start_tls=None if settings.smtp_user else False,
        )
        await client.connect()
        try:
            if settings.smtp_user:
                await client.login(settings.smtp_user, settings.smtp_password)
            code, _ = await client.noop()
            return f"{where}: connected{', logged in' if settings.smtp_user else ''} (NOOP {code})"
        finally:
            client.close()

    try:
        return ("smtp", True, asyncio.run(probe()))
    except Exception as exc:
        return ("smtp", False, f"{where}: {exc}")
