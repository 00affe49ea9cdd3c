"""Smoke size of the hostile-mail soak (`python soak/hostile_mail.py`, 10,000 cases).

Generated mails from strangers, forgers and the player, plus the real-client corpus when it
is there: nothing escapes `process_message`, nothing is quarantined, no game changes without
an applied move, no stranger or forger gets mail, the player gets an answer.
"""

from __future__ import annotations

from pathlib import Path

from soak.hostile_mail import run


def test_hostile_mail_smoke(tmp_path: Path) -> None:
    tally = run(cases=60, seed_value=14, folder=tmp_path, corpus=True)
    print("hostile mail smoke: " + tally.report(1.0))
    assert tally.cases >= 60
    assert tally.escaped == [] and tally.violations == []
