"""Find the writer's own lines in a reply body: quoted history, attributions and signatures out.

This is text handling only; which of the kept lines are commands is the pipeline's business
(`pbem.pipeline.lines`). Our own line logic runs first (email-engineering notes C7):

* quoted lines (``>``) are dropped one by one, never "cut at the first ``>``", so interleaved
  and bottom-posted replies work; so are lines quoted with a tab, the POSIX ``mailx`` default
  (BSD and macOS ``mail``, s-nail without Debian's rc file), once an attribution is followed
  by tab-indented lines (`_tab_quotes`);
* an **attribution** ("On … wrote:", "Am … schrieb …:", "Den … skrev …:", "W dniu … pisze:",
  "… 写道：", a date-first "29 нояб. 2026 г., в 9:00, game <g@x>:" …, see `WROTE`) followed by
  quoted lines is dropped; one followed by unquoted history cuts the rest;
* a **header block** cuts the rest: a "From"-word line (``From:``, ``Von:``, ``Fra:``,
  ``Från:``, ``От:``, ``发件人:`` … `FROM_WORDS`) with a "Sent/To/Subject"-word line
  (`HEADER_WORDS`) within the next lines — or, structurally, two or more ``Word: value`` lines
  in a row after a blank line;
* **separators** cut the rest: ``-----Original Message-----``, ``-------- Oprindelig besked
  --------``, Zoho's ``---- On … wrote ----``, underscore and equals rules; so do the ``-- ``
  signature delimiter and mobile footers in many languages ("Sent from my iPhone",
  "Skickat från min iPhone", "发自我的iPhone" …);
* *history_starts*, a predicate the caller gives (the server's own report marker and report
  first lines), cuts the rest when it matches an unquoted line, and marks the start of the
  history when it matches a quoted one.

The kept text then goes through ``mail-parser-reply`` (more header languages, signatures,
disclaimers), which may only cut — positionally — never add a line back; except that its cut
is refused where it would begin at a line *keep* (a predicate the caller gives: the lines it
reads as commands) holds, since its sign-offs are matched by prefix and Danish "Tak" (thanks)
is the start of 'take 42'. When in doubt we cut: reading a quoted example command is worse
than reading none.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from mailparser_reply.parser import EmailMessage

__all__ = ["MAX_INPUT_CHARS", "ReplyText", "normalise_line", "reply_text"]

MAX_INPUT_CHARS = 64 * 1024  # at most this much of a body is looked at: its head and tail
LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "sv", "da", "pl", "cs"]

# Words that end an attribution line, by language (the colon is optional: some clients omit it).
WROTE = (
    "wrote",
    "writes",
    "schrieb",
    "schreibt",
    "a écrit",
    "écrit",
    "escribió",
    "ha escrito",
    "escreveu",
    "ha scritto",
    "scrisse",
    "schreef",
    "heeft geschreven",
    "geschreven",
    "skrev",
    "kirjoitti",
    "napisał",
    "napisała",
    "napisał\\(a\\)",
    "pisze",
    "napsal",
    "napsala",
    "написал",
    "написала",
    "написал\\(а\\)",
    "пишет",
    "写道",
    "寫道",
    "書きました",
    "のメッセージ",
    "yazdı",
    "írta",
    "έγραψε",
    "a scris",
    "작성",
)
_WROTE_END = re.compile(r"(?:" + "|".join(WROTE) + r")\s*:?\s*$", re.IGNORECASE)
_ATTRIBUTION_START = re.compile(
    r"^(on|am|le|el|il|op|em|den|dne|w dniu|dnia|в|в\s|в\d|在|於|于|\d{4}年|\d{4}[-/.]\d)",
    re.IGNORECASE,
)
_DATE_OR_ADDRESS = re.compile(r"@|\d{1,2}[:.]\d{2}|\d{4}")

FROM_WORDS = (
    "from",
    "von",
    "de",
    "da",
    "van",
    "od",
    "fra",
    "från",
    "от",
    "от кого",
    "发件人",
    "寄件人",
    "寄件者",
    "差出人",
    "送信者",
    "mittente",
    "remitente",
    "expéditeur",
    "afzender",
    "nadawca",
    "lähettäjä",
    "feladó",
    "보낸 사람",
)
HEADER_WORDS = (
    "sent",
    "date",
    "to",
    "cc",
    "subject",
    "gesendet",
    "datum",
    "an",
    "betreff",
    "envoyé",
    "à",
    "objet",
    "enviado",
    "para",
    "asunto",
    "fecha",
    "inviato",
    "data",
    "a",
    "oggetto",
    "verzonden",
    "aan",
    "onderwerp",
    "sendt",
    "til",
    "emne",
    "skickat",
    "till",
    "ämne",
    "wysłano",
    "do",
    "temat",
    "отправлено",
    "кому",
    "тема",
    "дата",
    "发送时间",
    "时间",
    "收件人",
    "主题",
    "日期",
    "抄送",
    "送信日時",
    "宛先",
    "件名",
    "日付",
    "寄件日期",
    "主旨",
    "kopia",
    "копия",
)
_HEADER_LINE = re.compile(
    r"^\*?([^\W\d_][^\W\d_ .'-]*(?:[ .'-][^\W\d_]+){0,2})\s*\*?\s*:\s*\S", re.UNICODE
)
_FROM = frozenset(FROM_WORDS)
_FOLLOW = frozenset(HEADER_WORDS)
_SEPARATOR = re.compile(
    r"^(?:[-_=\u2014\u2013]{2,}\s*\S.{0,80}?\s*[-_=\u2014\u2013]{2,}|_{8,}|-{8,}|={8,}|~{8,}"
    r"|begin forwarded message:|anfang der weitergeleiteten nachricht:"
    r"|début du message réenvoyé :?|inicio del mensaje reenviado:?)$",
    re.IGNORECASE,
)
_MOBILE_FOOTER = re.compile(
    r"^(sent from|sent via|sent with|sent using|get outlook for|von meinem|gesendet von|"
    r"envoyé de|enviado desde|enviado do|enviado de|inviato da|verzonden vanaf|verstuurd vanaf|"
    r"skickat från|sendt fra|wysłane z|wysłano z|отправлено с|отправлено из|发自我的|"
    r"从我的|從我的|iphoneから送信|android.?から送信)[^,;]{0,60}$",
    re.IGNORECASE,
)
_TRANSLATE = {
    **dict.fromkeys(map(ord, "\u2018\u2019\u201a\u201b\u2032"), "'"),
    **dict.fromkeys(map(ord, "\u201c\u201d\u201e\u201f\u2033"), '"'),
    **dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-"),
    **dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None),
    ord("\xa0"): " ",
    ord("\t"): " ",
}


@dataclass(frozen=True)
class ReplyText:
    """The writer's own lines of a reply, in order, stripped (a blank line is ``""``).

    ``above_quote`` counts the leading lines that stand above the first quoted line or
    attribution (top posting); ``quoted`` is True if any quoted history was seen; ``cut`` says
    what ended the reading ("" when the text simply ended). ``blocks`` numbers each line's run
    of own lines: it grows by one wherever quoted lines or an attribution stood between two
    kept lines (an interleaved answer is a block of its own).
    """

    lines: list[str]
    above_quote: int
    quoted: bool = False
    cut: str = ""
    blocks: tuple[int, ...] = ()

    def block_of(self, n: int) -> int:
        return self.blocks[n] if n < len(self.blocks) else 0


def normalise_line(line: str) -> str:
    """Typography folded (quotes, dashes, zero-width, NBSP, tabs), NFKC, trailing space off."""
    return unicodedata.normalize("NFKC", line.translate(_TRANSLATE)).rstrip()


def reply_text(
    text: str,
    *,
    history_starts: Callable[[str], bool] | None = None,
    keep: Callable[[str], bool] | None = None,
) -> ReplyText:
    """The writer's own lines of *text* (see the module docstring)."""
    text = _bounded(text).replace("\r\n", "\n").replace("\r", "\n")
    raw = text.split("\n")
    lines = _tab_quotes(raw, [normalise_line(line) for line in raw])
    own = _Reader(lines, history_starts).read()
    return _second_opinion(own, keep or (lambda _line: False))


