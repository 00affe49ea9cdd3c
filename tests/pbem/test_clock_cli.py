"""`pbem new --clock ...`, `pbem tick`, `pbem seat`, and the clocks in `pbem games` / `show` / `log`."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import cli


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """Settings for a site whose database `pbem init` has created."""
    settings = {
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/cli.db",
        "PBEM_ADDRESS": "game@example.test",
        "PBEM_SECRET": "cli-secret-of-the-tests",
        "PBEM_SMTP_PORT": "1",
        "PBEM_SMTP_HOST": "127.0.0.1",
    }
    assert run(settings, "init").exit_code == 0
    return settings


def run(env: dict[str, str], *args: str) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_new_with_a_clock_then_tick_games_show_seat_log(env: dict[str, str]) -> None:
    out = run(
        env,
        "new",
        "--kennedy",
        "jack@a.test",
        "--nixon",
        "dick@b.test",
        "--seed",
        "7",
        "--clock",
        "3d/move",
        "--expiry",
        "autopilot",
        "--weekend-pause",
        "--no-vacation",
    )
    assert out.exit_code == 0 and "clock 3d/move, expiry autopilot" in out.output
    tick = run(env, "tick", "--no-send")
    assert tick.exit_code == 0, tick.output
    listing = run(env, "games").output
    assert "clocks: kennedy 3 d left; nixon on the move" in listing
    shown = run(env, "show", "1").output
    assert "Clock: 3 d per decision; clocks stop on Saturdays and Sundays (UTC)" in shown
    assert "no vacation in this game" in shown
    seat = run(env, "seat", "1", "nixon", "--address", "pat@c.test")
    assert seat.exit_code == 0 and "dick@b.test -> pat@c.test (operator)" in seat.output
    assert "seat: Nixon's seat: dick@b.test -> pat@c.test" in run(env, "log", "1").output
    bad = run(env, "seat", "1", "nixon", "--address", "jack@a.test")
    assert bad.exit_code == 1 and "holds the other seat" in bad.output


def test_a_bad_clock_is_a_usage_error_that_quotes_it(env: dict[str, str]) -> None:
    out = run(env, "new", "--kennedy", "jack@a.test", "--nixon", "dick@b.test", "--clock", "72x")
    assert out.exit_code == 2 and "'72x'" in out.output
