"""`pbem check`: connectivity and configuration checks, each (name, ok, detail), and the
warnings `pbem check`, `poll` and `serve` print once (`config_warnings`)."""

from __future__ import annotations

import asyncio
import smtplib
from collections.abc import Iterator

import aiosmtplib
from sqlalchemy.engine import Engine

from pbem.config import Settings
from pbem.store.db import migrate
from pbem.worker.intake import open_mailbox

__all__ = ["UNAUTHENTICATED", "config_warnings", "run_checks"]

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


def run_checks(db: Engine, settings: Settings) -> Iterator[Check]:
    yield _settings(settings)
    yield _database(db)
    if settings.lmtp_port:
        yield _lmtp(settings)
    if not settings.lmtp_port or settings.imap_user:  # LMTP sites may have no mailbox at all
        yield _imap(settings)
    yield _smtp(settings)


def _settings(settings: Settings) -> Check:
    if settings.secret in ("", "change-me"):
        return ("settings", False, "PBEM_SECRET is not set: reply keys would be forgeable")
    return ("settings", True, f"address {settings.address}, secret set")


def _database(db: Engine) -> Check:
    try:
        _, rev = migrate(db)
    except Exception as exc:
        return ("database", False, f"{db.url.render_as_string()}: {exc}")
    return ("database", True, f"{db.url.render_as_string()} at revision {rev}")


def _imap(settings: Settings) -> Check:
    where = f"{settings.imap_user}@{settings.imap_host}:{settings.imap_port}"
    try:
        with open_mailbox(settings) as box:
            box.ensure_folders()
            waiting = len(box.folder_uids("INBOX"))
    except Exception as exc:
        return ("imap", False, f"{where}: {exc}")
    return ("imap", True, f"{where}: login ok, folders ok, {waiting} mail(s) waiting")


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
