"""Mail layer of the PBEM server: parse inbound mail, extract the writer's own lines, compose
outbound mail, talk IMAP (imapclient) and SMTP (aiosmtplib), and run embedded pure-Python servers
for demos (`pbem.mail.embedded`). Other packages code against the names in ``__all__``; which
lines are commands is the pipeline's business (`pbem.pipeline.lines`).
"""

from __future__ import annotations

from pbem.mail.compose import FileAttachment, InlineImage, build_message
from pbem.mail.extract import ReplyText, reply_text
from pbem.mail.imap import Fetched, ImapMailbox, Mailbox, MemoryMailbox
from pbem.mail.parse import MalformedMessage, ParsedMessage, parse_message
from pbem.mail.smtp import (
    MailSender,
    MemorySender,
    PermanentFailure,
    SendFailure,
    SmtpSender,
    TemporaryFailure,
)

__all__ = [
    "Fetched",
    "FileAttachment",
    "ImapMailbox",
    "InlineImage",
    "MailSender",
    "Mailbox",
    "MalformedMessage",
    "MemoryMailbox",
    "MemorySender",
    "ParsedMessage",
    "PermanentFailure",
    "ReplyText",
    "SendFailure",
    "SmtpSender",
    "TemporaryFailure",
    "build_message",
    "parse_message",
    "reply_text",
]