def _bounded(text: str) -> str:
    """At most `MAX_INPUT_CHARS` of *text*: a longer one keeps its head and its tail, in whole
    lines, so that a command written under a long quote (a bottom-posted reply to the help
    mail, which quotes every card) is read; the middle, quoted history as a rule, is not."""
    if len(text) <= MAX_INPUT_CHARS:
        return text
    half = MAX_INPUT_CHARS // 2
    head, tail = text[:half], text[-half:]
    return head[: head.rfind("\n") + 1] + tail[tail.find("\n") + 1 :]


def _tab_quotes(raw: list[str], lines: list[str]) -> list[str]:
    """*lines* with tab-quoted lines marked ``>``: when an attribution is followed (blank lines
    aside) by a line that starts with a tab, every line from there on that starts with a tab
    is quoted history (POSIX mailx's ``indentprefix``). Without such an attribution, nothing
    changes: a writer's own indented line is never taken for a quote."""
    if not any(line.startswith("\t") for line in raw):
        return lines
    start = None
    for i in range(len(lines)):
        if not raw[i].startswith("\t") and lines[i].strip():
            span = attribution_span(lines, i)
            if span:
                j = i + span
                while j < len(lines) and not raw[j].strip():
                    j += 1
                if j < len(lines) and raw[j].startswith("\t"):
                    start = j
                    break
    if start is None:
        return lines
    return [
        f"> {line.strip()}" if n >= start and raw[n].startswith("\t") else line
        for n, line in enumerate(lines)
    ]


