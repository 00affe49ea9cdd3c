"""Compose outbound mail: deterministic Message-IDs and multipart/alternative messages.

With inline images (the report's map picture) the HTML alternative becomes a
``multipart/related`` holding the HTML and each image with its ``Content-ID``, which the HTML
refers to as ``cid:...`` (RFC 2392; Gmail drops ``data:`` URIs)::

    multipart/alternative
      text/plain
      multipart/related; type="text/html"
        text/html
        image/png (Content-ID, Content-Disposition: inline, base64)

Every message we send carries ``Auto-Submitted: auto-generated`` (RFC 3834 §5),
``X-Auto-Response-Suppress: All`` and our loop header ``X-1960-PBEM`` (which
:func:`pbem.mail.parse.parse_message` recognises as "our own message"). Bodies are UTF-8
quoted-printable (7-bit safe, robust under DKIM); non-ASCII headers become RFC 2047 words.
A Message-ID is derived from the outbox row that caused the mail, never from the clock, so a
resend after a crash carries the same ID (email-engineering notes C2).
"""

from __future__ import annotations

import binascii
import email.policy
import email.utils
import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from email.headerregistry import Address

from pbem.mail.parse import LOOP_HEADER

_POLICY = email.policy.SMTP.clone(max_line_length=78)
_RESERVED = {
    "from",
    "to",
    "subject",
    "message-id",
    "in-reply-to",
    "references",
    "reply-to",
    "date",
    "mime-version",
    "content-type",
    "content-transfer-encoding",
    "auto-submitted",
    "cc",
    "bcc",
    "sender",
    "x-auto-response-suppress",
    LOOP_HEADER.lower(),
}


@dataclass(frozen=True)
class InlineImage:
    """An image the HTML part shows as ``<img src="cid:CID">`` (``cid`` without brackets)."""

    cid: str
    data: bytes
    content_type: str = "image/png"
    filename: str = "image.png"


@dataclass(frozen=True)
class FileAttachment:
    """A file sent with the mail (``multipart/mixed``), e.g. a long game log."""

    filename: str
    data: bytes
    content_type: str = "text/plain; charset=utf-8"


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
    images: Sequence[InlineImage] = (),
    attachments: Sequence[FileAttachment] = (),
) -> bytes:
    """Return the RFC 5322 bytes (CRLF) of a text (+ HTML alternative) message.

    *sender*/*to*/*reply_to* may be bare addresses or ``"Name <addr>"``. *headers* adds extra
    fields (e.g. ``List-Id``); it cannot override the ones set here. Raises ``ValueError`` on
    header injection attempts (CR/LF in any header value). *images* go with the HTML part in a
    ``multipart/related`` (ignored without *html*); *attachments* make the whole a
    ``multipart/mixed`` of the body and the files.

    Written out directly: short ASCII header lines as they are, anything else folded and
    RFC 2047-encoded by the SMTP email policy; each body UTF-8 quoted-printable (``binascii``).
    """
    out = [
        _header("From", _address_text(sender)),
        _header("To", _address_text(to)),
        _header("Subject", _single_line(subject)),
        _header(
            "Date",
            email.utils.format_datetime(date)
            if date
            else email.utils.formatdate(localtime=False, usegmt=True),
        ),
        _msgid_header("Message-ID", [_msgid(message_id)]),
    ]
    if in_reply_to:
        out.append(_msgid_header("In-Reply-To", [_msgid(in_reply_to)]))
    refs = [_msgid(r) for r in references if r]
    if in_reply_to and _msgid(in_reply_to) not in refs:
        refs.append(_msgid(in_reply_to))
    if refs:
        out.append(_msgid_header("References", refs))
    if reply_to:
        out.append(_header("Reply-To", _address_text(reply_to)))
    out += [
        _header("Auto-Submitted", "auto-generated"),
        _header("X-Auto-Response-Suppress", "All"),
        _header(LOOP_HEADER, _loop_value(sender)),
    ]
    for name, value in (headers or {}).items():
        if name.strip().lower() in _RESERVED or not re.fullmatch(r"[A-Za-z0-9-]+", name):
            raise ValueError(f"header {name!r} cannot be set through headers=")
        out.append(_header(name, _single_line(value)))
    # QP and base64 bodies never contain '==' mid-line, so these boundaries cannot collide
    boundary = (
        "===============" + hashlib.sha256(_msgid(message_id).encode()).hexdigest()[:19] + "=="
    )
    if attachments:
        mixed = boundary[:-2] + "mix=="
        out += [
            "MIME-Version: 1.0\r\n",
            _multipart("mixed", mixed),
            "\r\n",
            f"--{mixed}\r\n",
            *_body(text, html, images, boundary),
        ]
        for att in attachments:
            out += [f"--{mixed}\r\n", *_file(att)]
        out.append(f"--{mixed}--\r\n")
        return "".join(out).encode("ascii")
    if html is None:
        ctype, cte, blank, body = _part("plain", text)
        return "".join([*out, ctype, cte, "MIME-Version: 1.0\r\n", blank, body]).encode("ascii")
    out.append("MIME-Version: 1.0\r\n")
    out += _body(text, html, images, boundary)
    return "".join(out).encode("ascii")


