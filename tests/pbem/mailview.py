"""Open a sent mail as a mail client does: the HTML part with its ``cid:`` pictures resolved.

Used by the screenshot and size tests: `build_report_mail` renders a real report for a
seeded position and builds its MIME bytes; `open_html` parses those bytes back, saves each
inline image of the ``multipart/related`` part and points the HTML at the saved files.
"""

from __future__ import annotations

import email
import email.policy
import random
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import engine
from pbem.mail import InlineImage, build_message
from pbem.reports.onetap import shortcuts
from pbem.reports.render import Rendered, render


def position(seed: int, moves: int) -> dict[str, Any]:
    rnd = random.Random(seed)
    g = engine.new_game(seed)
    for _ in range(moves):
        if not engine.active_sides(g):
            break
        side = rnd.choice(sorted(engine.active_sides(g)))
        engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
    return g


def context(g: dict[str, Any], side: str, since: int = 0, **extra: Any) -> dict[str, Any]:
    ctx = {
        "game_id": 12,
        "side": side,
        "view": engine.view(g, side),
        "since": since,
        "results": [],
        "error": None,
        "opponent": "rival@example.test",
        "reply_to": f"game+{side[0]}12abc@example.test",
        "shortcuts": shortcuts(g, side),  # as `pbem.outbox.queue.render_context` adds them
        "edition": g["edition"],
        "options": list(g["options"]),
    }
    ctx.update(extra)
    return ctx


def mail_bytes(mail: Rendered, to: str = "player@example.test") -> bytes:
    return build_message(
        sender="1960 \u2014 game #12 <game@example.test>",
        to=to,
        subject=mail.subject,
        text=mail.text,
        html=mail.html,
        message_id="<report.game-12.seq-1@example.test>",
        images=[InlineImage(p.cid, p.png, filename=p.filename) for p in mail.images],
    )


def build_report_mail(kind: str, g: dict[str, Any], side: str, since: int = 0) -> bytes:
    return mail_bytes(render(kind, context(g, side, since)))


def open_html(raw: bytes, folder: Path, name: str = "mail") -> Path:
    """Save the HTML part and its inline images under ``folder``; the HTML's path."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    html_part = msg.get_body(("html",))
    assert html_part is not None, "no HTML part"
    html = html_part.get_content()
    folder.mkdir(parents=True, exist_ok=True)
    for part in msg.walk():
        cid = part.get("Content-ID")
        if cid and part.get_content_maintype() == "image":
            file = folder / f"{name}-{cid.strip('<>').split('@')[0]}.png"
            file.write_bytes(part.get_payload(decode=True))
            html = html.replace(f"cid:{cid.strip('<>')}", file.name)
    path = folder / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    return path
