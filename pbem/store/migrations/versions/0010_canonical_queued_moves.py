"""canonical queued moves: rewrite the lines the server applied from a player's queue

Migration 0005 made the move log canonical, but until this release a line a player queued after
``then`` was still logged as written (``finish``, ``camp 36: MA 2``) when the server applied it.
This migration replays each game once, as `pbem replay` does (``undo`` moves restore the
position before the mail they take back), and stores every move as the canonical commands
`engine.apply_in_place` reports for it, keeping its side, mail, time and source. A game whose
log does not replay to its snapshot keeps its log untouched and is named in the output.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

UNDO = "undo"  # pbem.games.undo.UNDO: a player's take-back, logged as its own move

_GAME = sa.table(
    "game",
    sa.column("id", sa.Integer),
    sa.column("seed", sa.Integer),
    sa.column("edition", sa.String),
    sa.column("options", sa.String),
    sa.column("snapshot", sa.Text),
)
_COMMIT = sa.table(
    "commitment", sa.column("game_id", sa.Integer), sa.column("engine_seed", sa.String)
)
_MOVE = sa.table(
    "move",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("seq", sa.Integer),
    sa.column("side", sa.String),
    sa.column("command", sa.String),
    sa.column("inbound_id", sa.Integer),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("source", sa.String),
)


def canonical_log(
    seed: int, edition: str, options: list[str], snapshot: str, moves: list[dict[str, object]]
) -> list[dict[str, object]] | None:
    """The moves as canonical commands (``undo`` kept as it is), or None if the log does not
    replay to the snapshot (then nothing is changed)."""
    import engine

    g = engine.new_game(seed, edition=edition, options=options)
    before: list[tuple[object, engine.GameState]] = []  # (mail, position before it), per mail
    out: list[dict[str, object]] = []
    for m in moves:
        if m["command"] == UNDO:
            if not before:
                return None
            g = before.pop()[1]
            out.append(dict(m))
            continue
        if not before or before[-1][0] != m["inbound_id"] or m["inbound_id"] is None:
            before.append((m["inbound_id"], engine.copy_state(g)))
        try:
            applied = engine.apply_in_place(g, str(m["side"]), str(m["command"]))
        except engine.CommandError:
            return None
        out.extend({**m, "command": c} for c in applied)
    if g != engine.from_json(snapshot):
        return None
    for i, m in enumerate(out, 1):
        m["seq"] = i
    return out


def upgrade() -> None:
    conn = op.get_bind()
    seeds = {
        r["game_id"]: int(r["engine_seed"])
        for r in conn.execute(sa.select(_COMMIT)).mappings()
        if r["engine_seed"]
    }
    for game in conn.execute(sa.select(_GAME).order_by(_GAME.c.id)).mappings().all():
        rows = [
            dict(r)
            for r in conn.execute(
                sa.select(_MOVE).where(_MOVE.c.game_id == game["id"]).order_by(_MOVE.c.seq)
            ).mappings()
        ]
        if not rows or not game["snapshot"]:
            continue
        raw = [
            {k: r[k] for k in ("side", "command", "inbound_id", "created_at", "source")}
            for r in rows
        ]
        new = canonical_log(
            seeds.get(game["id"], game["seed"]),
            game["edition"],
            [o for o in (game["options"] or "").split(",") if o],
            game["snapshot"],
            raw,
        )
        if new is None:
            print(
                f"0010: game #{game['id']}: its log does not replay with this engine; left as written"
            )
            continue
        if [m["command"] for m in new] == [r["command"] for r in rows]:
            continue  # already canonical
        conn.execute(sa.delete(_MOVE).where(_MOVE.c.game_id == game["id"]))
        conn.execute(sa.insert(_MOVE), [{"game_id": game["id"], **m} for m in new])


def downgrade() -> None:
    pass  # canonical commands replay on the older engine too: nothing to undo
