"""Smoke size of the crash-injection soak (`python soak/crash_injection.py`, 1,000 SIGKILLs;
``--sigterm-share``: some stops SIGTERM).

`pbem poll` and `pbem serve` are killed at random moments while two scripted players play on
the embedded servers (the soak itself runs against Dovecot + Postfix); afterwards every mailed
move is applied once and in order, every report delivered, and duplicates only ever repeat an
outbox row's Message-ID.
"""

from __future__ import annotations

import signal
from pathlib import Path

from soak.crash_injection import _stack, run


def test_crash_injection_smoke(tmp_path: Path) -> None:
    with _stack(embedded=True) as stack:
        result = run(kills=4, seed=14, folder=tmp_path, stack=stack, serve_share=0.5)
    print("crash injection smoke: " + result.report(0.0))
    assert result.kills == 4 and result.serve_kills >= 1 and result.moves >= 1
    assert result.violations == []


def test_crash_injection_smoke_with_sigterm(tmp_path: Path) -> None:
    """Half the stops are SIGTERM: each such worker ends on its own, after the mail in hand
    (exit 0; -15 only for one stopped while Python was still starting, before its handlers),
    and none leaves a mail to be sent twice."""
    with _stack(embedded=True) as stack:
        result = run(
            kills=6, seed=15, folder=tmp_path, stack=stack, serve_share=0.5, sigterm_share=0.5
        )
    print("crash injection smoke (SIGTERM): " + result.report(0.0))
    assert result.kills == 6 and result.term_waits and result.term_late == 0
    assert set(result.term_codes) <= {0, -signal.SIGTERM}
    assert not [d for d in result.sources if d.cause and d.cause.signal == "SIGTERM"]
    assert result.violations == []
