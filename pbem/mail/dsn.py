"""Read a delivery status notification (RFC 3464 bounce) of a mail we sent: who, why, which mail.

`read_dsn` takes a parsed ``multipart/report; report-type=delivery-status`` message and returns
its per-recipient fields (``Final-Recipient``, ``Action``, ``Status``, ``Diagnostic-Code``) and
the Message-ID of the returned original (from its ``text/rfc822-headers`` or ``message/rfc822``
part), or None for any other mail. Transport only: deciding what a bounce means for a game is
`pbem.pipeline.stages.bounce`' job. Bounded like the rest of the parser (hostile input).
"""

from __future__ import annotations

import email.parser
import email.policy
import re
from dataclasses import dataclass
from email.message import Message

__all__ = ["Dsn", "DsnRecipient", "read_dsn"]

MAX_RECIPIENTS = 50
MAX_PARTS = 10
_MSGID = re.compile(r"<[^<>\s]{1,250}>")
_STATUS_TYPES = ("message/delivery-status", "message/global-delivery-status")
_ORIGINAL_TYPES = (
    "text/rfc822-headers",
    "message/rfc822-headers",
    "message/rfc822",
    "message/global",
    "message/global-headers",
)


@dataclass(frozen=True)
class DsnRecipient:
    """One recipient block: ``action`` is failed | delayed | delivered | relayed | expanded."""

    recipient: str
    action: str
    status: str
    diagnostic: str


@dataclass(frozen=True)
class Dsn:
    recipients: tuple[DsnRecipient, ...]
    original_message_id: str | None

    @property
    def failed(self) -> list[DsnRecipient]:
        return [r for r in self.recipients if r.action == "failed"]


def read_dsn(msg: Message) -> Dsn | None:
    """The DSN in ``msg``, or None if it is not one (or not readable as one)."""
    if msg.get_content_type() != "multipart/report":
        return None
    if str(msg.get_param("report-type", "") or "").lower() != "delivery-status":
        return None
    parts = msg.get_payload()
    if not isinstance(parts, list):
        return None
    recipients: list[DsnRecipient] = []
    original: str | None = None
    for part in parts[:MAX_PARTS]:
        if not isinstance(part, Message):
            continue
        ctype = part.get_content_type()
        if ctype in _STATUS_TYPES:
            recipients.extend(_recipients(part))
        elif ctype in _ORIGINAL_TYPES and original is None:
            original = _original_id(part)
    return Dsn(tuple(recipients[:MAX_RECIPIENTS]), original)


def _recipients(part: Message) -> list[DsnRecipient]:
    blocks = part.get_payload()
    if not isinstance(blocks, list):  # not split into field blocks: read the text ourselves
        text = blocks if isinstance(blocks, str) else ""
        blocks = [
            email.parser.HeaderParser(policy=email.policy.compat32).parsestr(b)
            for b in re.split(r"\r?\n\s*\r?\n", text[: 64 * 1024])
        ]
    found = []
    for block in blocks[1 : MAX_RECIPIENTS + 1]:  # the first block is about the whole message
        if not isinstance(block, Message):
            continue
        recipient = _field(block, "Final-Recipient") or _field(block, "Original-Recipient")
        if not recipient:
            continue
        found.append(
            DsnRecipient(
                recipient=recipient.partition(";")[2].strip().strip("<>").lower()[:320],
                action=_field(block, "Action").lower()[:20],
                status=_field(block, "Status")[:20],
                diagnostic=_field(block, "Diagnostic-Code").partition(";")[2].strip()[:500],
            )
        )
    return found


def _field(block: Message, name: str) -> str:
    value = block.get(name)
    return " ".join(str(value).split()) if value is not None else ""


def _original_id(part: Message) -> str | None:
    payload = part.get_payload()
    if isinstance(payload, list) and payload and isinstance(payload[0], Message):
        value = payload[0].get("Message-ID")  # message/rfc822: the parsed original
    else:
        text = part.get_payload(decode=True) or b""
        head = text[: 64 * 1024].decode("utf-8", "replace") if isinstance(text, bytes) else ""
        value = (
            email.parser.HeaderParser(policy=email.policy.compat32).parsestr(head).get("Message-ID")
        )
    found = _MSGID.search(str(value or ""))
    return found.group(0) if found else None
