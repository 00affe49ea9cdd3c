"""What a `pbem` command loads at start-up: every cron poll pays for it, mail or not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import Session, create_engine, select

import engine
from pbem.store.models import Game, Move, Seat

ROOT = Path(__file__).resolve().parents[2]


def _loaded_after(code: str, modules: tuple[str, ...]) -> list[str]:
    probe = f"import sys\n{code}\nprint(' '.join(m for m in {modules!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout.splitlines()[-1].split()  # the last line: what the code printed comes first


def test_beautifulsoup_waits_for_the_first_html_body() -> None:
    # ≈ 0.1 s of every start (a tenth of an idle poll) for mail that mostly has a text part
    assert _loaded_after("import pbem.cli, pbem.service, pbem.pipeline", ("bs4",)) == []
    assert _loaded_after(
        "from pbem.mail import parse_message\n"
        "parse_message(b'From: a@example.org\\r\\nContent-Type: text/html\\r\\n\\r\\n"
        "<p>play 12</p>', 'game@example.org')",
        ("bs4",),
    ) == ["bs4"]


# What an idle cron poll on SQLite never calls: the bots (only a game with a bot seat),
# game creation and the operator views, the hand-over (PostgreSQL), the mail pipeline,
# Alembic on a schema that is up to date (`pbem.store.schema_head`), and the mail it would queue
# (`pbem.outbox.queue`: Jinja2, the map picture, the table talk) — the daily digests, the
# invitations' expiry, the bot seats and the clocks import it only when they have mail to
# queue — and PostgreSQL's dialect.
NOT_IDLE = (
    "bots",
    "pbem.pipeline",
    "pbem.worker.handover",
    "pbem.games.setup",
    "pbem.games.views",
    "alembic",
    "pbem.outbox.queue",
    "pbem.reports.render",
    "pbem.games.notify",
    "pbem.outbox.notes",
    "pbem.reports.boardmap",
    "jinja2",
    "sqlalchemy.dialects.postgresql",
)

_ENV = (
    "import os\n"
    "os.environ.update(PBEM_DATABASE_URL='sqlite:///{db}', PBEM_ADDRESS='game@example.test',\n"
    "    PBEM_SECRET='startup-test-secret', PBEM_LOCK_PATH='{lock}')\n"
)
_POLL = (  # `pbem poll --no-send` with the IMAP mailbox swapped for an empty one in memory
    "from pbem import service\n"
    "from pbem.mail.imap import MemoryMailbox\n"
    "service.open_mailbox = lambda settings: MemoryMailbox()\n"
    "from pbem.cli import cli\n"
    "try:\n"
    "    cli(['poll', '--no-send'], standalone_mode=False)\n"
    "except SystemExit as exc:\n"
    "    assert not exc.code, exc.code\n"
)


def _env(tmp_path: Path) -> str:
    return _ENV.format(db=tmp_path / "pbem.db", lock=tmp_path / "lock")


def test_importing_the_command_loads_nothing_an_idle_poll_never_calls() -> None:
    assert _loaded_after("import pbem.cli, pbem.service", NOT_IDLE) == []


def test_an_idle_poll_loads_nothing_it_never_calls(tmp_path: Path) -> None:
    _loaded_after(_env(tmp_path) + _POLL, ())  # the first poll creates the schema
    assert _loaded_after(_env(tmp_path) + _POLL, NOT_IDLE) == []


def test_a_busy_poll_imports_no_templates_or_picture_code() -> None:
    # the sending process renders the reports (`pbem.outbox.queue.render_input`): the applying
    # process renders only a mail that cannot be deferred, a fair-play note or an observer's
    # report, and imports Jinja2, `pbem.reports.render` and the map picture then
    loaded = _loaded_after(
        "import pbem.cli, pbem.service, pbem.pipeline, pbem.outbox_pump, pbem.send_process",
        ("pbem.reports.render", "pbem.reports.boardmap", "jinja2", "PIL.Image"),
    )
    assert loaded == []


def test_the_mail_layer_loads_no_postgresql_dialect() -> None:
    # `tabletalk._insert_question` imports the INSERT of the dialect in use
    assert _loaded_after("import pbem.outbox.queue", ("sqlalchemy.dialects.postgresql",)) == []


def test_a_busy_poll_on_sqlite_loads_no_postgresql_dialect(tmp_path: Path) -> None:
    # `pbem.pipeline.rows._insert_inbound` imports the INSERT of the dialect in use (~40 ms
    # of every busy poll's start-up on SQLite before)
    pg = ("sqlalchemy.dialects.postgresql",)
    assert _loaded_after("import pbem.cli, pbem.service, pbem.pipeline", pg) == []
    from tests.pbem.harness import Harness

    h = Harness(tmp_path)  # the schema made here (Alembic loads every dialect)
    h.new_game(seed=2)
    raw = h.reply_bytes("kennedy", "first kennedy")
    applied = (
        "from pbem import service\n"
        "from pbem.config import Settings\n"
        "from pbem.store.db import make_engine\n"
        "from pbem.mail.imap import MemoryMailbox\n"
        f"settings = Settings(database_url={h.settings.database_url!r},"
        f" address={h.settings.address!r}, secret={h.settings.secret!r})\n"
        "inbox = MemoryMailbox()\n"
        "inbox.ensure_folders()\n"
        f"inbox.deliver({raw!r})\n"
        "stats = service.poll_once(make_engine(settings.database_url), settings, inbox)\n"
        "assert stats.outcomes == {'applied': 1}, stats.summary()\n"
    )
    assert _loaded_after(applied, pg) == []


def test_the_lazy_re_exports_are_the_modules_own() -> None:
    from pbem import pipeline, service
    from pbem.games import setup as game_setup
    from pbem.games import views as game_views
    from pbem.worker import handover

    for name, module in (
        ("new_game", game_setup),
        ("EMAIL_RE", game_setup),
        ("SIDE_CHOICES", game_views),
        ("show_json", game_views),
        ("replay", game_views),
        ("apply_queued", handover),
        ("Outcome", pipeline),
    ):
        assert getattr(service, name) is getattr(module, name)
    from pbem.service import GameRow  # noqa: F401  (from-imports work too)

    with pytest.raises(AttributeError):
        service.no_such_thing  # noqa: B018


def test_the_idle_passes_moved_to_light_modules_are_found_where_they_were() -> None:
    from pbem.games import digest, notify
    from pbem.games.fairplay import expiry, games

    assert notify.digest_pass is digest.digest_pass
    assert notify.last_digest_time is digest.last_digest_time
    assert games.expire_invitations is expiry.expire_invitations


def test_show_offers_the_views_of_the_service() -> None:
    from pbem.cli import games as cli_games
    from pbem.games import views as game_views

    (as_,) = [p for p in cli_games.show.params if p.name == "as_"]
    assert tuple(as_.type.choices) == game_views.SIDE_CHOICES  # type: ignore[attr-defined]


def test_a_fresh_process_creates_a_game_and_a_poll_moves_its_bot(tmp_path: Path) -> None:
    # `pbem new` in its own process, the bot to move: it moves at creation (bots imported then)
    new = (
        "from pbem.cli import cli\n"
        "cli(['new', '--kennedy', 'bot:heuristic', '--nixon', 'dick@b.test', '--seed', '3'],\n"
        "    standalone_mode=False)\n"
    )
    assert _loaded_after(_env(tmp_path) + new, ("bots",)) == ["bots"]
    db = create_engine(f"sqlite:///{tmp_path / 'pbem.db'}")
    with Session(db) as s:
        (game,) = s.exec(select(Game)).all()
        assert engine.active_sides(engine.from_json(game.snapshot)) == {"nixon"}
        made = len(s.exec(select(Move)).all())
        assert made > 0  # the bot's opening
        seat = s.exec(select(Seat).where(Seat.side == "nixon")).one()
        seat.email = "bot:heuristic"  # now nixon is a bot too, left to move: a poll catches up
        s.add(seat)
        s.commit()
    assert _loaded_after(_env(tmp_path) + _POLL, ("bots",)) == ["bots"]
    with Session(db) as s:
        assert len(s.exec(select(Move)).all()) > made
    db.dispose()


def test_the_schema_head_is_alembics_and_only_a_current_schema_skips_migrate(
    tmp_path: Path,
) -> None:
    from alembic.script import ScriptDirectory
    from sqlalchemy import text

    from pbem.store.db import alembic_config, make_engine
    from pbem.store.schema_head import head, is_current, migrate_if_behind

    db = make_engine(f"sqlite:///{tmp_path / 'schema.db'}")
    assert head() == ScriptDirectory.from_config(alembic_config(db)).get_current_head()
    assert not is_current(db)  # empty: no version table
    migrate_if_behind(db)
    assert is_current(db)
    with db.begin() as conn:
        assert conn.execute(text("SELECT count(*) FROM game")).scalar() == 0  # the schema
        conn.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    assert not is_current(db)  # an older schema: migrate (Alembic) runs
    db.dispose()
