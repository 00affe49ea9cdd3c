"""What a `pbem` command loads at start-up: every cron poll pays for it, mail or not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _loaded_after(code: str, modules: tuple[str, ...]) -> list[str]:
    probe = f"import sys\n{code}\nprint(' '.join(m for m in {modules!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout.split()


def test_beautifulsoup_waits_for_the_first_html_body() -> None:
    # ≈ 0.1 s of every start (a tenth of an idle poll) for mail that mostly has a text part
    assert _loaded_after("import pbem.cli, pbem.service, pbem.pipeline", ("bs4",)) == []
    assert _loaded_after(
        "from pbem.mail import parse_message\n"
        "parse_message(b'From: a@example.org\\r\\nContent-Type: text/html\\r\\n\\r\\n"
        "<p>play 12</p>', 'game@example.org')",
        ("bs4",),
    ) == ["bs4"]
