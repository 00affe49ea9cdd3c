"""`pbem check`: connectivity and configuration checks, each (name, ok, detail); `refusals`,
every setting the mail-handling commands refuse to run with; and the warnings `pbem check`,
`poll` and `serve` print once (`config_warnings`)."""

from __future__ import annotations

import asyncio
import smtplib
from collections.abc import Callable, Iterator

import aiosmtplib
from sqlalchemy.engine import Engine

from engine.data import counted
from pbem.config import Settings, identity_problems
from pbem.mail import dkimcheck
from pbem.store.db import current_revision
from pbem.worker.intake import open_mailbox

__all__ = ["UNAUTHENTICATED", "config_warnings", "refusals", "run_checks"]

Check = tuple[str, bool, str]
UNAUTHENTICATED = (
    "sender authentication is off: neither PBEM_AUTHSERV_ID nor PBEM_DKIM_VERIFY is set, so a "
    "mail with a player's From and a valid reply key is applied whoever sent it (README: "
    "'Sender authentication')"
)


def config_warnings(settings: Settings) -> list[str]:
    """What the operator should know about the configuration, one line each (no failure)."""
    if not settings.authserv_id and not settings.dkim_verify:
        return [UNAUTHENTICATED]
    return []


def refusals(settings: Settings) -> list[str]:
    """Every setting `new`, `poll`, `serve` and `send` refuse to run with (empty: none)."""
    problems = identity_problems(settings)
    if settings.dkim_verify and not dkimcheck.available():
        problems.append(
            "PBEM_DKIM_VERIFY is on but dkimpy is not installed (pip install 'pbem1960[dkim]')"
        )
    return problems


def run_checks(open_db: Callable[[], Engine], settings: Settings) -> Iterator[Check]:
    """The settings (one check per refused setting), the database, the LMTP listener (when
    set), IMAP and SMTP.

    ``open_db`` opens the existing database at the newest schema (it creates none; its
    error is the check's detail)."""
    problems = refusals(settings)
    for problem in problems:
        yield ("settings", False, problem)
    if not problems:
        yield ("settings", True, f"address {settings.address}, secret set")
    yield _database(open_db)
    if settings.lmtp_port:
        yield _lmtp(settings)
    if not settings.lmtp_port or settings.imap_user:  # LMTP sites may have no mailbox at all
        yield _imap(settings)
    yield _smtp(settings)


def _database(open_db: Callable[[], Engine]) -> Check:
    try:
        db = open_db()
    except Exception as exc:  # the CLI's known database errors; their message says it all
        return ("database", False, str(exc).replace("\n", "; "))
    return ("database", True, f"{db.url.render_as_string()} at revision {current_revision(db)}")


def _imap(settings: Settings) -> Check:
    where = f"{settings.imap_user}@{settings.imap_host}:{settings.imap_port}"
    try:
        with open_mailbox(settings) as box:
            box.ensure_folders()
            waiting = len(box.folder_uids("INBOX"))
    except Exception as exc:
        return ("imap", False, f"{where}: {exc}")
    return ("imap", True, f"{where}: login ok, folders ok, {counted(waiting, 'mail')} waiting")


def _lmtp(settings: Settings) -> Check:
    """The listener of a running `pbem serve` answers LHLO and takes the game address as a
    recipient (nothing is delivered: the session is reset before DATA)."""
    where = f"{settings.lmtp_host}:{settings.lmtp_port}"
    try:
        with smtplib.LMTP(settings.lmtp_host, settings.lmtp_port, timeout=15) as lmtp:
            code, _ = lmtp.ehlo()  # LHLO
            if code != 250:
                return ("lmtp", False, f"{where}: LHLO answered {code}")
            lmtp.mail("")
            code, said = lmtp.rcpt(settings.address)
            lmtp.rset()
    except (OSError, smtplib.SMTPException) as exc:
        return ("lmtp", False, f"{where}: {exc} (is `pbem serve` running with PBEM_LMTP_PORT?)")
    if code != 250:
        reply = said.decode("utf-8", "replace")
        return ("lmtp", False, f"{where}: {settings.address} refused: {code} {reply}")
    return ("lmtp", True, f"{where}: LHLO ok, accepts {settings.address}")


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
