"""Replies as real mail clients write them, around a real rendered report (test fixtures).

Each `Style` reproduces one public client's reply format — its attribution line or header
block in the client's language, its quoting (``>`` or unquoted history), its HTML quote
containers — as documented by the clients and as collected by reply-parsing projects (talon,
email_reply_parser, mail-parser-reply). `Report` is a mail the server really renders
(`pbem.reports.render.render`), so the quoted text is the server's own words. `reply_mail` wraps the
result in a MIME message (optionally ``format=flowed``, with ``DelSp``) as the client sends it.

Positions: ``top`` (commands above the quote), ``bottom`` (below it) and ``interleaved``
(between two parts of it) — the last two only where the client quotes with ``>`` or a
blockquote, since with unquoted history nobody can write below the history.
"""

from __future__ import annotations

import email.policy
import html as htmllib
import random
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

import engine
from pbem.reports.render import KINDS, render

GAME = "1960 game <game+kennedy.12.abcdef@example.test>"
DATE = "Sun, 29 Nov 2026 09:00:00 +0100"


@dataclass(frozen=True)
class Report:
    """One mail the server sent: its kind, subject, text and HTML."""

    name: str
    kind: str
    subject: str
    text: str
    html: str


@dataclass(frozen=True)
class Style:
    """A client's reply format. ``quoting``: ``quote`` (``>`` lines, any position),
    ``history`` (unquoted history after a header/attribution: top posting only), ``html``."""

    name: str
    language: str
    client: str
    quoting: str
    head: str  # the attribution / header block / separator ("" for none)
    html: Callable[[Report, str, str], str] | None = None  # (report, commands_html, head) -> html
    indent: str = "> "  # the quote prefix of ``quote`` styles

    def positions(self) -> tuple[str, ...]:
        if self.quoting == "quote":
            return ("top", "bottom", "interleaved")
        if self.html is not None and "bottom" in self.name:
            return ("top", "bottom")
        return ("top",)


def _quote(text: str, prefix: str = "> ") -> list[str]:
    return [(prefix + line).rstrip() or prefix.rstrip(" ") for line in text.splitlines()]