def _body(text: str, html: str | None, images: Sequence[InlineImage], boundary: str) -> list[str]:
    """The message body as one entity (its Content-Type onwards), ending in CRLF."""
    if html is None:
        return [*_part("plain", text), "\r\n"]
    out = [_multipart("alternative", boundary), "\r\n"]
    out += [
        f"--{boundary}\r\n",
        *_part("plain", text),
        "\r\n",
    ]  # the CRLF before a boundary is its own
    out.append(f"--{boundary}\r\n")
    if images:
        out += _related(boundary[:-2] + "rel==", html, images)
    else:
        out += [*_part("html", html), "\r\n"]
    out.append(f"--{boundary}--\r\n")
    return out


def _base64_lines(data: bytes) -> str:
    body = binascii.b2a_base64(data, newline=False).decode("ascii")
    return "\r\n".join([body[i : i + 76] for i in range(0, len(body), 76)])


def _file(att: FileAttachment) -> list[str]:
    name = re.sub(r"[^A-Za-z0-9._-]", "_", att.filename) or "file"
    return [
        f'Content-Type: {_single_line(att.content_type)}; name="{name}"\r\n',
        "Content-Transfer-Encoding: base64\r\n",
        f'Content-Disposition: attachment; filename="{name}"\r\n',
        "\r\n",
        _base64_lines(att.data),
        "\r\n",
    ]


def _related(boundary: str, html: str, images: Sequence[InlineImage]) -> list[str]:
    """A ``multipart/related`` part: the HTML, then each image (base64, inline, Content-ID)."""
    out = [
        _multipart('related; type="text/html"', boundary),
        "\r\n",
        f"--{boundary}\r\n",
        *_part("html", html),
        "\r\n",
    ]
    for img in images:
        cid = _single_line(img.cid.strip().strip("<>"))
        name = re.sub(r"[^A-Za-z0-9._-]", "_", img.filename) or "image"
        lines = _base64_lines(img.data)
        out += [
            f"--{boundary}\r\n",
            f'Content-Type: {_single_line(img.content_type)}; name="{name}"\r\n',
            "Content-Transfer-Encoding: base64\r\n",
            f'Content-Disposition: inline; filename="{name}"\r\n',
            _header("Content-ID", f"<{cid}>"),
            "\r\n",
            lines,
            "\r\n\r\n",
        ]
    out.append(f"--{boundary}--\r\n")
    return out


def _header(name: str, value: str) -> str:
    """One header line; values that are not short ASCII are folded/encoded by the email policy."""
    line = f"{name}: {value}\r\n"
    if len(line) <= 80 and value.isascii() and "=?" not in value:
        return line
    return str(_POLICY.header_factory(name, value).fold(policy=_POLICY))


def _multipart(subtype: str, boundary: str) -> str:
    """The ``Content-Type: multipart/…; boundary="…"`` line, folded before the boundary when it
    is over 78 characters, as the email policy folds it (all ASCII: nothing to encode)."""
    line = f'Content-Type: multipart/{subtype}; boundary="{boundary}"'
    if len(line) <= 78:
        return line + "\r\n"
    return f'Content-Type: multipart/{subtype};\r\n boundary="{boundary}"\r\n'


def _part(subtype: str, body: str) -> list[str]:
    """A text part (headers, blank line, body): UTF-8, quoted-printable, as ``set_content`` makes it."""
    data = (
        b"\n".join(body.encode("utf-8").splitlines()) + b"\n"
    )  # normalised line ends, final newline
    encoded = binascii.b2a_qp(data, istext=True).decode("ascii")  # C; lines <= 76 (RFC 2045)
    return [
        f'Content-Type: text/{subtype}; charset="utf-8"\r\n',
        "Content-Transfer-Encoding: quoted-printable\r\n",
        "\r\n",
        encoded.replace("\n", "\r\n") + ("" if encoded.endswith("\n") else "\r\n"),
    ]


def _single_line(value: str) -> str:
    if "\r" in value or "\n" in value:
        raise ValueError("header values may not contain CR or LF")
    return value


def _msgid_header(name: str, ids: list[str]) -> str:
    """A Message-ID/In-Reply-To/References line: folded only *between* ids, never inside one.

    The email policy would fold a long single id onto a line of its own (``Message-ID:`` then
    a continuation line), which RFC 5322 allows but some readers take literally (the leading
    space in the value): with a long domain every report's Message-ID is that long. Lines
    stay far below RFC 5322's 998 octets (an id is at most about 400 characters here)."""
    if not all(i.isascii() for i in ids):
        return _header(name, " ".join(ids))
    lines, line = [], f"{name}: {ids[0]}"
    for i in ids[1:]:
        if len(line) + 1 + len(i) > 78:
            lines.append(line)
            line = f" {i}"
        else:
            line += f" {i}"
    return "\r\n".join([*lines, line]) + "\r\n"


def _msgid(value: str) -> str:
    value = _single_line(value.strip())
    return value if value.startswith("<") else f"<{value}>"


def _address_text(value: str) -> str:
    return str(_address(value))


def _address(value: str) -> Address | str:
    name, addr = email.utils.parseaddr(_single_line(value))
    if not addr or "@" not in addr:
        raise ValueError(f"not an address: {value!r}")
    local, _, domain = addr.rpartition("@")
    return Address(display_name=name, username=local, domain=domain) if name else addr


def _loop_value(sender: str) -> str:
    _, addr = email.utils.parseaddr(sender)
    return addr.rpartition("@")[2].lower() or "pbem"