class _Reader:
    """One pass over the lines; see `reply_text`."""

    def __init__(self, lines: list[str], history_starts: Callable[[str], bool] | None) -> None:
        self.lines = lines
        self.starts = history_starts or (lambda _line: False)
        self.kept: list[str] = []
        self.blocks: list[int] = []
        self.block = 0
        self.above: int | None = None

    def _history(self) -> None:
        if self.above is None:
            self.above = len(self.kept)
        if self.blocks and self.blocks[-1] == self.block:
            self.block += 1

    def _done(self, cut: str) -> ReplyText:
        above = len(self.kept) if self.above is None else self.above
        return ReplyText(self.kept, above, self.above is not None, cut, tuple(self.blocks))

    def read(self) -> ReplyText:
        lines, i = self.lines, 0
        while i < len(lines):
            raw = lines[i]
            line = raw.strip()
            if line.startswith(">"):
                self._history()
                i += 1
                continue
            if line and self.starts(line):
                return self._done("the quoted report")
            span = attribution_span(lines, i)
            if span:
                self._history()
                if _next_nonblank_is_quoted(lines, i + span):
                    i += span
                    continue
                return self._done("an attribution line")
            if raw in ("--", "-- ") or line == "--":
                return self._done("a signature")
            if _SEPARATOR.match(line):
                self._history()
                return self._done("a separator line")
            if _MOBILE_FOOTER.match(line):
                return self._done("a mobile footer")
            if header_block_at(lines, i):
                self._history()
                return self._done("a header block")
            self.kept.append(line)
            self.blocks.append(self.block)
            i += 1
        return self._done("")


def attribution_span(lines: list[str], i: int) -> int:
    """Number of lines (1–3) of a quote attribution starting at line *i*, else 0."""
    first = lines[i].strip()
    if not first or len(first) > 300:
        return 0
    if _is_wrote_line(first, first):
        return 1
    if _ATTRIBUTION_START.match(first):
        for extra in (1, 2):
            if i + extra >= len(lines) or not lines[i + extra].strip():
                break
            if _is_wrote_line(lines[i + extra].strip(), first):
                return extra + 1
    if (
        first.endswith(":")
        and _DATE_OR_ADDRESS.search(first)
        and (_next_nonblank_is_quoted(lines, i + 1, default=False))
    ):
        return 1  # date-first attribution: "29 нояб. 2026 г., в 9:00, game <g@x>:"
    return 0


def _is_wrote_line(line: str, first: str) -> bool:
    if not _WROTE_END.search(line):
        return False
    if line.rstrip().endswith(":"):
        return True
    # "On … wrote" without a colon: only with an attribution's shape, never plain prose
    return bool(_ATTRIBUTION_START.match(first) or _DATE_OR_ADDRESS.search(first + line))


def _next_nonblank_is_quoted(lines: list[str], start: int, default: bool = True) -> bool:
    for line in lines[start : start + 50]:
        if line.strip():
            return line.strip().startswith(">")
    return default  # nothing after the attribution: dropping it loses nothing


def _header_key(line: str) -> str | None:
    m = _HEADER_LINE.match(line.strip())
    return m.group(1).lower() if m else None


def header_block_at(lines: list[str], i: int) -> bool:
    """A mail header block ("From:/Sent:/To:/Subject:" in any language) starts at line *i*."""
    key = _header_key(lines[i])
    if key is None:
        return False
    following = [line for line in lines[i + 1 : i + 7] if line.strip()][:4]
    if key in _FROM and any(_header_key(line) in _FOLLOW for line in following):
        return True
    # structural: two or more "Word: value" lines in a row, after a blank line (or at the top)
    after_blank = i == 0 or not lines[i - 1].strip()
    return after_blank and i + 1 < len(lines) and _header_key(lines[i + 1]) is not None


def _second_opinion(reply: ReplyText, keep: Callable[[str], bool]) -> ReplyText:
    """Run mail-parser-reply over what we kept; where it cuts, we cut (positionally), unless
    the cut would begin at a line the caller keeps."""
    lines = reply.lines
    if not any(lines):
        return reply
    try:
        message = EmailMessage(
            text="\n".join(lines), languages=list(LANGUAGES), keep_hyphen_lists=True
        )
        replies = message.read().replies
        body = replies[0].body.split("\n") if replies else lines
    except Exception:  # a helper must never sink the extraction
        return reply
    body = [line.strip() for line in body]
    j = 0
    for n, line in enumerate(lines):
        if not line:
            continue
        try:
            j = body.index(line, j) + 1
        except ValueError:
            if keep(line):
                return reply
            return ReplyText(
                lines[:n],
                min(reply.above_quote, n),
                reply.quoted,
                reply.cut or "a signature or disclaimer",
                reply.blocks[:n],
            )
    return reply
