"""The deployment files: every setting documented, units and crontab well-formed.

`deploy/env.example` must name every ``PBEM_*`` variable the server reads
(`pbem.config` settings and ``PBEM_CONFIG``, plus the envvars of CLI options),
and only those; the systemd units, the crontab line and the Containerfile must
say what docs/OPERATING.md promises.
"""

from __future__ import annotations

import configparser
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NAME = re.compile(r"\bPBEM_[A-Z][A-Z0-9_]*[A-Z0-9]\b")
NOT_SETTINGS = {"PBEM_VERBS"}  # a constant in pbem/mail/extract.py, not an environment variable
REQUIRED = {
    "PBEM_DATABASE_URL",
    "PBEM_ADDRESS",
    "PBEM_IMAP_HOST",
    "PBEM_IMAP_PORT",
    "PBEM_IMAP_USER",
    "PBEM_IMAP_PASSWORD",
    "PBEM_IMAP_SSL",
    "PBEM_SMTP_HOST",
    "PBEM_SMTP_PORT",
    "PBEM_SMTP_USER",
    "PBEM_SMTP_PASSWORD",
    "PBEM_SMTP_TLS",
    "PBEM_SECRET",
    "PBEM_CONFIG",
}


def names_in(text: str) -> set[str]:
    return set(NAME.findall(text))


def read_by_code() -> set[str]:
    """Every PBEM_* name the server's code mentions, plus the settings' environment names."""
    found: set[str] = set()
    for path in (ROOT / "pbem").rglob("*.py"):
        found |= names_in(path.read_text(encoding="utf-8"))
    try:
        from pbem import config
    except ImportError:  # pragma: no cover - before pbem/config.py exists
        return found - NOT_SETTINGS
    return (found | set(config.ENV_NAMES.values())) - NOT_SETTINGS


def test_env_example_names_every_variable_the_code_reads() -> None:
    documented = names_in((DEPLOY / "env.example").read_text(encoding="utf-8"))
    missing = (read_by_code() | REQUIRED) - documented
    assert not missing, f"deploy/env.example does not document {sorted(missing)}"


def test_env_example_names_nothing_the_code_does_not_read() -> None:
    documented = names_in((DEPLOY / "env.example").read_text(encoding="utf-8"))
    assert documented - read_by_code() - REQUIRED == set()


def test_env_example_settings_are_plain_assignments() -> None:
    """``NAME=value`` lines that sh, systemd EnvironmentFile= and --env-file all read alike."""
    lines = [
        ln
        for ln in (DEPLOY / "env.example").read_text(encoding="utf-8").splitlines()
        if ln.strip() and not ln.startswith("#")
    ]
    assert lines
    for line in lines:
        assert re.fullmatch(r"PBEM_[A-Z_]+=[^\s'\"]*", line), line
    assigned = {ln.split("=", 1)[0] for ln in lines}
    assert REQUIRED - {"PBEM_CONFIG"} <= assigned


def test_env_example_values_are_accepted_by_the_config_loader() -> None:
    config = pytest.importorskip("pbem.config")
    env = dict(
        ln.split("=", 1)
        for ln in (DEPLOY / "env.example").read_text(encoding="utf-8").splitlines()
        if ln.startswith("PBEM_")
    )
    settings = config.load_settings(env=env)
    assert settings.address == env["PBEM_ADDRESS"]
    assert settings.imap_ssl is True and settings.smtp_port == 587


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((DEPLOY / "systemd" / name).read_text(encoding="utf-8"))
    return parser


def test_poll_service_is_a_oneshot_poll_and_the_timer_starts_it() -> None:
    svc = unit("pbem-poll.service")["Service"]
    assert svc["Type"] == "oneshot"
    assert svc["ExecStart"].split()[-1] == "poll" and svc["ExecStart"].split()[0].endswith("/pbem")
    assert "75" in svc["SuccessExitStatus"].split()  # the lock is held: not a failure
    assert svc["User"] != "root" and svc["EnvironmentFile"] == "/etc/pbem/env"
    timer = unit("pbem-poll.timer")
    assert timer["Timer"]["Unit"] == "pbem-poll.service"
    assert "OnUnitActiveSec" in timer["Timer"]
    assert timer["Install"]["WantedBy"] == "timers.target"


def test_serve_service_restarts_on_failure() -> None:
    u = unit("pbem-serve.service")
    svc = u["Service"]
    assert svc["Type"] == "simple" and svc["Restart"] == "on-failure"
    assert svc["ExecStart"].split()[1:] == ["serve"]
    assert svc["ExecStartPre"].split()[1:] == ["init"]
    assert svc["KillSignal"] == "SIGTERM" and svc["User"] != "root"
    assert u["Install"]["WantedBy"] == "multi-user.target"


