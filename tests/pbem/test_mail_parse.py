"""pbem.mail.parse: fields, RFC 3834/3464 classification, charsets, and hostile input (C7)."""

from __future__ import annotations

import random
import time

import pytest

from pbem.mail import MalformedMessage, ParsedMessage, build_message, parse_message
from pbem.mail import parse as parse_mod
from tests.pbem.mailtools import CORPUS, DATA, player_mail

OWN = "game@example.test"


def load(name: str) -> ParsedMessage:
    return parse_message((DATA / name).read_bytes(), OWN)


def test_gmail_reply_fields() -> None:
    p = load("reply_gmail_quoted.eml")
    assert p.from_addr == "kim.player@example.org"  # bare and lower-cased
    assert p.from_display == "Kim Player"
    assert p.to_addrs == ["game+k7qx2fabc@example.test"]
    assert p.message_id == "<CAFx1@mail.example.org>"
    assert p.in_reply_to == "<report.game-12.seq-5.kennedy@example.test>"
    assert p.references == [
        "<welcome.game-12.seq-1.kennedy@example.test>",
        "<report.game-12.seq-5.kennedy@example.test>",
    ]
    assert p.auto_reason is None
    assert p.text.startswith("Hi there,")  # text/plain preferred over the HTML part
    assert "<div" not in p.text
    assert p.size == len((DATA / "reply_gmail_quoted.eml").read_bytes())


def test_html_only_mail_is_converted_with_quotes_marked() -> None:
    p = load("reply_outlook_html_only.eml")
    assert [line for line in p.text.splitlines() if line][:2] == ["event 22", "pass"]
    # the Outlook history after #divRplyFwdMsg is rendered as quoted lines
    assert "> campaign 17: NY 2, PA 1" in p.text


def test_latin1_rfc2047_and_format_flowed() -> None:
    p = load("reply_latin1_flowed.eml")
    assert p.from_display == "Jürgen"
    assert p.subject == "Re: Zug 3 ä"
    assert "“Hallo”" in p.text  # windows-1252 bytes in an iso-8859-1 label
    assert "issue civil rights" in p.text  # soft line break joined (RFC 3676)


@pytest.mark.parametrize(
    ("name", "reason"),
    [("bounce_dsn.eml", parse_mod.BOUNCE), ("autoreply_vacation.eml", parse_mod.AUTO_SUBMITTED)],
)
def test_automatic_mail_fixtures(name: str, reason: str) -> None:
    assert load(name).auto_reason == reason


def _with_headers(*headers: str) -> bytes:
    base = player_mail("kim@example.org", "game+abc@example.test", "pass\n")
    return "\r\n".join(headers).encode() + b"\r\n" + base


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        (("Auto-Submitted: auto-generated",), "auto-submitted"),
        (("Auto-Submitted: no",), None),
        (("Precedence: bulk",), "precedence bulk"),
        (("Precedence: list",), "precedence list"),
        (("X-Autoreply: yes",), "auto-reply header (X-Autoreply)"),
        (("List-Id: <games.example.org>",), "mailing list"),
        (("Return-Path: <>",), parse_mod.NULL_SENDER),
        (("X-1960-PBEM: example.test",), parse_mod.OWN_MESSAGE),
    ],
)
def test_rfc3834_classification(headers: tuple[str, ...], reason: str | None) -> None:
    assert parse_message(_with_headers(*headers), OWN).auto_reason == reason


@pytest.mark.parametrize("sender", ["game@example.test", "GAME+xyz@Example.Test"])
def test_mail_from_our_own_address_is_a_loop(sender: str) -> None:
    raw = player_mail(sender, "game+abc@example.test", "pass\n")
    assert parse_message(raw, OWN).auto_reason == parse_mod.OWN_MESSAGE


def test_system_senders_are_automatic() -> None:
    raw = player_mail("noreply@example.org", "game+abc@example.test", "pass\n")
    assert parse_message(raw, OWN).auto_reason == "system sender (noreply@example.org)"


def test_our_composed_mail_is_recognised_as_ours() -> None:
    raw = build_message(
        sender="game@example.test",
        to="kim@example.org",
        subject="s",
        text="t",
        html=None,
        message_id="<x.1@example.test>",
    )
    assert parse_message(raw, "other@elsewhere.test").auto_reason == parse_mod.OWN_MESSAGE


def test_trace_headers_contribute_recipients() -> None:
    raw = _with_headers(
        "Delivered-To: game+tok1@example.test",
        "Received: from a by b (Postfix) for <game+tok2@example.test>; now",
    )
    addrs = parse_message(raw, OWN).to_addrs
    assert {"game+abc@example.test", "game+tok1@example.test", "game+tok2@example.test"} <= set(
        addrs
    )


def test_missing_from_gives_empty_address() -> None:
    raw = b"To: game@example.test\r\nSubject: x\r\n\r\npass\r\n"
    p = parse_message(raw, OWN)
    assert (p.from_addr, p.message_id, p.text) == ("", None, "pass\n")


