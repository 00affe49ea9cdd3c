"""Extract command lines from a reply body (stub, being written)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Extraction:
    lines: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)


def extract_commands(text: str, max_lines: int = 40, max_line_len: int = 300) -> Extraction:
    raise NotImplementedError
