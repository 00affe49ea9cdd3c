"""Optional on-arrival DKIM verification (``PBEM_DKIM_VERIFY``, dkimpy; issue 14).

A locally generated RSA key signs the player's mail as their domain; the key is served by a
local ``dnsfunc`` (no network). A mail whose signature verifies is applied; the same mail
with its body changed (a forger reusing a player's signed mail) or with a forged From under
another's signature is held; a mail with no signature of the From domain, or whose key
cannot be fetched, is not held (that is DMARC's job at the receiving server). Off by default.
"""

from __future__ import annotations

import base64
import shutil
import subprocess
from pathlib import Path

import pytest

import engine
from pbem.mail import dkimcheck
from tests.pbem.harness import EMAILS, Harness

dkim = pytest.importorskip("dkim", reason="dkimpy (the `dkim` extra) is not installed")
pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl")

SELECTOR, DOMAIN = b"s1", b"players.test"  # EMAILS are @players.test


@pytest.fixture(scope="module")
def key(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    """(private key PEM, the DNS TXT record of its public key)."""
    folder = tmp_path_factory.mktemp("dkim")
    private = folder / "k.pem"
    subprocess.run(
        ["openssl", "genrsa", "-out", str(private), "2048"], check=True, capture_output=True
    )
    der = subprocess.run(
        ["openssl", "rsa", "-in", str(private), "-pubout", "-outform", "DER"],
        check=True,
        capture_output=True,
    ).stdout
    return private.read_bytes(), b"v=DKIM1; k=rsa; p=" + base64.b64encode(der)


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch, key: tuple[bytes, bytes]) -> dict[bytes, bytes]:
    records = {SELECTOR + b"._domainkey." + DOMAIN + b".": key[1]}

    def lookup(name: bytes, *args: object, **kw: object) -> bytes | None:
        return records.get(name if name.endswith(b".") else name + b".")

    monkeypatch.setattr(dkimcheck, "DNS", lookup)
    return records


def _signed(raw: bytes, private: bytes) -> bytes:
    sig = dkim.sign(
        raw, SELECTOR, DOMAIN, private, include_headers=[b"from", b"to", b"subject", b"message-id"]
    )
    return sig + raw


def _game(tmp_path: Path, verify: bool = True) -> tuple[Harness, str, str]:
    h = Harness(tmp_path)
    h.settings = h.settings.with_(dkim_verify=verify)
    h.new_game(seed=2)
    side = sorted(engine.active_sides(h.state()))[0]
    return h, side, h.legal(side)[0]


def test_a_verifying_signature_is_applied(
    tmp_path: Path, key: tuple[bytes, bytes], dns: dict[bytes, bytes]
) -> None:
    h, side, move = _game(tmp_path)
    raw = _signed(h.reply_bytes(side, move), key[0])
    assert dkimcheck.verdict(raw, "players.test", dnsfunc=dkimcheck.DNS) is None
    h.inbox.deliver(raw)
    assert h.poll().outcomes == {"applied": 1}


def test_a_changed_body_under_the_players_signature_is_held(
    tmp_path: Path, key: tuple[bytes, bytes], dns: dict[bytes, bytes]
) -> None:
    h, side, move = _game(tmp_path)
    raw = _signed(h.reply_bytes(side, move), key[0])
    other = next(c for c in h.legal(side) if c != move)
    forged = raw.replace(move.encode(), other.encode())
    assert forged != raw
    h.inbox.deliver(forged)
    assert h.poll().outcomes == {"held": 1}
    held = h.last_mail(side)
    assert "DKIM" in h.text_of(held) or "dkim" in h.text_of(held)
    assert EMAILS[side] in [r for m in h.sender.sent[-1:] for r in m.recipients]


def test_no_signature_or_no_key_is_not_held(
    tmp_path: Path, key: tuple[bytes, bytes], dns: dict[bytes, bytes]
) -> None:
    h, side, move = _game(tmp_path)
    assert dkimcheck.verdict(h.reply_bytes(side, move), "players.test") is None  # unsigned
    raw = _signed(h.reply_bytes(side, move), key[0])
    dns.clear()  # the key cannot be fetched: a temporary error, not a failure
    h.inbox.deliver(raw)
    assert h.poll().outcomes == {"applied": 1}


def test_off_by_default(tmp_path: Path, key: tuple[bytes, bytes], dns: dict[bytes, bytes]) -> None:
    h, side, move = _game(tmp_path, verify=False)
    assert Harness(tmp_path / "x").settings.dkim_verify is False
    raw = _signed(h.reply_bytes(side, move), key[0])
    h.inbox.deliver(raw.replace(move.encode(), move.encode() + b"\r\n"))  # broken signature
    assert h.poll().outcomes == {"applied": 1}
