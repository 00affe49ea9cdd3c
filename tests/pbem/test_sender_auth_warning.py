"""Sender authentication is visible (issue 29): with neither PBEM_AUTHSERV_ID nor
PBEM_DKIM_VERIFY on, `pbem check` and the start of `poll` and `serve` warn, once, in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import cli
from pbem.cli import worker as cli_worker
from pbem.mail import MemoryMailbox
from pbem.worker import intake
from pbem.worker.checks import UNAUTHENTICATED
from tests.pbem.mailtools import free_port


def _run(tmp_path: Path, *args: str, **env: str) -> Result:
    base = {
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/pbem.db",
        "PBEM_ADDRESS": "game@pbem.test",
        "PBEM_SECRET": "warning-test-secret",
        "PBEM_IMAP_HOST": "127.0.0.1",
        "PBEM_IMAP_PORT": str(free_port()),  # nothing listens: check says FAIL, quickly
        "PBEM_SMTP_HOST": "127.0.0.1",
        "PBEM_SMTP_PORT": str(free_port()),
        "PBEM_IMAP_SSL": "false",
    }
    runner = CliRunner()
    if args[0] != "check":  # only `pbem init` creates the database
        assert runner.invoke(cli, ["init"], env={**base, **env}).exit_code == 0
    return runner.invoke(cli, list(args), env={**base, **env})


def _warned(text: str) -> int:
    return sum(UNAUTHENTICATED in line for line in text.splitlines())


@pytest.fixture(autouse=True)
def _memory_inbox(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(intake, "open_mailbox", lambda _settings: MemoryMailbox())
    monkeypatch.setattr(cli_worker, "run_serve", lambda *a, **k: 0)  # serve starts and stops


@pytest.mark.parametrize("command", [["check"], ["poll", "--no-send"], ["serve"]])
def test_without_sender_authentication_each_command_warns_once(
    tmp_path: Path, command: list[str]
) -> None:
    out = _run(tmp_path, *command)
    assert _warned(out.output) == 1, out.output
    if command[0] == "check":
        assert f"WARN {UNAUTHENTICATED}" in out.stdout
    else:
        assert f"warning: {UNAUTHENTICATED}" in out.stderr
        assert out.exit_code == 0, out.output


@pytest.mark.parametrize(
    "setting", [{"PBEM_AUTHSERV_ID": "mx.pbem.test"}, {"PBEM_DKIM_VERIFY": "true"}]
)
@pytest.mark.parametrize("command", [["check"], ["poll", "--no-send"], ["serve"]])
def test_with_either_check_on_nothing_is_said(
    tmp_path: Path, command: list[str], setting: dict[str, str]
) -> None:
    pytest.importorskip("dkim")  # PBEM_DKIM_VERIFY needs the dkim extra to run at all
    out = _run(tmp_path, *command, **setting)
    assert _warned(out.output) == 0, out.output
    if command[0] != "check":
        assert out.stderr == "", out.stderr
