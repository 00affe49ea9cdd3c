"""Smoke size of the crash-injection soak (`python soak/crash_injection.py`, 1,000 SIGKILLs).

`pbem poll` and `pbem serve` are killed at random moments while two scripted players play on
the embedded servers (the soak itself runs against Dovecot + Postfix); afterwards every mailed
move is applied once and in order, every report delivered, and duplicates only ever repeat an
outbox row's Message-ID.
"""

from __future__ import annotations

from pathlib import Path

from soak.crash_injection import _stack, run


def test_crash_injection_smoke(tmp_path: Path) -> None:
    with _stack(embedded=True) as stack:
        result = run(kills=4, seed=14, folder=tmp_path, stack=stack, serve_share=0.5)
    print("crash injection smoke: " + result.report(0.0))
    assert result.kills == 4 and result.serve_kills >= 1 and result.moves >= 1
    assert result.violations == []
