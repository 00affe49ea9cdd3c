"""Parse one raw inbound mail, defensively, into a :class:`ParsedMessage`.

Hostile input is expected (email-engineering notes C3, C7): the header block, the number of
recipients, MIME depth and part count and the decoded text are all capped, unknown or lying
charsets are decoded with replacement characters, and any failure of the stdlib parser
(including ``RecursionError``) becomes :class:`MalformedMessage`; `pbem.mail.budget.OverBudget`
(the caller's CPU budget spent) passes through. ``auto_reason`` says why a
message must never be answered (RFC 3834 auto-replies, RFC 3464 bounces, our own mail).
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import hashlib
import re
from dataclasses import dataclass, field
from email.message import EmailMessage, Message

from pbem.mail import budget
from pbem.mail.budget import OverBudget
from pbem.mail.dsn import Dsn, read_dsn
from pbem.mail.flowed import unflow
from pbem.mail.htmltext import html_to_text
from pbem.sanitize import utf8_header

MAX_SIZE = 5 * 1024 * 1024  # whole message; bigger ones are not parsed at all
MAX_HEADER_BYTES = 64 * 1024
MAX_RECIPIENTS = 50
MAX_DEPTH = 10
MAX_PARTS = 100
MAX_TEXT_BYTES = 256 * 1024
MAX_MSGID = 250  # longer Message-IDs are replaced by a hash of them (columns hold 400)
LOOP_HEADER = "X-1960-PBEM"  # set on everything we send (compose.py)

AUTO_SUBMITTED = "auto-submitted"
BOUNCE = "bounce (RFC 3464)"
NULL_SENDER = "bounce (null return-path)"
OWN_MESSAGE = "our own message (loop)"

_SYSTEM_SENDER = re.compile(r"^(mailer-daemon|postmaster|no-?reply|do-?not-?reply)([+@]|$)")
_MSGID = re.compile(r"<[^<>\s]+>")
_RECEIVED_FOR = re.compile(r"\bfor\s+<?([^\s<>;]+@[^\s<>;]+)>?", re.IGNORECASE)
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_CONTROLS = dict.fromkeys([c for c in range(32) if c not in (9, 10, 13)] + [127])  # NUL & co.


class MalformedMessage(ValueError):
    """The raw bytes cannot be read as a mail message, or they exceed our limits."""


@dataclass(frozen=True)
class ParsedMessage:
    """What the pipeline needs from one inbound mail.

    Message-IDs keep their angle brackets (``<local@domain>``, domain lower-cased), the form
    the server's own take (`pbem.keys.message_id`). ``from_addr`` is bare and
    lower-case ("" if the mail has no usable From). ``problems`` lists non-fatal limits hit
    (e.g. a text part truncated), for operator logs.
    """

    message_id: str | None
    from_addr: str
    from_display: str
    to_addrs: list[str]
    subject: str
    in_reply_to: str | None
    references: list[str] = field(default_factory=list)
    auto_reason: str | None = None
    text: str = ""
    size: int = 0
    problems: list[str] = field(default_factory=list)
    auth_results: list[str] = field(default_factory=list)  # Authentication-Results values
    dsn: Dsn | None = None  # a delivery status notification (bounce), `pbem.mail.dsn`


def parse_message(raw: bytes, own_address: str) -> ParsedMessage:
    """Parse *raw* (RFC 5322 bytes); *own_address* is the game mailbox (loop detection)."""
    if not isinstance(raw, bytes | bytearray):
        raise MalformedMessage("message is not bytes")
    raw = bytes(raw)
    if len(raw) > MAX_SIZE:
        raise MalformedMessage(f"message too large ({len(raw)} bytes, limit {MAX_SIZE})")
    head_end = _header_end(raw)
    if head_end > MAX_HEADER_BYTES:
        raise MalformedMessage(f"header block too large ({head_end} bytes)")
    if raw.lower().count(b"boundary=") > 2 * MAX_PARTS:  # a MIME bomb: the stdlib recurses
        raise MalformedMessage(f"more than {2 * MAX_PARTS} multipart boundaries")
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        return _build(msg, raw, own_address.strip().lower())
    except (MalformedMessage, OverBudget):
        raise
    except (Exception, RecursionError) as exc:  # the stdlib parser has many failure modes
        raise MalformedMessage(f"cannot read message: {type(exc).__name__}: {exc}") from exc


def _header_end(raw: bytes) -> int:
    match = re.search(rb"\r?\n\r?\n", raw[: MAX_HEADER_BYTES + 4])
    if match is None:
        return len(raw) if len(raw) <= MAX_HEADER_BYTES else MAX_HEADER_BYTES + 1
    return match.start()


def _build(msg: EmailMessage, raw: bytes, own: str) -> ParsedMessage:
    if not msg.keys():
        raise MalformedMessage("no header fields")
    problems: list[str] = []
    from_addr, from_display = _first_address(msg, "From")
    text = _body_text(msg, problems)
    return ParsedMessage(
        message_id=_first_msgid(_header(msg, "Message-ID")),
        from_addr=from_addr,
        from_display=from_display,
        to_addrs=_recipients(msg, problems),
        subject=_header(msg, "Subject")[:1000],
        in_reply_to=_first_msgid(_header(msg, "In-Reply-To")),
        references=_msgids(_header(msg, "References"))[:100],
        auto_reason=_auto_reason(msg, from_addr, own),
        text=text,
        size=len(raw),
        problems=problems,
        auth_results=_all_headers(msg, "Authentication-Results")[:20],
        dsn=read_dsn(msg),
    )


def _header(msg: Message, name: str) -> str:
    """One header as a string; a header the policy cannot parse falls back to its raw value."""
    try:
        value = msg.get(name)
    except Exception:
        value = None
        for key, raw_value in msg.raw_items():
            if key.lower() == name.lower():
                value = raw_value
                break
    if value is None:
        return ""
    text = utf8_header(str(value)).translate(_ZERO_WIDTH)
    return " ".join(text.translate(_CONTROLS).split())


def _all_headers(msg: Message, name: str) -> list[str]:
    values: list[str] = []
    for key, raw_value in msg.raw_items():
        if key.lower() == name.lower():
            values.append(" ".join(utf8_header(str(raw_value)).translate(_CONTROLS).split()))
    return values


def _normalise_msgid(value: str) -> str:
    local, _, domain = value[1:-1].rpartition("@")
    value = f"<{local}@{domain.lower()}>" if local else value
    if len(value) > MAX_MSGID:  # deterministic, so a redelivery is still a duplicate
        value = f"<{hashlib.sha256(value.encode('utf-8', 'replace')).hexdigest()}@long-id.invalid>"
    return value


def _msgids(value: str) -> list[str]:
    return [_normalise_msgid(m) for m in _MSGID.findall(value)]


def _first_msgid(value: str) -> str | None:
    ids = _msgids(value)
    return ids[0] if ids else None


def _address_pairs(msg: Message, name: str) -> list[tuple[str, str]]:
    """(display name, bare lower-case address) pairs of one address header, hostile-safe."""
    pairs: list[tuple[str, str]] = []
    try:
        header = msg.get(name)
        addresses = getattr(header, "addresses", None)
        if addresses is not None:
            for addr in addresses[:MAX_RECIPIENTS]:
                spec = utf8_header(addr.addr_spec or "").translate(_CONTROLS)
                if "@" in spec:
                    pairs.append((utf8_header(addr.display_name), spec.strip().lower()[:320]))
            return pairs
    except Exception:
        pairs = []
    for value in _all_headers(msg, name):
        for display, addr in email.utils.getaddresses([value[:4096]])[:MAX_RECIPIENTS]:
            if "@" in addr:
                pairs.append((display, addr.translate(_CONTROLS).strip().lower()[:320]))
    return pairs


def _first_address(msg: Message, name: str) -> tuple[str, str]:
    pairs = _address_pairs(msg, name)
    if not pairs:
        return "", ""
    display, addr = pairs[0]
    return addr, " ".join(display.translate(_ZERO_WIDTH).split())[:200]


def _recipients(msg: Message, problems: list[str]) -> list[str]:
    """To, Cc, Delivered-To, X-Original-To, Envelope-To and ``Received: … for <addr>``."""
    seen: dict[str, None] = {}
    for name in ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To"):
        for _, addr in _address_pairs(msg, name):
            seen.setdefault(addr, None)
    for received in _all_headers(msg, "Received")[:20]:
        for addr in _RECEIVED_FOR.findall(received):
            seen.setdefault(addr.strip().lower(), None)
    addrs = list(seen)
    if len(addrs) > MAX_RECIPIENTS:
        problems.append(f"{len(addrs)} recipients; kept the first {MAX_RECIPIENTS}")
    return addrs[:MAX_RECIPIENTS]


def _auto_reason(msg: Message, from_addr: str, own: str) -> str | None:
    """Why this mail must never be answered (RFC 3834 §2, RFC 3464), or None."""
    own_local, _, own_domain = own.partition("@")
    from_local, _, from_domain = from_addr.partition("@")
    if msg.get(LOOP_HEADER) is not None or (
        own_domain
        and from_domain == own_domain
        and from_local.split("+")[0] == own_local.split("+")[0]
    ):
        return OWN_MESSAGE
    if msg.get_content_type() == "multipart/report":
        report = str(msg.get_param("report-type", "") or "").lower()
        return BOUNCE if report in ("delivery-status", "") else f"report ({report})"
    return_paths = _all_headers(msg, "Return-Path")
    if return_paths and return_paths[0].strip() == "<>":
        return NULL_SENDER
    auto = _header(msg, "Auto-Submitted").lower()
    if auto and auto.split(";")[0].strip() != "no":
        return AUTO_SUBMITTED
    precedence = _header(msg, "Precedence").lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"precedence {precedence}"
    for name in ("X-Autoreply", "X-Autorespond", "X-Auto-Reply", "X-Autogenerated"):
        if msg.get(name) is not None:
            return f"auto-reply header ({name})"
    if msg.get("List-Id") is not None or msg.get("List-Unsubscribe") is not None:
        return "mailing list"
    if _SYSTEM_SENDER.match(from_addr):
        return f"system sender ({from_addr})"
    return None


def _body_text(msg: Message, problems: list[str]) -> str:
    """text/plain preferred, else text/html converted; multipart walked with depth/part caps."""
    plain: Message | None = None
    html: Message | None = None
    for part in _walk(msg, problems):
        if part.get_content_disposition() == "attachment":
            continue
        ctype = part.get_content_type()
        if ctype == "text/plain" and plain is None:
            plain = part
        elif ctype == "text/html" and html is None:
            html = part
    if plain is not None:
        return _clean(_decode(plain, problems))
    if html is not None:
        return _clean(html_to_text(_decode(html, problems)))
    return ""


def _walk(msg: Message, problems: list[str]) -> list[Message]:
    """Leaf parts in document order, breadth-limited and depth-limited (MIME bombs, C7)."""
    leaves: list[Message] = []
    stack: list[tuple[Message, int]] = [(msg, 0)]
    count = 0
    while stack:
        budget.check()
        part, depth = stack.pop()
        count += 1
        if count > MAX_PARTS:
            problems.append(f"more than {MAX_PARTS} MIME parts; rest ignored")
            break
        if part.is_multipart():
            if depth >= MAX_DEPTH:
                problems.append(f"MIME nesting deeper than {MAX_DEPTH}; rest ignored")
                continue
            children = part.get_payload()
            if isinstance(children, list):
                stack.extend(
                    (child, depth + 1)
                    for child in reversed(children[:MAX_PARTS])
                    if isinstance(child, Message)
                )
        elif part.get_content_maintype() == "text":
            leaves.append(part)
    return leaves


def _decode(part: Message, problems: list[str]) -> str:
    """Decode a text part: transfer encoding, then its charset with replacement on errors."""
    try:
        payload = part.get_payload(decode=True)
    except Exception:
        payload = None
    if not isinstance(payload, bytes):
        value = part.get_payload()
        payload = value.encode("utf-8", "replace") if isinstance(value, str) else b""
    if len(payload) > MAX_TEXT_BYTES:
        problems.append(f"text part of {len(payload)} bytes truncated to {MAX_TEXT_BYTES}")
        payload = payload[:MAX_TEXT_BYTES]
    charset = str(part.get_content_charset() or "utf-8")
    if charset in ("iso-8859-1", "latin-1", "us-ascii", "ascii"):
        charset = "cp1252"  # the usual Outlook mislabel; a superset for printable text
    try:
        text = payload.decode(charset, errors="replace")
    except (LookupError, ValueError):
        problems.append(f"unknown charset {charset[:40]!r}; read as UTF-8")
        text = payload.decode("utf-8", errors="replace")
    if str(part.get_param("format", "") or "").lower() == "flowed":
        text = unflow(text, str(part.get_param("delsp", "") or "").lower() == "yes")
    return text


def _clean(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_ZERO_WIDTH)
    return text.replace("\xa0", " ").replace("\x00", "")