def test_lmtp_service_runs_serve_with_the_listener_postfix_relays_to() -> None:
    u = unit("pbem-lmtp.service")
    svc = u["Service"]
    assert svc["Type"] == "simple" and svc["Restart"] == "on-failure"
    assert svc["ExecStart"].split()[1:] == ["serve"] and svc["User"] != "root"
    listener = dict(pair.split("=", 1) for pair in svc["Environment"].split())
    assert listener == {"PBEM_LMTP_HOST": "127.0.0.1", "PBEM_LMTP_PORT": "8024"}
    transport = (DEPLOY / "postfix" / "pbem_transport").read_text(encoding="utf-8")
    routes = [ln.split() for ln in transport.splitlines() if ln.strip() and ln[0] != "#"]
    assert routes == [["game@example.org", "lmtp:inet:127.0.0.1:8024"]]
    main_cf = (DEPLOY / "postfix" / "main.cf").read_text(encoding="utf-8")
    assert "transport_maps = hash:/etc/postfix/pbem_transport" in main_cf
    assert "hash:/etc/postfix/pbem_transport" in main_cf.split("local_recipient_maps =")[1]
    assert "recipient_delimiter = +" in main_cf


def _cron_jobs() -> list[list[str]]:
    return [
        ln.split(None, 5)
        for ln in (DEPLOY / "cron" / "pbem.crontab").read_text(encoding="utf-8").splitlines()
        if ln.strip() and not ln.startswith("#") and "=" not in ln.split()[0]
    ]


def test_crontab_line_runs_pbem_poll() -> None:
    polls = [job for job in _cron_jobs() if job[5].endswith("pbem poll")]
    assert len(polls) == 1
    fields = polls[0]
    assert len(fields) == 6 and fields[0] == "*/5"
    assert "/etc/pbem/env" in fields[5]


def test_crontab_backs_up_daily_one_file_per_weekday() -> None:
    (job,) = [job for job in _cron_jobs() if "pbem backup" in job[5]]
    minute, hour, *days = job[:5]
    assert minute.isdigit() and hour.isdigit() and days == ["*", "*", "*"]
    assert "/etc/pbem/env" in job[5]
    assert re.search(r"pbem backup \S+-\$\(date \+\\%a\)\.db$", job[5]), job[5]  # % escaped


def test_backup_service_and_its_daily_timer() -> None:
    svc = unit("pbem-backup.service")["Service"]
    assert svc["Type"] == "oneshot" and svc["User"] != "root"
    assert svc["EnvironmentFile"] == "/etc/pbem/env"
    assert "pbem backup /var/lib/pbem/backups/" in svc["ExecStart"]
    assert "%%a" in svc["ExecStart"]  # systemd expands single % signs itself
    assert svc["ReadWritePaths"] == "/var/lib/pbem"
    timer = unit("pbem-backup.timer")
    assert timer["Timer"]["Unit"] == "pbem-backup.service"
    assert timer["Timer"]["OnCalendar"].endswith("03:15:00")
    assert timer["Timer"]["Persistent"] == "true"
    assert timer["Install"]["WantedBy"] == "timers.target"


def test_containerfile_runs_pbem_as_a_user_with_a_data_volume() -> None:
    text = (DEPLOY / "container" / "Containerfile").read_text(encoding="utf-8")
    instructions = [
        ln.split(None, 1) for ln in text.splitlines() if ln and not ln.startswith(("#", " "))
    ]
    keys = [i[0] for i in instructions]
    user = [i[1] for i in instructions if i[0] == "USER"]
    assert user and user[-1] not in ("root", "0")
    assert keys.index("USER") < keys.index("ENTRYPOINT")
    assert 'VOLUME ["/data"]' in text and "sqlite:////data/pbem.db" in text
    assert 'ENTRYPOINT ["pbem"]' in text
    for path in ("pyproject.toml", "engine", "pbem", "templates"):
        assert re.search(rf"^COPY {re.escape(path)}\b", text, re.M), path


def test_operating_guide_covers_the_operator_tasks() -> None:
    text = (ROOT / "docs" / "OPERATING.md").read_text(encoding="utf-8")
    for needle in (
        "crontab",
        "systemctl enable --now pbem-poll.timer",
        "pbem-serve.service",
        "pbem backup",
        "pbem restore",
        "pbem-backup.timer",
        "postgresql+psycopg://",
        "pbem init",
        "quarantine",
        "Quarantine",
        "pg_dump",
        "deploy/env.example",
    ):
        assert needle in text, needle