@pytest.mark.parametrize("raw", [b"", b"\r\n\r\n", b"no header here at all"])
def test_unreadable_input_raises_malformed(raw: bytes) -> None:
    with pytest.raises(MalformedMessage):
        parse_message(raw, OWN)


def test_oversize_message_is_refused_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_mod, "MAX_SIZE", 1000)
    with pytest.raises(MalformedMessage, match="too large"):
        parse_message(player_mail("a@b.org", OWN, "x" * 2000), OWN)


def test_huge_header_block_is_refused() -> None:
    raw = b"To: " + b", ".join(b"u%d@example.org" % i for i in range(8000)) + b"\r\n\r\nx"
    started = time.monotonic()
    with pytest.raises(MalformedMessage, match="header block"):
        parse_message(raw, OWN)
    assert time.monotonic() - started < 1.0


def test_many_recipients_are_capped() -> None:
    rcpts = ", ".join(f"u{i}@example.org" for i in range(300))
    p = parse_message(_with_headers(f"Cc: {rcpts}"), OWN)
    assert len(p.to_addrs) == parse_mod.MAX_RECIPIENTS


def _nested(depth: int) -> bytes:
    head = b"From: a@example.org\r\nTo: game@example.test\r\nMIME-Version: 1.0\r\n"
    body = b"Content-Type: text/plain\r\n\r\npass\r\n"
    for level in range(depth):
        b = b"b%d" % level
        body = (
            b'Content-Type: multipart/mixed; boundary="'
            + b
            + b'"\r\n\r\n--'
            + b
            + b"\r\n"
            + body
            + b"\r\n--"
            + b
            + b"--\r\n"
        )
    return head + body


@pytest.mark.parametrize("depth", [50, 1000])
def test_mime_bomb_nesting_never_crashes(depth: int) -> None:
    started = time.monotonic()
    try:
        p = parse_message(_nested(depth), OWN)
    except MalformedMessage:
        pass  # the stdlib recursion limit: reported as malformed
    else:
        assert p.text == ""  # the text is deeper than MAX_DEPTH: not read
        assert any("nesting" in problem for problem in p.problems)
    assert time.monotonic() - started < 1


def test_many_parts_are_capped() -> None:
    parts = b"".join(b"--b\r\nContent-Type: text/plain\r\n\r\npart\r\n" for _ in range(500))
    raw = (
        b"From: a@example.org\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
        + parts
        + b"--b--\r\n"
    )
    p = parse_message(raw, OWN)
    assert p.text == "part" and any("MIME parts" in x for x in p.problems)


def test_large_text_part_is_truncated() -> None:
    p = parse_message(player_mail("a@example.org", OWN, "pass\n" + "y" * 400_000), OWN)
    assert len(p.text) <= parse_mod.MAX_TEXT_BYTES
    assert p.problems


@pytest.mark.parametrize("charset", ["x-unknown-charset", "utf-7\x00", "utf-16"])
def test_bad_or_lying_charsets_decode_with_replacement(charset: str) -> None:
    raw = (
        b'From: a@example.org\r\nContent-Type: text/plain; charset="'
        + charset.encode()
        + b'"\r\n\r\npass \xff\xfe\xc3\r\n'
    )
    p = parse_message(raw, OWN)
    assert isinstance(p.text, str)


def test_zero_width_and_nbsp_are_normalised() -> None:
    p = parse_message(player_mail("a@example.org", OWN, "pa\u200bss\u00a0now\n"), OWN)
    assert p.text == "pass now\n"


def test_fuzz_random_and_mutated_bytes_never_crash() -> None:
    rng = random.Random(1960)
    seed = (DATA / "reply_gmail_quoted.eml").read_bytes()
    outcomes = {"parsed": 0, "malformed": 0}
    for i in range(400):
        if i % 2:
            raw = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 3000)))
        else:
            data = bytearray(seed)
            for _ in range(rng.randrange(1, 40)):
                data[rng.randrange(len(data))] = rng.getrandbits(8)
            raw = bytes(data)
        try:
            parsed = parse_message(raw, OWN)
        except MalformedMessage:
            outcomes["malformed"] += 1
        else:
            assert isinstance(parsed.text, str) and isinstance(parsed.to_addrs, list)
            outcomes["parsed"] += 1
    assert outcomes["parsed"] > 0 and outcomes["malformed"] > 0


STANDARD = CORPUS / "talon" / "standard_replies"


@pytest.mark.skipif(
    not STANDARD.is_dir(),
    reason=f"mail corpus not present at {CORPUS} (README, Development: where it comes from)",
)
@pytest.mark.parametrize(
    "name", ["android", "apple_mail", "apple_mail_2", "gmail", "iphone", "outlook"]
)
def test_corpus_replies_parse(name: str) -> None:
    p = parse_message((STANDARD / f"{name}.eml").read_bytes(), OWN)
    assert p.auto_reason is None
    assert p.from_addr and p.text.lstrip().startswith("Hello")
