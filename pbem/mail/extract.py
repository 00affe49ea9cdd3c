"""Extract the player's command lines from a reply body.

Our own line logic runs first (email-engineering notes C7): quoted lines (``>``) are dropped one
by one, never "cut at the first ``>``", so interleaved replies work; an attribution line
("On … wrote:", "Am … schrieb …:", …) followed by quoted lines is dropped, one followed by
unquoted history cuts the rest; Outlook "From:/Sent:" blocks, "-----Original Message-----",
underscore rules, the ``-- `` signature delimiter and mobile footers cut the rest. The kept text
then goes through ``mail-parser-reply`` (header detection in more languages, signatures,
disclaimers); when in doubt we cut, because reading a quoted example command is worse than
reading none. Finally only command-looking lines are kept: the first word must be a command
verb (the engine's vocabulary: verbs, synonyms and meta words, unless *verbs* is given).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass, field

MAX_INPUT_CHARS = 64 * 1024  # text beyond this is never looked at
MAX_IGNORED = 20
LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "sv", "da", "pl", "cs"]

_ATTRIBUTION_END = re.compile(
    r"(wrote|writes|schrieb|a écrit|escribió|escreveu|ha scritto|schreef|skrev|kirjoitti|"
    r"napisał|napsal|написал|написала|geschreven)\s*:\s*$",
    re.IGNORECASE,
)
_ATTRIBUTION_START = re.compile(r"^(on|am|le|el|il|op|em|den|dne)\s", re.IGNORECASE)
_SEPARATOR = re.compile(
    r"^(-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|"
    r"message d'origine|mensaje original|messaggio originale)\s*-{2,}|_{10,}|-{10,}|={10,})$",
    re.IGNORECASE,
)
_HEADER_FIELD = re.compile(r"^\*?(from|von|de|da|van|od)\s*\*?:\s*\S", re.IGNORECASE)
_HEADER_FOLLOW = re.compile(
    r"^\*?(sent|date|gesendet|datum|envoyé|enviado|inviato|verzonden|to|an|à|subject|betreff)"
    r"\s*\*?:",
    re.IGNORECASE,
)
_MOBILE_FOOTER = re.compile(
    r"^(sent from|sent via|sent with|sent using|get outlook for|von meinem|gesendet von|"
    r"envoyé de|enviado desde|enviado do|inviato da|verzonden vanaf|skickat från)\b[^,;]{0,60}$",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^(?:[-*•·]|\d{1,2}[.)])\s+")
_TRANSLATE = {
    **dict.fromkeys(map(ord, "\u2018\u2019\u201a\u201b\u2032"), "'"),
    **dict.fromkeys(map(ord, "\u201c\u201d\u201e\u201f\u2033"), '"'),
    **dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-"),
    **dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None),
    ord("\xa0"): " ",
    ord("\t"): " ",
}


@dataclass(frozen=True)
class Extraction:
    """``lines``: the command lines, in order; ``ignored``: other non-empty reply lines
    (greetings, text that is no command, lines over the caps), for echoing back to the player."""

    lines: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)


def extract_commands(
    text: str,
    max_lines: int = 40,
    max_line_len: int = 300,
    *,
    verbs: Collection[str] | None = None,
) -> Extraction:
    """Return the command lines of a reply body *text* (see the module docstring)."""
    known = _default_verbs() if verbs is None else {v.lower() for v in verbs}
    reply = _reply_lines(_normalise(text[:MAX_INPUT_CHARS]))
    reply = _second_opinion(reply)
    lines: list[str] = []
    ignored: list[str] = []
    for line in reply:
        if not line:
            continue
        command = _BULLET.sub("", line).strip()
        if len(command) > max_line_len:
            ignored.append(command[:max_line_len] + "…")
        elif _looks_like_command(command, known) and len(lines) < max_lines:
            lines.append(" ".join(command.split()))
        else:
            ignored.append(command)
    return Extraction(lines=lines, ignored=ignored[:MAX_IGNORED])


def _default_verbs() -> set[str]:
    from engine.vocabulary import command_words

    return set(command_words())


def _normalise(text: str) -> list[str]:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return [unicodedata.normalize("NFKC", line.translate(_TRANSLATE)).rstrip() for line in
            text.split("\n")]


def _looks_like_command(line: str, known: Collection[str]) -> bool:
    first = line.split(maxsplit=1)[0].lower().rstrip(":,.")
    return first in known


def _reply_lines(lines: list[str]) -> list[str]:
    """Our own line logic: drop quoted lines and quote headers; cut at history and signatures."""
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith(">"):
            i += 1
            continue
        span = _attribution_span(lines, i)
        if span:
            if _next_nonblank_is_quoted(lines, i + span):
                i += span
                continue
            break
        if _SEPARATOR.match(line) or lines[i] in ("--", "-- ") or line == "--":
            break
        if _MOBILE_FOOTER.match(line) or _outlook_header_at(lines, i):
            break
        kept.append(line)
        i += 1
    return kept


def _attribution_span(lines: list[str], i: int) -> int:
    """Number of lines (1–3) of a quote attribution starting at line *i*, else 0."""
    first = lines[i].strip()
    if not first:
        return 0
    if _ATTRIBUTION_END.search(first):
        return 1
    if _ATTRIBUTION_START.match(first):
        for extra in (1, 2):
            if i + extra < len(lines) and _ATTRIBUTION_END.search(lines[i + extra].strip()):
                return extra + 1
            if i + extra >= len(lines) or not lines[i + extra].strip():
                break
    return 0


def _next_nonblank_is_quoted(lines: list[str], start: int) -> bool:
    for line in lines[start:]:
        if line.strip():
            return line.strip().startswith(">")
    return True  # nothing after the attribution: dropping it loses nothing


def _outlook_header_at(lines: list[str], i: int) -> bool:
    """An Outlook "From: …" header block: From: followed within 4 lines by Sent:/Date:/To:."""
    if not _HEADER_FIELD.match(lines[i].strip()):
        return False
    following = [line.strip() for line in lines[i + 1 : i + 6] if line.strip()][:4]
    return any(_HEADER_FOLLOW.match(line) for line in following)


def _second_opinion(lines: list[str]) -> list[str]:
    """Run mail-parser-reply over what we kept; trust it when it cuts (never when it adds)."""
    if not any(lines):
        return lines
    try:
        from mailparser_reply.parser import EmailMessage
    except ImportError:  # pragma: no cover - a declared dependency
        return lines
    text = "\n".join(lines)
    try:
        message = EmailMessage(text=text, languages=list(LANGUAGES), keep_hyphen_lists=True)
        replies = message.read().replies
        body = replies[0].body if replies else text
    except Exception:  # a helper must never sink the extraction
        return lines
    allowed = {line.strip() for line in body.split("\n")}
    return [line for line in lines if line.strip() in allowed]
