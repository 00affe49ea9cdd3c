"""The user-level errors of the server's operations: the CLI shows their message."""

from __future__ import annotations

__all__ = ["GameNotFound", "ServiceError"]


class ServiceError(Exception):
    """A user-level error (bad argument, unknown game); the CLI shows the message."""


class GameNotFound(ServiceError):
    pass
