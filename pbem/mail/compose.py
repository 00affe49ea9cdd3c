"""Compose outbound mail: deterministic Message-IDs and multipart/alternative messages.

Every message we send carries ``Auto-Submitted: auto-generated`` (RFC 3834 §5),
``X-Auto-Response-Suppress: All`` and our loop header ``X-1960-PBEM`` (which
:func:`pbem.mail.parse.parse_message` recognises as "our own message"). Bodies are UTF-8
quoted-printable (7-bit safe, robust under DKIM); non-ASCII headers become RFC 2047 words.
A Message-ID is derived from the outbox row that caused the mail, never from the clock, so a
resend after a crash carries the same ID (email-engineering notes C2).
"""

from __future__ import annotations

import email.policy
import email.utils
import re
from collections.abc import Iterable, Mapping
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage

from pbem.mail.parse import LOOP_HEADER

_ID_PART = re.compile(r"[^a-z0-9.-]+")
_POLICY = email.policy.SMTP.clone(max_line_length=78)
_RESERVED = {
    "from", "to", "subject", "message-id", "in-reply-to", "references", "reply-to", "date",
    "mime-version", "content-type", "content-transfer-encoding", "auto-submitted",
    "cc", "bcc", "sender", "x-auto-response-suppress", LOOP_HEADER.lower(),
}


def make_message_id(kind: str, game_id: int | str, seq: int, side: str, domain: str) -> str:
    """Deterministic ``<kind.game-G.seq-N.side@domain>`` (angle brackets included).

    The same arguments always give the same ID; parts are lower-cased and reduced to
    ``[a-z0-9.-]`` so the ID survives case-folding MTAs and is safe in any header.
    """
    parts = [_clean_part(kind), f"game-{_clean_part(str(game_id))}", f"seq-{int(seq)}"]
    if side:
        parts.append(_clean_part(side))
    host = _clean_part(domain) or "pbem.invalid"
    return f"<{'.'.join(parts)}@{host}>"


def _clean_part(value: str) -> str:
    return _ID_PART.sub("-", value.strip().lower()).strip("-.")


def build_message(
    *,
    sender: str,
    to: str,
    subject: str,
    text: str,
    html: str | None,
    message_id: str,
    in_reply_to: str | None = None,
    references: Iterable[str] = (),
    reply_to: str | None = None,
    headers: Mapping[str, str] | None = None,
    date: datetime | None = None,
) -> bytes:
    """Return the RFC 5322 bytes (CRLF) of a text (+ HTML alternative) message.

    *sender*/*to*/*reply_to* may be bare addresses or ``"Name <addr>"``. *headers* adds extra
    fields (e.g. ``List-Id``); it cannot override the ones set here. Raises ``ValueError`` on
    header injection attempts (CR/LF in any header value).
    """
    msg = EmailMessage(policy=_POLICY)
    msg["From"] = _address(sender)
    msg["To"] = _address(to)
    msg["Subject"] = _single_line(subject)
    msg["Date"] = email.utils.format_datetime(date) if date else email.utils.formatdate(
        localtime=False, usegmt=True)
    msg["Message-ID"] = _msgid(message_id)
    if in_reply_to:
        msg["In-Reply-To"] = _msgid(in_reply_to)
    refs = [_msgid(r) for r in references if r]
    if in_reply_to and _msgid(in_reply_to) not in refs:
        refs.append(_msgid(in_reply_to))
    if refs:
        msg["References"] = " ".join(refs)
    if reply_to:
        msg["Reply-To"] = _address(reply_to)
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
    msg[LOOP_HEADER] = _loop_value(sender)
    for name, value in (headers or {}).items():
        if name.strip().lower() in _RESERVED or not re.fullmatch(r"[A-Za-z0-9-]+", name):
            raise ValueError(f"header {name!r} cannot be set through headers=")
        msg[name] = _single_line(value)
    msg.set_content(text, subtype="plain", charset="utf-8", cte="quoted-printable")
    if html is not None:
        msg.add_alternative(html, subtype="html", charset="utf-8", cte="quoted-printable")
    return msg.as_bytes(policy=_POLICY)


def _single_line(value: str) -> str:
    if "\r" in value or "\n" in value:
        raise ValueError("header values may not contain CR or LF")
    return value


def _msgid(value: str) -> str:
    value = _single_line(value.strip())
    return value if value.startswith("<") else f"<{value}>"


def _address(value: str) -> Address | str:
    name, addr = email.utils.parseaddr(_single_line(value))
    if not addr or "@" not in addr:
        raise ValueError(f"not an address: {value!r}")
    local, _, domain = addr.rpartition("@")
    return Address(display_name=name, username=local, domain=domain) if name else addr


def _loop_value(sender: str) -> str:
    _, addr = email.utils.parseaddr(sender)
    return addr.rpartition("@")[2].lower() or "pbem"
