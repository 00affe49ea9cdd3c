"""What `pbem poll`'s sending process (`pbem.outbox_process`) loads at start-up: once per poll,
on the core that composes and sends the reports (benchmark 2's bound)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# what the child imports before its first mail (pbem/outbox_process.py, `_serve_outbox`)
CHILD = (
    "import pbem.outbox_process\n"
    "from pbem.store.db import is_transient, make_engine\n"
    "from pbem.store.models import utcnow\n"
    "from pbem.service import SendStats, release_mine, send_due\n"
)


def test_the_sending_process_loads_no_mail_reading() -> None:
    """It sends and never reads mail: no IMAP client (imapclient, imaplib: ~20 ms of CPU per
    poll), no parser; `pbem.service` still gives ImapMailbox and Fetched on first use."""
    mods = ("imapclient", "imaplib", "pbem.mail.imap", "pbem.mail.parse", "pbem.pipeline")
    probe = (
        f"import sys\n{CHILD}"
        f"print(' '.join(m for m in {mods!r} if m in sys.modules))\n"
        "from pbem import service\n"
        "print(service.ImapMailbox.__module__, service.Fetched.__module__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[-2:] == ["", "pbem.mail.imap pbem.mail.imap"]