def body_text(style: Style, report: Report, commands: list[str], position: str) -> str:
    """The text/plain body the client sends."""
    own = commands
    if style.quoting == "history":
        return "\n".join([*own, "", *style.head.splitlines(), "", *report.text.splitlines()]) + "\n"
    quoted = _quote(report.text, style.indent)
    head = style.head.splitlines()
    if position == "top":
        lines = [*own, "", *head, *quoted]
    elif position == "bottom":
        lines = [*head, *quoted, "", *own]
    else:
        cut = len(quoted) // 2
        half = max(1, len(own) // 2)
        lines = [*head, *quoted[:cut], "", *own[:half], "", *quoted[cut:], "", *own[half:]]
    return "\n".join(lines) + "\n"


def body_html(style: Style, report: Report, commands: list[str], position: str) -> str:
    assert style.html is not None
    own = "".join(f"<div>{htmllib.escape(c)}</div>" for c in commands) or "<div><br></div>"
    page = style.html(report, own, htmllib.escape(style.head))
    if position == "bottom":
        return page.replace("<!--own-->", "").replace("<!--bottom-->", own)
    return page.replace("<!--own-->", own).replace("<!--bottom-->", "")


def _body(report: Report) -> str:
    """The inside of the report's <body> (clients nest it in their quote container)."""
    h = report.html
    start = h.find(">", h.find("<body")) + 1
    end = h.rfind("</body>")
    return h[start:end] if start > 0 and end > start else h


def _gmail_html(r: Report, own: str, head: str) -> str:
    return (
        f'<div dir="ltr"><!--own--></div><br><div class="gmail_quote gmail_quote_container">'
        f'<div dir="ltr" class="gmail_attr">{head}<br></div><blockquote class="gmail_quote" '
        f'style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);'
        f'padding-left:1ex">{_body(r)}</blockquote></div>'
    )


def _outlook_web_html(r: Report, own: str, head: str) -> str:
    return (
        f'<html><body><div style="font-family:Aptos,sans-serif"><!--own--></div>'
        f'<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">'
        f'<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri" style="font-size:11pt">'
        f"{head.replace(chr(10), '<br>')}</font><div>&nbsp;</div></div>{_body(r)}</body></html>"
    )


def _windows_mail_html(r: Report, own: str, head: str) -> str:
    return (
        f'<html><body><div dir="ltr"><!--own--></div><div dir="ltr"><br></div>'
        f"<div style='border-right: none; border-bottom: none; border-left: none; "
        f"border-top-style: solid; border-top-width: 1pt; border-top-color: rgb(225, 225, 225);"
        f" padding: 3pt 0in 0in'><div><b>{head.replace(chr(10), '<br>')}</b></div></div>"
        f"<div><br></div>{_body(r)}</body></html>"
    )


def _outlook2016_html(r: Report, own: str, head: str) -> str:
    return (
        f'<html><body lang="DA"><div class="WordSection1"><p class="MsoNormal"><!--own-->'
        f'</p><div><div style="border:none;border-top:solid #E1E1E1 1.0pt;'
        f'padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal">{head.replace(chr(10), "<br>")}'
        f"</p></div></div>{_body(r)}</div></body></html>"
    )


def _apple_html(r: Report, own: str, head: str) -> str:
    return (
        f'<html><body style="word-wrap: break-word;"><!--own--><div><br><blockquote '
        f'type="cite"><div>{head}</div><br>{_body(r)}</blockquote></div><!--bottom-->'
        f"</body></html>"
    )


def _thunderbird_html(r: Report, own: str, head: str) -> str:
    return (
        f'<html><body><p><!--own--></p><div class="moz-cite-prefix">{head}<br></div>'
        f'<blockquote type="cite" cite="mid:x@example.test">{_body(r)}</blockquote>'
        f"<!--bottom--></body></html>"
    )


def _yahoo_html(r: Report, own: str, head: str) -> str:
    return (
        f'<html><body><div class="ydp1 yahoo-style-wrap"><!--own--></div><div id="yahoo_'
        f'quoted_1" class="yahoo_quoted"><div style="font-size:13px;color:#26282a">'
        f"<div>{head}</div><div><br></div>{_body(r)}</div></div></body></html>"
    )


def _outlook_mac_html(r: Report, own: str, head: str) -> str:
    return (
        f'<html><body><div><!--own--></div><div><br></div><span id="OLK_SRC_BODY_SECTION">'
        f'<div style="font-family:Calibri"><span style="font-weight:bold">{head}</span></div>'
        f"{_body(r)}</span></body></html>"
    )


STYLES: tuple[Style, ...] = (
    # --- ">" quoting with an attribution line ----------------------------------------------
    Style(
        "en-gmail", "en", "Gmail", "quote", f"On Sun, Nov 29, 2026 at 9:00\u202fAM {GAME} wrote:"
    ),
    Style(
        "en-apple",
        "en",
        "Apple Mail (macOS)",
        "quote",
        f"> On 29 Nov 2026, at 09:00, {GAME} wrote:\n>",
    ),
    Style(
        "en-s-nail",
        "en",
        "s-nail 14.9 (Debian defaults), seen in the issue-10 play-through",
        "quote",
        "1960 \u2014 game #1 <game@example.test> wrote:\n\n",
    ),
    Style(
        "en-mailx-tab",
        "en",
        "POSIX mailx / s-nail without Debian's rc file (a tab as indentprefix), seen in the "
        "issue-14 play-through",
        "quote",
        "1960 \u2014 game #1 <game@example.test> wrote:\n",
        indent="\t",
    ),
    Style(
        "en-mutt",
        "en",
        "Mutt 2.2 (default attribution)",
        "quote",
        "On Tue, Dec 01, 2026 at 03:13:21AM +0000, 1960 \u2014 game #1 wrote:",
    ),
    Style(
        "en-no-colon",
        "en",
        "K-9 Mail / older mobile clients",
        "quote",
        f"On November 29, 2026 9:00:00 AM GMT+01:00, {GAME} wrote",
    ),
    Style(
        "en-wrapped",
        "en",
        "Gmail, attribution wrapped at 72",
        "quote",
        "On Sun, Nov 29, 2026 at 9:00 AM 1960 game\n<game+kennedy.12.abcdef@example.test> wrote:",
    ),
    Style(
        "de-thunderbird",
        "de",
        "Thunderbird (German)",
        "quote",
        "Am 29.11.26 um 09:00 schrieb 1960 game:",
    ),
    Style(
        "de-gmail",
        "de",
        "Gmail (German)",
        "quote",
        f"Am So., 29. Nov. 2026 um 09:00 Uhr schrieb {GAME}:",
    ),
    Style(
        "fr-gmail",
        "fr",
        "Gmail (French)",
        "quote",
        f"Le dim. 29 nov. 2026 à 09:00, {GAME} a écrit :",
    ),
    Style(
        "es-gmail",
        "es",
        "Gmail (Spanish)",
        "quote",
        f"El dom, 29 nov 2026 a las 9:00, {GAME} escribió:",
    ),
    Style(
        "it-gmail",
        "it",
        "Gmail (Italian)",
        "quote",
        f"Il giorno dom 29 nov 2026 alle ore 09:00 {GAME} ha scritto:",
    ),
    Style(
        "nl-gmail", "nl", "Gmail (Dutch)", "quote", f"Op zo 29 nov. 2026 om 09:00 schreef {GAME}:"
    ),
    Style(
        "da-thunderbird",
        "da",
        "Thunderbird (Danish)",
        "quote",
        "Den 29-11-2026 kl. 09:00 skrev 1960 game:",
    ),
    Style(
        "no-gmail",
        "no",
        "Gmail (Norwegian), date first",
        "quote",
        f"søn. 29. nov. 2026 kl. 09:00 skrev {GAME}:",
    ),
    Style(
        "sv-gmail", "sv", "Gmail (Swedish)", "quote", f"Den sön 29 nov. 2026 kl 09:00 skrev {GAME}:"
    ),
    Style(
        "pl-gmail", "pl", "Gmail (Polish)", "quote", f"W dniu 29.11.2026 o 09:00 {GAME} napisał(a):"
    ),
    Style(
        "pl-thunderbird",
        "pl",
        "Thunderbird (Polish)",
        "quote",
        "W dniu 29.11.2026 o 09:00, 1960 game pisze:",
    ),
    Style(
        "ru-gmail",
        "ru",
        "Gmail (Russian), date first, no verb",
        "quote",
        f"вс, 29 нояб. 2026 г. в 09:00, {GAME}:",
    ),
    Style(
        "ru-yandex",
        "ru",
        "Yandex Mail",
        "quote",
        '29.11.2026, 09:00, "1960 game" <game@example.test>:',
    ),
    Style("zh-gmail", "zh", "Gmail (Chinese)", "quote", f"{GAME} 于2026年11月29日周日 09:00写道："),
    Style(
        "zh-thunderbird",
        "zh",
        "Thunderbird (Chinese)",
        "quote",
        "在 2026/11/29 9:00, 1960 game 写道:",
    ),
    Style(
        "ja-gmail",
        "ja",
        "Gmail (Japanese), date first",
        "quote",
        f"2026年11月29日(日) 9:00 {GAME}:",
    ),
    Style("ja-thunderbird", "ja", "Thunderbird (Japanese)", "quote", "1960 game さんは書きました:"),
    # --- unquoted history after a header block or separator (top posting only) -------------
    Style(
        "en-outlook",
        "en",
        "Outlook (Windows)",
        "history",
        "________________________________\nFrom: 1960 game <game@example.test>\n"
        "Sent: Sunday, November 29, 2026 9:00 AM\nTo: Kim <kim@players.test>\n"
        "Subject: [1960 #12] Turn 2 — your move",
    ),
    Style(
        "de-outlook",
        "de",
        "Outlook (German)",
        "history",
        "-----Ursprüngliche Nachricht-----\nVon: 1960 game <game@example.test>\n"
        "Gesendet: Sonntag, 29. November 2026 09:00\nAn: Kim <kim@players.test>\n"
        "Betreff: [1960 #12] Turn 2",
    ),
    Style(
        "fr-outlook",
        "fr",
        "Outlook (French)",
        "history",
        "De : 1960 game <game@example.test>\nEnvoyé : dimanche 29 novembre 2026 09:00\n"
        "À : Kim <kim@players.test>\nObjet : [1960 #12] Turn 2",
    ),
    Style(
        "es-outlook",
        "es",
        "Outlook (Spanish)",
        "history",
        "De: 1960 game <game@example.test>\nEnviado: domingo, 29 de noviembre de 2026 9:00\n"
        "Para: Kim\nAsunto: [1960 #12] Turn 2",
    ),
    Style(
        "it-outlook",
        "it",
        "Outlook (Italian)",
        "history",
        "Da: 1960 game <game@example.test>\nInviato: domenica 29 novembre 2026 09:00\n"
        "A: Kim\nOggetto: [1960 #12] Turn 2",
    ),
    Style(
        "nl-outlook",
        "nl",
        "Outlook (Dutch)",
        "history",
        "Van: 1960 game <game@example.test>\nVerzonden: zondag 29 november 2026 09:00\n"
        "Aan: Kim\nOnderwerp: [1960 #12] Turn 2",
    ),
    Style(
        "da-outlook",
        "da",
        "Outlook (Danish)",
        "history",
        "Fra: 1960 game <game@example.test>\nSendt: 29. november 2026 09:00\nTil: Kim\n"
        "Emne: [1960 #12] Turn 2",
    ),
    Style(
        "da-separator",
        "da",
        "Thunderbird forward (Danish)",
        "history",
        "-------- Oprindelig besked --------",
    ),
    Style(
        "no-outlook",
        "no",
        "Outlook (Norwegian)",
        "history",
        "Fra: 1960 game <game@example.test>\nSendt: søndag 29. november 2026 09:00\nTil: Kim\n"
        "Emne: [1960 #12] Turn 2",
    ),
    Style(
        "sv-outlook",
        "sv",
        "Outlook (Swedish)",
        "history",
        "Från: 1960 game <game@example.test>\nSkickat: den 29 november 2026 09:00\nTill: Kim\n"
        "Ämne: [1960 #12] Turn 2",
    ),
    Style(
        "pl-outlook",
        "pl",
        "Outlook (Polish)",
        "history",
        "Od: 1960 game <game@example.test>\nWysłano: niedziela, 29 listopada 2026 09:00\nDo: Kim\n"
        "Temat: [1960 #12] Turn 2",
    ),
    Style(
        "ru-outlook",
        "ru",
        "Outlook (Russian)",
        "history",
        "От: 1960 game <game@example.test>\nОтправлено: 29 ноября 2026 г. 9:00\nКому: Kim\n"
        "Тема: [1960 #12] Turn 2",
    ),
    Style(
        "zh-foxmail",
        "zh",
        "QQ Mail / Foxmail",
        "history",
        '------------------ 原始邮件 ------------------\n发件人: "1960 game"<game@example.test>;\n'
        '发送时间: 2026年11月29日(星期日) 上午9:00\n收件人: "Kim"<kim@players.test>;\n'
        "主题: [1960 #12] Turn 2",
    ),
    Style(
        "zh-outlook",
        "zh",
        "Outlook (Chinese)",
        "history",
        "发件人: 1960 game <game@example.test>\n发送时间: 2026年11月29日 9:00\n收件人: Kim\n"
        "主题: [1960 #12] Turn 2",
    ),
    Style(
        "ja-outlook",
        "ja",
        "Outlook (Japanese)",
        "history",
        "差出人: 1960 game <game@example.test>\n送信日時: 2026年11月29日 9:00\n宛先: Kim\n"
        "件名: [1960 #12] Turn 2",
    ),
    Style(
        "en-zoho",
        "en",
        "Zoho Mail",
        "history",
        f"---- On Sun, 29 Nov 2026 09:00:00 +0100 {GAME} wrote ----",
    ),
    Style(
        "en-yahoo",
        "en",
        "Yahoo Mail (plain)",
        "history",
        f"On Sunday, November 29, 2026, 09:00:00 AM GMT+1, {GAME} wrote:",
    ),
    Style(
        "en-unknown",
        "en",
        "an unknown client: history with no recognisable header",
        "history",
        "Kim's assistant forwarded this:",
    ),
    # --- HTML only -------------------------------------------------------------------------
    Style(
        "html-gmail",
        "en",
        "Gmail (HTML only)",
        "html",
        f"On Sun, Nov 29, 2026 at 9:00 AM {GAME} wrote:",
        _gmail_html,
    ),
    Style(
        "html-outlook-web",
        "en",
        "Outlook on the web",
        "html",
        "From: 1960 game <game@example.test>\nSent: Sunday, November 29, 2026 9:00 AM\n"
        "To: Kim\nSubject: [1960 #12] Turn 2",
        _outlook_web_html,
    ),
    Style(
        "html-windows-mail",
        "en",
        "Windows Mail (border-top-style header div)",
        "html",
        "From: 1960 game\nSent: 29 November 2026 09:00\nTo: Kim",
        _windows_mail_html,
    ),
    Style(
        "html-outlook-2016-da",
        "da",
        "Outlook 2016 (Danish, Word HTML)",
        "html",
        "Fra: 1960 game\nSendt: 29. november 2026 09:00\nTil: Kim\nEmne: [1960 #12] Turn 2",
        _outlook2016_html,
    ),
    Style(
        "html-apple-bottom",
        "en",
        "Apple Mail (blockquote type=cite)",
        "html",
        f"On 29 Nov 2026, at 09:00, {GAME} wrote:",
        _apple_html,
    ),
    Style(
        "html-thunderbird-bottom",
        "de",
        "Thunderbird (HTML, German)",
        "html",
        "Am 29.11.26 um 09:00 schrieb 1960 game:",
        _thunderbird_html,
    ),
    Style(
        "html-yahoo",
        "en",
        "Yahoo Mail",
        "html",
        f"On Sunday, November 29, 2026, 09:00:00 AM GMT+1, {GAME} wrote:",
        _yahoo_html,
    ),
    Style(
        "html-outlook-mac",
        "en",
        "Outlook for Mac (OLK_SRC_BODY_SECTION)",
        "html",
        "From: 1960 game <game@example.test>\nDate: Sunday, 29 November 2026 at 09:00\nTo: Kim",
        _outlook_mac_html,
    ),
)
LANGUAGES = sorted({s.language for s in STYLES})


def flow(text: str, delsp: bool, width: int = 60) -> str:
    """Encode *text* as RFC 3676 ``format=flowed`` (soft breaks; quoted lines keep their depth)."""
    out: list[str] = []
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        prefix = ">" * depth + (" " if depth else "")
        content = line[depth:].lstrip(" ") if depth else line
        if content.startswith((" ", "From ", ">")) and not depth:
            content = " " + content  # space-stuffing (§4.4)
        while len(content) > width and " " in content[:width]:
            cut = content.rfind(" ", 0, width)
            piece, content = content[: cut + 1], content[cut + 1 :]
            out.append(prefix + piece + (" " if delsp else ""))
        out.append(prefix + content)
    return "\r\n".join(out)


def reply_mail(
    style: Style, report: Report, commands: list[str], position: str, *, flowed: str = ""
) -> bytes:
    """The whole reply as the client sends it (``flowed``: "", "no" or "yes" for DelSp)."""
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = "kim@players.test"
    msg["To"] = "game+kennedy.12.abcdef@example.test"
    msg["Subject"] = "Re: " + report.subject
    msg["Message-ID"] = f"<reply.{style.name}.{position}@players.test>"
    if style.html is not None:
        msg.set_content(body_html(style, report, commands, position), subtype="html")
        return msg.as_bytes()
    text = body_text(style, report, commands, position)
    if flowed:
        msg.set_content(
            flow(text, flowed == "yes").encode("utf-8"),
            maintype="text",
            subtype="plain",
            cte="base64",
            params={"format": "flowed", "delsp": flowed, "charset": "utf-8"},
        )
    else:
        msg.set_content(text)
    return msg.as_bytes()


def _ctx(g: dict[str, Any], side: str, **extra: Any) -> dict[str, Any]:
    return {
        "game_id": 12,
        "side": side,
        "view": engine.view(g, side),
        "since": max(0, len(g["log"]) - 12),
        "results": [],
        "error": None,
        "opponent": "nixon@example.test",
        "reply_to": f"game+{side}.12.abcdef@example.test",
        "edition": g["edition"],
        "options": list(g["options"]),
        **extra,
    }


def reports() -> list[Report]:
    """Every kind of mail the server sends, rendered from seeded playouts at several stages."""
    rnd = random.Random(1960)
    g = engine.new_game(1960)
    stages: list[dict[str, Any]] = [engine.copy_state(g)]
    for n in range(1, 400):
        if not engine.active_sides(g):
            break
        side = rnd.choice(sorted(engine.active_sides(g)))
        g = engine.apply(g, side, rnd.choice(engine.legal_commands(g, side)))
        if n in (3, 25, 120):
            stages.append(engine.copy_state(g))
    while engine.active_sides(g):
        side = rnd.choice(sorted(engine.active_sides(g)))
        g = engine.apply(g, side, rnd.choice(engine.legal_commands(g, side)))
    out: list[Report] = []
    for i, st in enumerate(stages):
        for side in engine.SIDES:
            mover = side in engine.active_sides(st)
            results = [{"line": "support OH", "ok": True, "message": "ok"}] if mover else []
            out.append(_render("report", f"report{i}_{side}", _ctx(st, side, results=results)))
    first = stages[1]
    side = sorted(engine.active_sides(first))[0]
    out.append(
        _render(
            "rejected",
            "rejected",
            _ctx(
                first,
                side,
                results=[{"line": "suport OH", "ok": False, "message": "unknown command"}],
                error="line 'suport OH': unknown command word 'suport' — did you mean 'support OH'?",
                ignored=["Hi Bob,"],
            ),
        )
    )
    out.append(_render("welcome", "welcome", _ctx(stages[0], "kennedy")))
    out.append(_render("status", "status", _ctx(first, side)))
    out.append(_render("help", "help", _ctx(first, side)))
    out.append(_render("key_problem", "key_problem", _ctx(first, side, error="stale key")))
    out.append(_render("game_over", "game_over", _ctx(g, "kennedy")))
    out.append(_render("card", "card", _ctx(first, side, card=22)))
    out.append(_render("history", "history", _ctx(stages[-1], side)))
    out.append(
        _render(
            "notice",
            "notice",
            {
                **_ctx(first, side),
                "notice": {  # pbem.clocks
                    "subject": "resign: done",
                    "full": True,
                    "lines": [
                        "To resign game #1, reply with this line: resign ABCDEF",
                        "Nothing has changed yet; ignore this mail to play on.",
                    ],
                },
            },
        )
    )
    out.append(
        _render(
            "held",
            "held",
            _ctx(  # the check-auth stage: DMARC/DKIM failed
                first, side, error="dmarc=fail header.from=example.test"
            ),
        )
    )
    assert {r.kind for r in out} == set(KINDS)  # every kind the server can send
    return out


def _render(kind: str, name: str, ctx: dict[str, Any]) -> Report:
    mail = render(kind, ctx)
    return Report(name, kind, mail.subject, mail.text, mail.html)
