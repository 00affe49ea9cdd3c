"""The `pbem` command's shared parts: the context object `App`, `pass_app` and the exit codes.

Exit status: 0 done (or nothing to do), 1 usage or user error, 3 something
needs an operator, 4 a mail server could not be reached, 75 another pbem worker holds the
lock (try again later).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import click
from sqlalchemy.engine import Engine

import engine
from pbem.config import Settings, identity_problem
from pbem.mail import dkimcheck
from pbem.store.db import make_engine

EDITION_CHOICE = click.Choice(list(engine.EDITIONS))  # the engine's editions, one home
EXIT_ATTENTION = 3
EXIT_UNREACHABLE = 4
EXIT_LOCKED = 75


@dataclass
class App:
    """The context object: settings and the database engine (opened lazily)."""

    settings: Settings
    verbose: bool = False

    @cached_property
    def db(self) -> Engine:
        return make_engine(self.settings.database_url)

    def say(self, text: str) -> None:
        click.echo(text)

    def note(self, text: str) -> None:
        if self.verbose:
            click.echo(text, err=True)

    def require_identity(self) -> None:
        """Refuse to handle games or mail on a default or example secret/address (exit 1)."""
        problem = identity_problem(self.settings)
        if problem:
            raise click.ClickException(f"refusing to run: {problem}")

        if self.settings.dkim_verify and not dkimcheck.available():
            raise click.ClickException(
                "refusing to run: PBEM_DKIM_VERIFY is on but dkimpy is not "
                "installed (pip install 'pbem1960[dkim]')"
            )


pass_app = click.make_pass_decorator(App)
