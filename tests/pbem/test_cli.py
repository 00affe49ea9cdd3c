"""The `pbem` command through click's CliRunner: output, exit status, settings from the environment."""

from __future__ import annotations

import email
import email.policy
import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlmodel import Session

import engine
from pbem.cli import cli
from pbem.cli.app import EXIT_ATTENTION, EXIT_LOCKED, EXIT_UNREACHABLE
from pbem.store.db import make_engine
from pbem.store.models import Game
from pbem.worker.lock import RunLock
from tests.pbem.mailtools import MailServer, free_port, player_mail


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """Settings for a site whose database `pbem init` has created."""
    settings = {
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/cli.db",
        "PBEM_ADDRESS": "game@example.test",
        "PBEM_SECRET": "cli-secret-of-the-tests",
        "PBEM_IMAP_SSL": "false",
        "PBEM_SMTP_TLS": "false",
    }
    assert run(settings, "init").exit_code == 0
    return settings


def run(env: dict[str, str], *args: str) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_init_creates_then_reports_up_to_date(tmp_path: Path) -> None:
    env = {"PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/new/cli.db"}
    first = run(env, "init")
    assert first.exit_code == 0 and re.search(r"migrated: empty -> 00\d\d\b", first.output)
    assert "up to date" in run(env, "init").output


def test_new_games_show_log_replay(env: dict[str, str]) -> None:
    out = run(env, "new", "--kennedy", "jack@a.test", "--nixon", "dick@b.test", "--seed", "2")
    assert out.exit_code == 0 and "game #1 created" in out.output
    listing = run(env, "games").output
    assert "#1" in listing and "jack@a.test" in listing and "waiting for kennedy" in listing
    view = json.loads(run(env, "show", "1", "--as", "kennedy", "--json").output)
    state = engine.new_game(2)
    assert view["legal"] == engine.legal_commands(state, "kennedy")
    assert view["hand"] == sorted(state["hands"]["kennedy"])
    text = run(env, "show", "1", "--as", "kennedy").output
    assert engine.CARDS[state["hands"]["kennedy"][0]].name in text
    assert "Decision" in run(env, "show", "1").output
    assert run(env, "log", "1").output == ""
    assert "the position matches" in run(env, "replay", "1").output


def test_user_errors_exit_1_with_a_message(env: dict[str, str]) -> None:
    bad = run(
        env,
        "new",
        "--kennedy",
        "jack@a.test",
        "--nixon",
        "dick@b.test",
        "--option",
        "vice_presidents",
    )
    assert bad.exit_code == 1 and "GMT" in bad.output
    assert run(env, "show", "9").exit_code == 1
    assert run(env, "--config", "/nonexistent.toml", "games").exit_code == 2


def test_settings_come_from_the_environment(env: dict[str, str]) -> None:
    env = env | {"PBEM_KENNEDY": "k@x.test", "PBEM_NIXON": "n@x.test", "PBEM_EDITION": "gmt"}
    assert run(env, "new").exit_code == 0
    assert "gmt" in run(env, "games").output


def test_poll_exits_75_when_another_worker_holds_the_lock(
    env: dict[str, str], tmp_path: Path
) -> None:
    with RunLock(Path(f"{tmp_path}/cli.db.lock")):
        assert run(env, "poll").exit_code == EXIT_LOCKED


def test_poll_exits_4_when_imap_is_unreachable(env: dict[str, str]) -> None:
    env = env | {"PBEM_IMAP_HOST": "127.0.0.1", "PBEM_IMAP_PORT": str(free_port())}
    out = CliRunner().invoke(cli, ["poll"], env=env)
    assert out.exit_code == EXIT_UNREACHABLE


def test_replay_mismatch_exits_3(env: dict[str, str]) -> None:
    run(env, "new", "--kennedy", "jack@a.test", "--nixon", "dick@b.test", "--seed", "2")
    with Session(make_engine(env["PBEM_DATABASE_URL"])) as s:
        game = s.get(Game, 1)
        assert game is not None
        game.seed = 3
        s.add(game)
        s.commit()
    out = CliRunner().invoke(cli, ["replay", "1"], env=env)
    assert out.exit_code == EXIT_ATTENTION and "MISMATCH" in out.output


