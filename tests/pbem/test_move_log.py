"""The move log's one writer (`pbem.store.move_log`) and migration 0018 (bot rows say 'bot')."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from sqlalchemy import text
from sqlmodel import Session

from pbem.store import move_log
from pbem.store.db import alembic_config, migrate
from pbem.store.models import utcnow
from pbem.store.move_log import AUTOPILOT, NewMove
from tests.pbem.test_bot_seat import bot_game, moves


def _sources(db: object) -> list[tuple[str, str, int | None]]:
    with db.connect() as conn:  # type: ignore[attr-defined]
        q = "SELECT side, source, inbound_id FROM move ORDER BY seq"
        return [tuple(r) for r in conn.execute(text(q))]


def test_append_numbers_after_the_last_row_and_keeps_each_source(tmp_path: Path) -> None:
    h = bot_game(tmp_path, seed=2)
    h.reply("kennedy", "standing trigger never")
    before = moves(h)
    with Session(h.db) as s:
        rows = move_log.append(
            s, h.game_id, [NewMove("kennedy", "a"), NewMove("nixon", "b", AUTOPILOT)], utcnow()
        )
        s.commit()
        assert [r.seq for r in rows] == [len(before) + 1, len(before) + 2]
    after = moves(h)
    assert [m.seq for m in after] == list(range(1, len(after) + 1))
    assert [(m.command, m.source) for m in after[-2:]] == [("a", "mail"), ("b", "autopilot")]


def test_migration_0018_marks_the_bot_seats_moves_and_no_one_elses(tmp_path: Path) -> None:
    h = None
    for seed in range(1, 40):  # a deal where the bot (Nixon) has moved
        h = bot_game(tmp_path / str(seed), seed=seed)
        h.reply("kennedy", "standing trigger never")
        if {m.source for m in moves(h)} >= {"bot", "mail"}:
            break
    assert h is not None
    now = _sources(h.db)
    assert {src for side, src, _ in now if side == "nixon"} <= {"bot", "declined"}
    cfg = alembic_config(h.db)
    with h.db.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0017")
    old = _sources(h.db)  # as a server before 0018 stored them
    assert "bot" not in {src for _, src, _ in old}
    assert [(side, src if src != "bot" else "mail", i) for side, src, i in now] == old
    migrate(h.db)
    assert _sources(h.db) == now
