"""A newcomer's mistakes, each made as a real `python -m pbem` process: every one ends in one or
two lines on stderr (what is wrong, what to do), no traceback, the documented exit status, and
no file left behind (only `pbem init` creates a database)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.cli.app import EXIT_UNREACHABLE, EXIT_USAGE, EXIT_USER
from tests.pbem.mailtools import free_port

ROOT = Path(__file__).resolve().parents[2]
BLOCK_PSYCOPG = "import sys; sys.modules['psycopg'] = None; from pbem.cli import cli; cli()"


@dataclass(frozen=True)
class Mistake:
    name: str
    args: list[str]
    status: int
    says: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    python: tuple[str, ...] = ("-m", "pbem")


PG = f"postgresql://u:hunter2@127.0.0.1:{free_port()}/pbem"
NO_DB = ("no database at", "run `python -m pbem init` to create it")
MISTAKES = [
    Mistake("show before init", ["show", "999"], EXIT_USER, NO_DB),
    Mistake("games before init", ["games"], EXIT_USER, NO_DB),
    Mistake("log before init", ["log", "1"], EXIT_USER, NO_DB),
    Mistake("tick before init", ["tick"], EXIT_USER, NO_DB),
    Mistake("new before init", ["new", "--kennedy", "k@a.test", "--nixon", "n@b.test"], 1, NO_DB),
    Mistake(
        "a URL that is no URL",
        ["--database-url", "foo", "games"],
        EXIT_USAGE,
        ("'foo' is not a database URL", "expected sqlite:///"),
    ),
    Mistake(
        "PostgreSQL not running",
        ["--database-url", PG, "games"],
        EXIT_UNREACHABLE,
        ("cannot reach the database postgresql+psycopg://u:***@127.0.0.1", "retries"),
    ),
    Mistake(
        "MySQL",
        ["--database-url", "mysql://u:pw@localhost/pbem", "games"],
        EXIT_USAGE,
        ("mysql databases are not supported", "postgresql+psycopg://"),
    ),
    Mistake(
        "PostgreSQL without its driver",
        ["--database-url", PG, "games"],
        EXIT_USER,
        ("PostgreSQL needs the psycopg driver", "pip install 'pbem1960[postgres]'"),
        python=("-c", BLOCK_PSYCOPG),
    ),
    Mistake("a missing argument", ["show"], EXIT_USAGE, ("Missing argument 'GAME'", "--help")),
    Mistake("a game that is no number", ["show", "abc"], EXIT_USAGE, ("'abc' is not a valid",)),
    Mistake(
        "a port that is no number",
        ["games"],
        EXIT_USAGE,
        ("PBEM_IMAP_PORT: expected an integer, got 'abc'",),
        env=(("PBEM_IMAP_PORT", "abc"),),
    ),
    Mistake(
        "a config file that is not there",
        ["games"],
        EXIT_USAGE,
        ("cannot read config file /nope.toml",),
        env=(("PBEM_CONFIG", "/nope.toml"),),
    ),
    Mistake(
        "an export that is not there",
        ["verify", "nothere.json"],
        EXIT_USAGE,
        ("cannot read nothere.json: No such file",),
    ),
    Mistake(
        "a one-character secret",
        ["new", "--kennedy", "k@a.test", "--nixon", "n@b.test"],
        EXIT_USER,
        ("PBEM_SECRET is too short (1 bytes, at least 16)",),
        env=(("PBEM_SECRET", "x"),),
    ),
    Mistake(
        "the Quick-start user's own command in the hint",
        ["games"],
        EXIT_USER,
        ("run `bash scripts/pbem init`",),
        env=(("PBEM_PROG", "bash scripts/pbem"),),
    ),
]
SITE = {"PBEM_ADDRESS": "game@example.test", "PBEM_SECRET": "a-secret-of-the-tests"}


def _env(extra: tuple[tuple[str, str], ...] = ()) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    return env | {"PYTHONPATH": str(ROOT)} | SITE | dict(extra)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int, str, str]]:
    """Every mistake made at once (one process each, in parallel), each in an empty folder."""
    running = {}
    for m in MISTAKES:
        cwd = tmp_path_factory.mktemp("newcomer")
        proc = subprocess.Popen(
            [sys.executable, *m.python, *m.args],
            cwd=cwd,
            env=_env(m.env),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        running[m.name] = (cwd, proc)
    done = {}
    for name, (cwd, proc) in running.items():
        out, err = proc.communicate(timeout=120)
        done[name] = (cwd, proc.returncode, out, err)
    return done


@pytest.mark.parametrize("mistake", MISTAKES, ids=[m.name for m in MISTAKES])
def test_a_mistake_ends_in_two_lines_and_its_status(
    mistake: Mistake, outcomes: dict[str, tuple[Path, int, str, str]]
) -> None:
    cwd, status, out, err = outcomes[mistake.name]
    assert (status, out) == (mistake.status, ""), err
    lines = err.strip().splitlines()
    assert 1 <= len(lines) <= 2 and lines[0].startswith("Error: "), err
    for words in mistake.says:
        assert words in err, err
    assert "hunter2" not in err
    assert list(cwd.iterdir()) == [], "a failed command left a file behind"


def test_after_init_the_same_commands_name_the_game(tmp_path: Path) -> None:
    def pbem(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pbem", *args],
            cwd=tmp_path,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )

    assert pbem("init").returncode == 0 and (tmp_path / "pbem.db").is_file()
    shown = pbem("show", "999")
    assert (shown.returncode, shown.stderr) == (
        EXIT_USER,
        "Error: no game #999 (see `pbem games`)\n",
    )
    assert pbem("games").stdout == "no games\n"
