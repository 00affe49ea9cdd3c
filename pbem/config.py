"""Server settings: environment variables, optionally a TOML file, then defaults.

Every setting has an environment name (``PBEM_DATABASE_URL`` ...). A TOML file
(``--config`` / ``PBEM_CONFIG``) may hold the same keys, either spelled as the
environment names or in lower case without the prefix (``database_url``);
the environment wins over the file, the file over the defaults.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

__all__ = ["MIN_SECRET_BYTES", "ConfigError", "Settings", "identity_problems", "load_settings"]

# Values that are not a site's own: the built-in defaults and the samples in the docs.
EXAMPLE_SECRETS = frozenset({"", "change-me", "replace-with-a-long-random-string", "secret", "..."})
EXAMPLE_ADDRESSES = frozenset({"", "game@localhost", "game@example.org", "game@example.com"})
MIN_SECRET_BYTES = 16  # a shorter PBEM_SECRET is refused: reply keys must not be guessable


class ConfigError(ValueError):
    """A setting is missing or malformed (the message names it)."""


@dataclass(frozen=True)
class Settings:
    """Everything the server needs to know about its surroundings."""

    database_url: str = "sqlite:///pbem.db"
    address: str = "game@localhost"
    imap_host: str = "localhost"
    imap_port: int = 993
    imap_user: str = ""
    imap_password: str = ""
    imap_ssl: bool = True
    smtp_host: str = "localhost"
    smtp_port: int = 25
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_tls: bool = False
    secret: str = "change-me"
    lock_file: str = ""
    max_lines: int = 40
    max_bytes: int = 2_000_000
    parse_cpu_seconds: float = (
        5.0  # CPU budget to read one mail before its sender is known; 0: none
    )
    # game clocks (pbem.clocks): the site default time control and the worker's outage guard
    clock: str = "72h+36h/240h"  # INITIAL+INCREMENT/CAP, TIME/move, or none
    clock_expiry: str = "claim"  # forfeit | claim | autopilot
    clock_grace: str = "24h"
    clock_reminders: str = "50%,90%,24h,2h"
    clock_weekend_pause: bool = False
    vacation_days: int = 21  # per player and calendar year
    outage_threshold: str = "2h"  # no tick for longer: credit the gap, no expiry in that pass
    authserv_id: str = ""  # our receiving server's Authentication-Results id (RFC 8601)
    dkim_verify: bool = False  # verify DKIM signatures on arrival (dkimpy, the `dkim` extra)
    previous_secrets: str = ""  # comma-separated old PBEM_SECRETs still accepted (rotation)
    invitation_hours: int = (
        168  # an unanswered game invitation expires after this (pbem.games.fairplay)
    )
    # mail intake over LMTP from the site's MTA (pbem.worker.lmtp): 0 = off, `pbem serve` reads IMAP
    lmtp_host: str = "127.0.0.1"
    lmtp_port: int = 0

    @property
    def address_domain(self) -> str:
        return self.address.split("@", 1)[1].lower() if "@" in self.address else "localhost"

    @property
    def lock_path(self) -> Path:
        """The flock file for `pbem poll`/`serve` (next to a SQLite DB by default)."""
        if self.lock_file:
            return Path(self.lock_file).absolute()
        if self.database_url.startswith("sqlite:///") and self.database_url != "sqlite:///:memory:":
            return Path(self.database_url.removeprefix("sqlite:///") + ".lock").absolute()
        # One lock per database on this machine, wherever the worker was started from.
        digest = hashlib.sha256(self.database_url.encode()).hexdigest()[:16]
        return Path(tempfile.gettempdir(), f"pbem-{digest}.lock").absolute()

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)


def env_name(field: str) -> str:
    return "PBEM_" + field.upper()


ENV_NAMES = {f.name: env_name(f.name) for f in fields(Settings)}


def as_env(settings: Settings) -> dict[str, str]:
    """The ``PBEM_*`` variables that load *settings* again (for a worker started as a process)."""
    out: dict[str, str] = {}
    for f in fields(Settings):
        value = getattr(settings, f.name)
        out[env_name(f.name)] = (
            ("true" if value else "false") if isinstance(value, bool) else str(value)
        )
    return out


def _coerce(name: str, kind: type, raw: Any) -> Any:
    if kind is bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off", ""):
            return False
        raise ConfigError(f"{env_name(name)}: expected true/false, got {raw!r}")
    if kind is int:
        try:
            return int(raw)
        except (TypeError, ValueError):
            raise ConfigError(f"{env_name(name)}: expected an integer, got {raw!r}") from None
    if kind is float:
        try:
            return float(raw)
        except (TypeError, ValueError):
            raise ConfigError(f"{env_name(name)}: expected a number, got {raw!r}") from None
    return str(raw)


def _types() -> dict[str, type]:
    defaults = Settings()
    return {f.name: type(getattr(defaults, f.name)) for f in fields(Settings)}


def _from_mapping(data: Mapping[str, Any], *, source: str) -> dict[str, Any]:
    types = _types()
    out: dict[str, Any] = {}
    for key, value in data.items():
        name = key.lower().removeprefix("pbem_")
        if name not in types:
            raise ConfigError(f"{source}: unknown setting {key!r}")
        out[name] = _coerce(name, types[name], value)
    return out


def load_settings(
    config_file: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    **overrides: Any,
) -> Settings:
    """Build `Settings` from the TOML file, then ``env`` (default ``os.environ``), then overrides."""
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    path = config_file or env.get("PBEM_CONFIG")
    if path:
        try:
            with open(path, "rb") as fh:
                data = tomllib.load(fh)
        except OSError as exc:
            raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config file {path}: {exc}") from None
        values |= _from_mapping(data.get("pbem", data), source=str(path))
    types = _types()
    for name, var in ENV_NAMES.items():
        if var in env:
            values[name] = _coerce(name, types[name], env[var])
    values |= {k: v for k, v in overrides.items() if v is not None}
    settings = Settings(**values)
    if "@" not in settings.address:
        raise ConfigError(f"PBEM_ADDRESS must be an email address, got {settings.address!r}")
    return settings


def identity_problems(settings: Settings) -> list[str]:
    """Why ``settings`` must not run a real site: the secret unset, an example or shorter than
    `MIN_SECRET_BYTES`; the address unset or an example. Empty when it may.

    Anyone who reads the source knows the default secret and could forge reply keys, and a
    short one can be guessed, so the commands that create games or handle mail (`new`, `poll`,
    `serve`, `send`) refuse to run, and `pbem check` lists every problem.
    """
    problems = []
    secret = settings.secret.strip()
    make_one = "e.g. `python3 -c 'import secrets; print(secrets.token_urlsafe(32))'`"
    if secret in EXAMPLE_SECRETS:
        problems.append(
            f"PBEM_SECRET is not set (or is an example value): set a long random string, {make_one}"
        )
    elif len(secret.encode()) < MIN_SECRET_BYTES:
        problems.append(
            f"PBEM_SECRET is too short ({len(secret.encode())} bytes, at least {MIN_SECRET_BYTES}"
            f"): set a long random string, {make_one}"
        )
    if settings.address.strip().lower() in EXAMPLE_ADDRESSES:
        problems.append(
            "PBEM_ADDRESS is not set (or is an example value): set the game mailbox's "
            "own address, e.g. game@your-domain.org"
        )
    return problems


def accepted_secrets(settings: Settings) -> list[str]:
    """The current secret, then the previous ones still accepted (PBEM_PREVIOUS_SECRETS)."""
    old = [s.strip() for s in settings.previous_secrets.split(",") if s.strip()]
    return [settings.secret, *old]
