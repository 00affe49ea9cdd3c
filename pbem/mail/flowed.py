"""Decode RFC 3676 ``format=flowed`` text (soft line breaks, quote depth, ``DelSp``).

A flowed line ends in a space (a soft break) and joins the next line — but only when both carry
the same quote depth (the count of leading ``>``; RFC 3676 §4.5): a soft break before a line of
another depth is treated as hard, so a quoted report line never swallows the reply's first
command, nor the other way round. Space-stuffing (§4.4) is undone, the signature separator
``-- `` is never flowed (§4.3), and with ``DelSp=yes`` the trailing space of a soft break is
deleted when joining (§4.2). Joined quoted lines keep a single ``> …`` prefix of their depth.
"""

from __future__ import annotations

__all__ = ["unflow"]


def _split(line: str) -> tuple[int, str]:
    """(quote depth, content with space-stuffing removed) of one physical line."""
    depth = len(line) - len(line.lstrip(">"))
    content = line[depth:]
    if content.startswith(" "):
        content = content[1:]  # space-stuffed (§4.4), or the space after the quote marks
    return depth, content


def unflow(text: str, delsp: bool = False) -> str:
    """Return *text* (a ``format=flowed`` body) as fixed lines, joined per RFC 3676 §4."""
    out: list[str] = []
    depth_open: int | None = None  # depth of the paragraph being joined, None if none
    buffer = ""
    for raw in text.replace("\r\n", "\n").split("\n"):
        depth, content = _split(raw)
        if depth_open is not None and depth != depth_open:
            out.append(_emit(depth_open, buffer))  # §4.5: never join across quote depths
            depth_open, buffer = None, ""
        flowed = content.endswith(" ") and content != "-- "
        if flowed:
            buffer += content[:-1] if delsp else content
            depth_open = depth
            continue
        out.append(_emit(depth, buffer + content))
        depth_open, buffer = None, ""
    if depth_open is not None:
        out.append(_emit(depth_open, buffer))
    return "\n".join(out)


def _emit(depth: int, content: str) -> str:
    return (">" * depth + " " + content) if depth else content
