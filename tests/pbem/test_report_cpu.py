"""Less CPU in the ``report`` stage (issue 14, benchmark 2), the same mails.

- compiled templates are kept between processes (`pbem.reports.render.bytecode_cache`), and a
  template loaded from that cache renders what a freshly compiled one does;
- a region's line of states in the HTML board is rendered once per distinct line
  (`pbem.reports.render.states_html`);

Every byte of the reports is compared with the code before by ``benchmarks/report_digest.py``
and ``benchmarks/report_stage.py --digest`` (benchmarks/README.md); the golden files
(test_render.py) hold too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jinja2
import pytest
from sqlalchemy import event

import engine
from pbem.reports import render as render_mod
from tests.pbem.harness import Harness

GOLDEN = Path(__file__).parent / "data" / "golden"


def _golden_ctx(name: str) -> dict[str, Any]:
    ctx: dict[str, Any] = json.loads((GOLDEN / f"{name}.ctx.json").read_text())
    return ctx


def test_the_template_cache_folder_is_set_by_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_TEMPLATE_CACHE", "off")
    assert render_mod.bytecode_cache() is None
    monkeypatch.setenv("PBEM_TEMPLATE_CACHE", str(tmp_path / "jinja"))
    cache = render_mod.bytecode_cache()
    assert isinstance(cache, jinja2.FileSystemBytecodeCache)
    assert cache.directory == str(tmp_path / "jinja") and (tmp_path / "jinja").is_dir()
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("PBEM_TEMPLATE_CACHE", str(tmp_path / "file" / "jinja"))
    assert render_mod.bytecode_cache() is None, "no usable folder: compiled in memory"


@pytest.mark.parametrize("name", ["report_kennedy", "report_nixon", "game_over_kennedy"])
def test_templates_from_the_cache_render_the_same_mail(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = name.rsplit("_", 1)[0]
    expected = render_mod.render(kind, _golden_ctx(name))
    monkeypatch.setenv("PBEM_TEMPLATE_CACHE", str(tmp_path))
    fresh = render_mod.environment.__wrapped__  # type: ignore[attr-defined]
    for _ in ("compiled and stored", "loaded from the cache"):
        env = fresh()  # a new process's environment
        monkeypatch.setattr(render_mod, "environment", lambda env=env: env)
        monkeypatch.setattr(render_mod, "_BOARD_CACHE", {})
        monkeypatch.setattr(render_mod, "_STATES_CACHE", {})
        assert render_mod.render(kind, _golden_ctx(name)) == expected
        assert list(tmp_path.glob("__jinja2_*.cache")), "the compiled templates are kept"


def test_a_template_cache_that_cannot_be_written_or_read_is_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache only saves CPU: its folder removed (or full, or unreadable) under a running
    worker, the report is still made, compiled as without a cache."""
    expected = render_mod.render("report", _golden_ctx("report_kennedy"))
    folder = tmp_path / "jinja"
    monkeypatch.setenv("PBEM_TEMPLATE_CACHE", str(folder))
    fresh = render_mod.environment.__wrapped__  # type: ignore[attr-defined]
    env = fresh()
    folder.rmdir()  # writing a compiled template now fails (FileNotFoundError)
    monkeypatch.setattr(render_mod, "environment", lambda: env)
    monkeypatch.setattr(render_mod, "_BOARD_CACHE", {})
    monkeypatch.setattr(render_mod, "_STATES_CACHE", {})
    assert render_mod.render("report", _golden_ctx("report_kennedy")) == expected
    folder.mkdir()
    (folder / "unreadable").mkdir()
    monkeypatch.setattr(
        jinja2.FileSystemBytecodeCache, "_get_cache_filename", lambda *_: str(folder / "unreadable")
    )
    env = fresh()  # every cache file name is a folder: reading and writing it fail
    monkeypatch.setattr(render_mod, "environment", lambda: env)
    monkeypatch.setattr(render_mod, "_BOARD_CACHE", {})
    monkeypatch.setattr(render_mod, "_STATES_CACHE", {})
    assert render_mod.render("report", _golden_ctx("report_kennedy")) == expected


def test_a_region_line_is_rendered_once_and_shown_as_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(render_mod, "_STATES_CACHE", {})
    g = engine.new_game(3)
    board = render_mod.report_model.board(engine.view(g, "kennedy"))
    env = render_mod.environment()
    line = render_mod.states_html(board["regions"][0]["states"])
    assert render_mod.states_html(board["regions"][0]["states"]) is line
    assert len(render_mod._STATES_CACHE) == 1
    cell = board["regions"][0]["states"][0]
    assert f'title="{cell["name"]}">{cell["abbr"]}&nbsp;' in line
    html = env.get_template("html/_board.html.j2").render(board={**board, "map": None})
    assert str(line) in html and len(render_mod._STATES_CACHE) == len(board["regions"])


