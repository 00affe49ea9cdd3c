"""Server settings: environment variables, optionally a TOML file, then defaults.

Every setting has an environment name (``PBEM_DATABASE_URL`` ...). A TOML file
(``--config`` / ``PBEM_CONFIG``) may hold the same keys, either spelled as the
environment names or in lower case without the prefix (``database_url``);
the environment wins over the file, the file over the defaults.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

__all__ = ["ConfigError", "Settings", "load_settings"]


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
    invitation_hours: int = 168  # an unanswered game invitation expires after this (pbem.fairplay)

    @property
    def address_local(self) -> str:
        return self.address.split("@", 1)[0].lower()

    @property
    def address_domain(self) -> str:
        return self.address.split("@", 1)[1].lower() if "@" in self.address else "localhost"

    @property
    def lock_path(self) -> Path:
        """The flock file for `pbem poll`/`serve` (next to a SQLite DB by default)."""
        if self.lock_file:
            return Path(self.lock_file)
        if self.database_url.startswith("sqlite:///") and self.database_url != "sqlite:///:memory:":
            return Path(self.database_url.removeprefix("sqlite:///") + ".lock")
        return Path("pbem.lock")

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)


def env_name(field: str) -> str:
    return "PBEM_" + field.upper()


ENV_NAMES = {f.name: env_name(f.name) for f in fields(Settings)}


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
