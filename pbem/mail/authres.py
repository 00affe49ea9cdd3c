"""Read the receiving server's verdict from ``Authentication-Results`` headers (RFC 8601).

Only headers whose authserv-id is our own receiving server's (``PBEM_AUTHSERV_ID``) are read:
RFC 8601 §5 requires that server to delete any header carrying its id that arrives from
outside, so those are the only ones a sender cannot forge. `verdict` says why a mail from
``from_domain`` must be held: DMARC ``fail``, or DKIM ``fail`` for a signature of the From
domain with no passing signature of that domain beside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["AuthResult", "parse", "verdict"]

_COMMENT = re.compile(r"\([^()]*\)")
_METHOD = re.compile(r"^\s*([a-z0-9_-]+)\s*=\s*([a-z]+)", re.I)
_PROP = re.compile(r"\b([a-z]+\.[a-z0-9_-]+)\s*=\s*(\"[^\"]*\"|[^\s;]+)", re.I)


@dataclass(frozen=True)
class AuthResult:
    """One ``method=result`` of a header, with its ``ptype.property`` values."""

    method: str
    result: str
    props: dict[str, str]


def parse(value: str) -> tuple[str, list[AuthResult]]:
    """``(authserv-id, results)`` of one header value."""
    text = value
    for _ in range(5):  # comments may nest; five levels are plenty
        text = _COMMENT.sub(" ", text)
    head, *parts = text.split(";")
    authserv = (head.split() or [""])[0].lower()
    results = []
    for part in parts[:50]:
        m = _METHOD.match(part)
        if m is None:
            continue
        props = {k.lower(): v.strip('"').lower() for k, v in _PROP.findall(part[m.end() :])}
        results.append(AuthResult(m.group(1).lower(), m.group(2).lower(), props))
    return authserv, results


def _domain_of(result: AuthResult) -> str:
    d = result.props.get("header.d") or result.props.get("header.i", "").rpartition("@")[2]
    return d.lstrip("@")


def _aligned(domain: str, from_domain: str) -> bool:
    """Relaxed alignment (RFC 7489 §3.1): same domain, or one inside the other."""
    return bool(domain) and (
        domain == from_domain
        or from_domain.endswith("." + domain)
        or domain.endswith("." + from_domain)
    )


def verdict(headers: list[str], authserv_id: str, from_domain: str) -> str | None:
    """Why to hold the mail (e.g. ``dmarc=fail header.from=x.org``), or None to accept it."""
    ours = authserv_id.strip().lower()
    if not ours:
        return None
    from_domain = from_domain.lower()
    dkim_fail: list[str] = []
    dkim_pass = False
    for value in headers:
        authserv, results = parse(value)
        if authserv != ours:
            continue
        for r in results:
            if r.method == "dmarc" and r.result == "fail":
                return f"dmarc=fail header.from={r.props.get('header.from', from_domain)}"
            if r.method == "dkim" and _aligned(_domain_of(r), from_domain):
                if r.result == "pass":
                    dkim_pass = True
                elif r.result in ("fail", "permerror"):
                    dkim_fail.append(f"dkim={r.result} header.d={_domain_of(r)}")
    if dkim_fail and not dkim_pass:
        return dkim_fail[0]
    return None
