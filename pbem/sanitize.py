"""Make text from mail safe to store: valid UTF-8, no NUL or other control characters, bounded.

Every string column written from an inbound mail goes through `bounded` (PostgreSQL refuses
NUL bytes and lone surrogates and enforces VARCHAR lengths; SQLite does neither, so a bug
would only show on one of them). `utf8_header` turns the surrogate escapes the stdlib parser
leaves for raw 8-bit header bytes back into text (RFC 6532 internationalised headers).
"""

from __future__ import annotations

import re

__all__ = ["bounded", "utf8_header"]

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def utf8_header(value: str) -> str:
    """Undo ``surrogateescape``: raw UTF-8 bytes in a header become the characters they encode."""
    if not _SURROGATE.search(value):
        return value
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def bounded(value: str | None, limit: int, *, keep_newlines: bool = False) -> str:
    """``value`` as storable text of at most ``limit`` characters."""
    if not value:
        return ""
    text = _SURROGATE.sub("\ufffd", utf8_header(value))
    text = _CONTROL.sub("", text)
    if not keep_newlines:
        text = text.replace("\r", " ").replace("\n", " ")
    return text[:limit]
