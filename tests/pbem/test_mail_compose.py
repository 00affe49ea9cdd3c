"""pbem.mail.compose: deterministic Message-IDs and well-formed, loop-safe outbound mail."""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime

import pytest

from pbem.mail import InlineImage, build_message, parse_message
from pbem.mail.parse import OWN_MESSAGE


def build(**overrides: object) -> bytes:
    args: dict[str, object] = {
        "sender": "1960 Game <game@example.test>",
        "to": "Jürgen Müller <juergen@example.org>",
        "subject": "[1960 #12] Turn 3 — your move",
        "text": "Hallo Jürgen\ncampaign 17: NY 2\n",
        "html": "<p>Hallo J&uuml;rgen</p>",
        "message_id": "<report.game-12.seq-5.kennedy@example.test>",
        "in_reply_to": "<CAFx1@mail.example.org>",
        "references": ["<welcome.game-12.seq-1.kennedy@example.test>"],
        "reply_to": "game+k7qx2f@example.test",
        "headers": {"List-Id": "1960 game 12 <game-12.example.test>"},
        "date": datetime(2026, 11, 29, 9, 0, tzinfo=UTC),
    }
    args.update(overrides)
    return build_message(**args)  # type: ignore[arg-type]


def test_headers_and_structure() -> None:
    raw = build()
    assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    assert all(len(line) <= 998 for line in raw.split(b"\r\n"))
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg.get_content_type() == "multipart/alternative"
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["X-Auto-Response-Suppress"] == "All"
    assert msg["X-1960-PBEM"] == "example.test"
    assert msg["Message-ID"] == "<report.game-12.seq-5.kennedy@example.test>"
    assert msg["In-Reply-To"] == "<CAFx1@mail.example.org>"
    assert msg["References"].split() == [
        "<welcome.game-12.seq-1.kennedy@example.test>",
        "<CAFx1@mail.example.org>",
    ]
    assert msg["Reply-To"] == "game+k7qx2f@example.test"
    assert msg["List-Id"] == "1960 game 12 <game-12.example.test>"
    assert msg["Subject"] == "[1960 #12] Turn 3 — your move"
    assert msg["To"].addresses[0].display_name == "Jürgen Müller"
    assert msg["Date"].datetime == datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
    plain = msg.get_body(("plain",))
    html = msg.get_body(("html",))
    assert plain is not None
    assert plain.get_content().replace("\r\n", "\n") == "Hallo Jürgen\ncampaign 17: NY 2\n"
    assert html is not None and "J&uuml;rgen" in html.get_content()
    assert raw.isascii()  # quoted-printable bodies and RFC 2047 headers


def test_text_only_message() -> None:
    msg = email.message_from_bytes(build(html=None), policy=email.policy.default)
    assert msg.get_content_type() == "text/plain"


def test_our_mail_round_trips_through_the_parser_as_our_own() -> None:
    parsed = parse_message(build(), "game@example.test")
    assert parsed.auto_reason == OWN_MESSAGE
    assert parsed.message_id == "<report.game-12.seq-5.kennedy@example.test>"
    assert parsed.text == "Hallo Jürgen\ncampaign 17: NY 2\n"


@pytest.mark.parametrize(
    "overrides",
    [
        {"subject": "hi\r\nBcc: victim@example.org"},
        {"to": "a@example.org\nBcc: victim@example.org"},
        {"headers": {"X-Note": "a\r\nBcc: victim@example.org"}},
        {"headers": {"Bcc": "victim@example.org"}},
        {"to": "not an address"},
    ],
)
def test_header_injection_and_bad_addresses_are_refused(overrides: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        build(**overrides)


def test_inline_images_go_in_a_related_part_with_their_content_id() -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
    raw = build(
        html='<p>Board</p><img src="cid:board-abc@1960.pbem" alt="map">',
        images=[InlineImage("board-abc@1960.pbem", png, filename="board.png")],
    )
    assert all(len(line) <= 78 for line in raw.split(b"\r\n"))
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg.get_content_type() == "multipart/alternative"
    plain, related = msg.get_payload()  # type: ignore[misc]
    assert plain.get_content_type() == "text/plain"
    assert related.get_content_type() == "multipart/related"
    assert related.get_param("type") == "text/html"
    html, image = related.get_payload()
    assert (
        html.get_content_type() == "text/html"
        and 'src="cid:board-abc@1960.pbem"' in html.get_content()
    )
    assert image.get_content_type() == "image/png"
    assert image["Content-ID"] == "<board-abc@1960.pbem>"
    assert image.get_content_disposition() == "inline" and image.get_filename() == "board.png"
    assert image.get_payload(decode=True) == png
    assert msg.get_body(("html",)).get_content() == html.get_content()  # clients find the HTML


def test_without_images_the_html_stays_a_plain_alternative() -> None:
    msg = email.message_from_bytes(build(images=[]), policy=email.policy.default)
    assert [p.get_content_type() for p in msg.get_payload()] == ["text/plain", "text/html"]  # type: ignore[union-attr]


def test_long_message_ids_are_never_folded_inside_an_id() -> None:
    # A game_over report's signed Message-ID is 71 characters on example.test (longer on a long
    # domain); the email policy used to put it on a continuation line of its own, which the
    # crash-injection soak read back as " <…>" (a mail "not its outbox row").
    long_id = (
        "<1960.g1k211-avyuls7pcztt4m5p.v256.game_over.hlxsk23s@mail.a-long-club-domain.example>"
    )
    refs = [f"<1960.g1k{n}-aaaaaaaaaaaaaaaa.v{n}.report.bbbbbbbb@example.test>" for n in range(6)]
    raw = build(message_id=long_id, in_reply_to=long_id, references=refs)
    head = raw.split(b"\r\n\r\n", 1)[0].decode()
    assert f"\r\nMessage-ID: {long_id}\r\n" in head
    assert f"\r\nIn-Reply-To: {long_id}\r\n" in head
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert str(msg["Message-ID"]) == long_id and str(msg["In-Reply-To"]) == long_id
    assert str(msg["References"]).split() == [*refs, long_id]  # folded between ids only
    assert all(len(line) <= 998 for line in head.split("\r\n"))
    assert [h for h in head.split("\r\n") if h.startswith(" ")] != []  # References did fold