def test_replay_after_an_engine_that_words_the_log_differently_is_no_mismatch(
    env: dict[str, str],
) -> None:
    """An upgrade that only rewords log lines ('6 card(s)' -> '6 cards') or adds one changes no
    position: `pbem replay` says so and exits 0 (the manual sends an operator to keep the old
    version on a mismatch); a changed position is still a mismatch."""
    run(env, "new", "--kennedy", "jack@a.test", "--nixon", "dick@b.test", "--seed", "2")
    db = make_engine(env["PBEM_DATABASE_URL"])

    def edit(change: Callable[[engine.GameState], None]) -> None:
        with Session(db) as s:
            game = s.get(Game, 1)
            assert game is not None and game.snapshot
            g = engine.from_json(game.snapshot)
            change(g)
            game.snapshot = engine.to_json(g)
            s.add(game)
            s.commit()

    def older_wording(g: engine.GameState) -> None:
        for e in g["log"]:
            e["text"] = e["text"].replace(" 6 cards", " 6 card(s)")

    edit(older_wording)
    out = CliRunner().invoke(cli, ["replay", "1"], env=env)
    assert out.exit_code == 0, out.output
    assert "2 log lines of " in out.output and "worded differently" in out.output
    edit(lambda g: g["log"].pop())
    out = CliRunner().invoke(cli, ["replay", "1"], env=env)
    assert out.exit_code == 0 and "lines as this engine words it" in out.output
    edit(lambda g: g["momentum"].update(kennedy=5))
    out = CliRunner().invoke(cli, ["replay", "1"], env=env)
    assert out.exit_code == EXIT_ATTENTION and "snapshot differs in: momentum" in out.output


def _mail_env(env: dict[str, str], server: MailServer, game: str) -> dict[str, str]:
    return env | {
        "PBEM_ADDRESS": game,
        "PBEM_IMAP_HOST": server.host,
        "PBEM_IMAP_PORT": str(server.imap_port),
        "PBEM_IMAP_USER": game,
        "PBEM_IMAP_PASSWORD": server.password,
        "PBEM_SMTP_HOST": server.host,
        "PBEM_SMTP_PORT": str(server.smtp_port),
    }


def test_send_poll_and_quiet_poll_over_real_servers(
    env: dict[str, str], mail_server: MailServer
) -> None:
    game, jack, dick = (mail_server.fresh_address(p) for p in ("game", "jack", "dick"))
    env = _mail_env(env, mail_server, game)
    assert run(env, "new", "--kennedy", jack, "--nixon", dick, "--seed", "2").exit_code == 0
    sent = run(env, "send")
    assert sent.exit_code == 0 and "2 sent" in sent.output
    (welcome,) = mail_server.wait_for(jack, 1)
    msg = email.message_from_bytes(welcome.raw, policy=email.policy.default)
    mail_server.send(
        player_mail(
            jack, str(msg["Reply-To"]), "first kennedy", in_reply_to=str(msg["Message-ID"])
        ),
        jack,
        [str(msg["Reply-To"])],
    )
    mail_server.wait_for(game, 1)
    polled = run(env, "poll")
    # Kennedy chose who goes first: only the side that must decide next is mailed (notify decisions)
    assert polled.exit_code == 0 and "1 applied" in polled.output and "1 sent" in polled.output
    assert "first kennedy" in run(env, "log", "1").output
    quiet = run(env, "poll")
    assert quiet.exit_code == 0 and quiet.stdout == ""  # (stderr: sender authentication is off)
    checks = run(env, "check")
    assert checks.exit_code == 0 and checks.output.count("ok  ") == 4


def test_demo_stops_at_the_move_limit_and_keeps_a_folder_it_was_given(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["demo", "--max-moves", "4", "--dir", str(tmp_path / "d")])
    assert out.exit_code == EXIT_ATTENTION, out.output
    assert "Kennedy replies: accept" in out.output and "stopped after 4 moves" in out.output
    assert (tmp_path / "d" / "kennedy.mbox").stat().st_size > 0
    assert "log 1" in out.output  # a kept folder comes with the commands to look at it


def test_demo_removes_its_temporary_folder_unless_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    prog = "bash scripts/pbem"  # as a Quick-start user runs it
    out = CliRunner().invoke(cli, ["demo", "--max-moves", "2"], prog_name=prog)
    assert out.exit_code == EXIT_ATTENTION, out.output
    assert "`bash scripts/pbem demo --keep` keeps them" in out.output
    assert list(tmp_path.glob("pbem-demo-*")) == []
    kept = CliRunner().invoke(cli, ["demo", "--max-moves", "2", "--keep"], prog_name=prog)
    folder = next(tmp_path.glob("pbem-demo-*"))
    assert f"bash scripts/pbem --database-url sqlite:///{folder}/pbem.db log 1" in kept.output


def test_send_exits_4_when_smtp_is_unreachable(env: dict[str, str]) -> None:
    env = env | {"PBEM_SMTP_HOST": "127.0.0.1", "PBEM_SMTP_PORT": str(free_port())}
    run(env, "new", "--kennedy", "jack@a.test", "--nixon", "dick@b.test")
    out = run(env, "send")
    assert out.exit_code == EXIT_UNREACHABLE and "2 to retry" in out.output