def test_the_picture_is_stored_without_the_orm_and_once(tmp_path: Path) -> None:
    """`mailimages.store` inserts on the session's connection (no ORM statement, no flush of
    the session's pending rows); a stored id is not inserted again; the row is the picture."""
    from sqlmodel import Session, select

    from pbem.outbox import parts as mailimages
    from pbem.store.models import MailImage, Seat

    h = Harness(tmp_path)
    h.new_game()
    pic = render_mod.Attachment(filename="log.txt", data=b"the log\n")
    orm_statements: list[Any] = []
    inserts: list[str] = []

    def cursor(_c: Any, _cur: Any, statement: str, *_rest: Any) -> None:
        if statement.startswith("INSERT"):
            inserts.append(statement)

    with Session(h.db) as s:
        event.listen(s, "do_orm_execute", orm_statements.append)
        event.listen(h.db, "before_cursor_execute", cursor)
        s.add(Seat(game_id=h.game_id, side="observer-x", email="x@pbem.test", key_salt="00"))
        mailimages.store(s, [pic, pic])
        mailimages.store(s, [pic])
        event.remove(h.db, "before_cursor_execute", cursor)
        assert orm_statements == [], "no ORM execute for the picture"
        assert [i.split()[2] for i in inserts] == ["mailimage"], "one insert, no flush first"
        s.rollback()
    with Session(h.db) as s:
        mailimages.store(s, [pic])
        s.commit()
        row = s.get(MailImage, pic.cid)
        assert row is not None and row.data == b"the log\n" and row.filename == "log.txt"
        assert row.content_type == "text/plain; charset=utf-8" and row.created_at is not None
    with Session(h.db) as s:  # a new session, the same id: the insert does nothing
        mailimages.store(s, [pic])
        s.commit()
        rows = s.exec(select(MailImage).where(MailImage.cid == pic.cid)).all()
        assert len(rows) == 1


def test_an_include_on_its_own_line_is_inlined() -> None:
    """A report's ~27 ``{% include %}`` lines are replaced by the partials' source when the
    template is loaded (no context copied from the whole model per include); an include
    inside a line stays one."""
    env = render_mod.environment()
    text = env.loader.get_source(env, "text/report.txt.j2")[0]  # type: ignore[union-attr]
    assert "{% include" not in text and "1960: THE MAKING OF THE PRESIDENT" in text
    html = env.loader.get_source(env, "html/game_over.html.j2")[0]  # type: ignore[union-attr]
    assert html.count("{% include") == 1 and '{% include "html/_reveal.html.j2" %}' in html
    made: list[Any] = []
    real = jinja2.environment.new_context  # what Template.new_context calls

    def counted(*args: Any, **kw: Any) -> Any:
        made.append(args[1])
        return real(*args, **kw)

    mail = _golden_ctx("report_kennedy")
    render_mod.render("report", mail)  # compiled before counting
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(jinja2.environment, "new_context", counted)
        mp.setattr(render_mod, "_BOARD_CACHE", {})
        render_mod.render("report", mail)
    made = [m for m in made if m != "html/_states.html.j2"]  # a region line: cached or not
    assert sorted(made) == [
        "html/_board.html.j2",
        "html/report.html.j2",
        "text/_board.txt.j2",
        "text/report.txt.j2",
    ], "one context per template rendered, none per include"


@pytest.mark.parametrize("kind", render_mod.KINDS)
@pytest.mark.parametrize("name", ["report_kennedy", "game_over_kennedy"])
def test_inlined_templates_make_the_mails_jinja2_includes_make(
    kind: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctx = {
        **_golden_ctx(name),
        "card": None,
        "notice": {"subject": "S", "lines": ["A", "B"], "full": True},
    }
    inlined = render_mod.render(kind, ctx)
    plain = render_mod.environment.__wrapped__  # type: ignore[attr-defined]
    monkeypatch.setattr(render_mod, "_InliningLoader", jinja2.FileSystemLoader)
    monkeypatch.setenv("PBEM_TEMPLATE_CACHE", "off")
    env = plain()
    assert isinstance(env.loader, jinja2.FileSystemLoader) and env.loader.__class__ is (
        jinja2.FileSystemLoader
    )
    monkeypatch.setattr(render_mod, "environment", lambda: env)
    monkeypatch.setattr(render_mod, "_BOARD_CACHE", {})
    monkeypatch.setattr(render_mod, "_STATES_CACHE", {})
    assert render_mod.render(kind, ctx) == inlined


def test_a_partial_that_would_act_otherwise_inlined_stays_an_include(tmp_path: Path) -> None:
    (tmp_path / "sets.j2").write_text("{% set x = 2 %}{{ x }}\n")
    (tmp_path / "trims.j2").write_text("a {{- 'b' }}\n")
    (tmp_path / "plain.j2").write_text("{% if x %}P{{ x }}{% endif %}\n")
    (tmp_path / "main.j2").write_text(
        '{% include "sets.j2" %}\n{% include "trims.j2" %}\n{% include "plain.j2" %}\n{{ x }}\n'
    )
    loader = render_mod._InliningLoader(str(tmp_path))
    env = jinja2.Environment(loader=loader, trim_blocks=True, keep_trailing_newline=True)
    source = loader.get_source(env, "main.j2")[0]
    assert source.startswith('{% include "sets.j2" %}\n{% include "trims.j2" %}\n{% if x %}')
    plain = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(tmp_path)), trim_blocks=True, keep_trailing_newline=True
    )
    assert env.get_template("main.j2").render(x=1) == "2\nab\nP11\n"
    assert plain.get_template("main.j2").render(x=1) == "2\nab\nP11\n"
