"""Smoke size of the crash-injection soak (`python soak/crash_injection.py`, 1,000 SIGKILLs).

`pbem poll` is killed at random moments while two scripted players play on the embedded
servers; afterwards every mailed move is applied once and in order, every report delivered,
and duplicates only ever repeat an outbox row's Message-ID.
"""

from __future__ import annotations

from pathlib import Path

from soak.crash_injection import run


def test_crash_injection_smoke(tmp_path: Path) -> None:
    result = run(kills=3, seed=14, folder=tmp_path)
    print("crash injection smoke: " + result.report(0.0))
    assert result.kills == 3 and result.moves >= 1
    assert result.violations == []
