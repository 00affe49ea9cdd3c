"""Tapping a report's one-tap answers, as a phone's mail program does (test helpers).

`links` reads the ``mailto:`` links of a report's HTML part; `parse_mailto` reads one URL by
RFC 6068 (percent-decoding only: a ``+`` stays a ``+``); `client_mail` writes the mail a
mail program sends after the tap: a new mail to the link's address with its subject and
body, in one of the `CLIENTS` shapes (plain text with a phone signature, Gmail's
text-and-HTML pair, an Outlook-style HTML-only mail, a reply that quotes the report below
the command), optionally threaded with In-Reply-To (RFC 6068 lets a link carry it; most
programs do not, so the reply key in the address must do).
"""

from __future__ import annotations

import email.policy
import html as htmllib
import itertools
from dataclasses import dataclass
from email.message import EmailMessage, Message
from html.parser import HTMLParser
from urllib.parse import unquote

CLIENTS = ("iphone", "gmail", "outlook-html", "quoted")
_ids = itertools.count(1)


@dataclass(frozen=True)
class Link:
    label: str
    href: str
    to: str
    subject: str
    body: str


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href") or ""
        if tag == "a" and href.startswith("mailto:"):
            self._href, self._text = href, []

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.found.append((self._href, "".join(self._text).strip()))
            self._href = None


def parse_mailto(href: str) -> tuple[str, dict[str, str]]:
    """(address, header fields) of an RFC 6068 URL; field names lower case."""
    assert href.startswith("mailto:"), href
    to, _, query = href[len("mailto:") :].partition("?")
    fields = {}
    for part in query.split("&") if query else []:
        name, _, value = part.partition("=")
        fields[unquote(name).lower()] = unquote(value, errors="strict")
    return unquote(to), fields


def html_of(msg: Message) -> str:
    assert isinstance(msg, EmailMessage)
    part = msg.get_body(("html",))
    assert part is not None, "no HTML part"
    return str(part.get_content())


def links(msg: Message) -> list[Link]:
    """The one-tap answers of a report, in the order shown."""
    parser = _Anchors()
    parser.feed(html_of(msg))
    out = []
    for href, label in parser.found:
        to, fields = parse_mailto(href)
        out.append(Link(label, href, to, fields.get("subject", ""), fields.get("body", "")))
    return out


def client_mail(
    link: Link,
    frm: str,
    client: str = "iphone",
    *,
    report: Message | None = None,
    in_reply_to: str | None = None,
) -> bytes:
    """The mail a program sends after a tap on ``link`` and Send (see the module docstring)."""
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = frm
    msg["To"] = link.to
    msg["Subject"] = link.subject
    msg["Message-ID"] = f"<tap.{next(_ids)}@players.test>"
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    body = link.body.replace("\r\n", "\n")
    own_html = "".join(f"<div>{htmllib.escape(line)}</div>" for line in body.splitlines())
    if client == "iphone":
        msg.set_content(f"{body}\n\nSent from my iPhone\n")
    elif client == "gmail":
        msg.set_content(f"{body}\n")
        msg.add_alternative(f'<div dir="ltr">{own_html}</div>\n', subtype="html")
    elif client == "outlook-html":
        msg.set_content(
            f'<html><body><div dir="ltr">{own_html}<div><br></div>'
            f"<div>Get Outlook for Android</div></div></body></html>",
            subtype="html",
        )
    elif client == "quoted":
        assert report is not None, "the quoted client quotes the report"
        text_part = report.get_body(("plain",)) if isinstance(report, EmailMessage) else None
        quoted = str(text_part.get_content()) if text_part is not None else ""
        lines = "\n".join(f"> {line}".rstrip() for line in quoted.splitlines())
        msg.set_content(f"{body}\n\nOn Sun, 29 Nov 2026, 1960 game <{link.to}> wrote:\n{lines}\n")
    else:
        raise ValueError(f"unknown client {client!r}")
    return msg.as_bytes()
