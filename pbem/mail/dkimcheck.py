"""Optional on-arrival DKIM verification (RFC 6376) with dkimpy, for sites whose receiving
server writes no ``Authentication-Results`` of its own.

Off by default (``PBEM_DKIM_VERIFY``); needs the ``dkim`` extra (``pip install
'pbem1960[dkim]'``, i.e. dkimpy). `verdict` checks every DKIM signature of the mail whose
``d=`` domain is aligned with the From domain (relaxed, as DMARC does) and says why to hold
the mail: a signature of the From domain that does not verify (the body or a signed header
was changed, or a player's old signature was copied onto a forged mail) with no verifying
one beside it. A mail without such a signature, or whose key cannot be fetched (DNS down:
a temporary error), is not held: that is the receiving server's DMARC job
(``PBEM_AUTHSERV_ID``). DNS is asked through ``dnsfunc`` (dkimpy's own by default; the tests
give a local one, so they need no network).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

__all__ = ["available", "verdict"]

log = logging.getLogger("pbem.dkim")

MAX_SIGNATURES = 5
_SIG_HEADER = re.compile(rb"^dkim-signature:", re.I | re.M)
_TAG_D = re.compile(rb"\bd\s*=\s*([^;\s]+)", re.I)

DnsFunc = Callable[..., bytes | None]
DNS: DnsFunc | None = None  # None: dkimpy's resolver; tests put a local one here


def available() -> bool:
    """Is dkimpy installed?"""
    try:
        import dkim  # noqa: F401
    except ImportError:
        return False
    return True


def _aligned(domain: str, from_domain: str) -> bool:
    return bool(domain) and (
        domain == from_domain
        or from_domain.endswith("." + domain)
        or domain.endswith("." + from_domain)
    )


def verdict(raw: bytes, from_domain: str, *, dnsfunc: DnsFunc | None = None) -> str | None:
    """Why to hold the mail (``dkim=fail header.d=...``), or None."""
    import dkim

    from_domain = from_domain.lower()
    head = re.split(rb"\r?\n\r?\n", raw, maxsplit=1)[0]
    if not _SIG_HEADER.search(head):
        return None
    checker = dkim.DKIM(raw, minkey=1024)
    failed: list[str] = []
    for idx in range(min(len(_signatures(checker)), MAX_SIGNATURES)):
        domain = _domain(checker, idx)
        if not _aligned(domain, from_domain):
            continue
        fetched: list[bool] = []
        try:
            ok = checker.verify(
                idx=idx, dnsfunc=_recording(dnsfunc or dkim.dnsplug.get_txt, fetched)
            )
        except dkim.DKIMException as exc:
            log.info("DKIM signature %d (d=%s) unreadable: %s", idx, domain, exc)
            ok = False
        if ok:
            return None  # one verifying signature of the From domain is enough
        if fetched and all(fetched):  # the key was there and the signature does not match it
            failed.append(f"dkim=fail header.d={domain}")
        else:
            log.info("DKIM key for d=%s not found (temporary or missing): not held", domain)
    return failed[0] if failed else None


def _recording(dnsfunc: DnsFunc, fetched: list[bool]) -> DnsFunc:
    """``dnsfunc`` that notes whether each lookup found a record (no key: not a failure)."""

    def lookup(name: bytes, *args: object, **kw: object) -> bytes | None:
        answer = dnsfunc(name, *args, **kw)
        fetched.append(bool(answer))
        return answer

    return lookup


def _signatures(checker: object) -> list[bytes]:
    headers = getattr(checker, "headers", [])
    return [v for k, v in headers if k.lower() == b"dkim-signature"]


def _domain(checker: object, idx: int) -> str:
    value = _signatures(checker)[idx]
    found = _TAG_D.search(value)
    return found.group(1).decode("ascii", "replace").lower() if found else ""
