"""SMTP sending (stub, being written)."""

from __future__ import annotations


class SendFailure(Exception):
    pass


class TemporaryFailure(SendFailure):
    pass


class PermanentFailure(SendFailure):
    pass


class SmtpSender:
    def __init__(self, host: str, port: int, user: str | None = None,
                 password: str | None = None, tls: bool = False) -> None:
        raise NotImplementedError

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        raise NotImplementedError


class MemorySender:
    pass


MailSender = SmtpSender | MemorySender
