"""canonical move log: replay each game's raw command lines once and store the canonical commands

Until now the move log stored each line as the player wrote it (``place ohio``, ``campaign 17:
NY 2, PA 1``), so a later alias or parser change could break ``pbem replay``. From now on the
server stores the canonical commands `engine.apply_in_place` reports (``support OH``; ``campaign
17``, ``check NY 2``, ``support PA``). This migration rewrites existing logs the same way: each
game is replayed from (seed, edition, options) with the engine of this release, and its moves
are replaced by the canonical commands, in order, keeping each line's side, inbound mail and
time. A game whose log does not replay to its snapshot (e.g. one move illegal under the R7.4 /
R16.3 rulings of this release) keeps its raw log untouched and is named in the output; `pbem
replay GAME` reports it too.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_GAME = sa.table(
    "game",
    sa.column("id", sa.Integer),
    sa.column("seed", sa.Integer),
    sa.column("edition", sa.String),
    sa.column("options", sa.String),
    sa.column("snapshot", sa.Text),
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
)


def canonical_log(
    seed: int, edition: str, options: list[str], snapshot: str, moves: list[dict[str, object]]
) -> list[dict[str, object]] | None:
    """The moves rewritten as canonical commands, or None if the raw log does not replay to
    the snapshot (then nothing is changed)."""
    import engine

    g = engine.new_game(seed, edition=edition, options=options)
    out: list[dict[str, object]] = []
    for m in moves:
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
    for game in conn.execute(sa.select(_GAME).order_by(_GAME.c.id)).mappings().all():
        rows = [
            dict(r)
            for r in conn.execute(
                sa.select(_MOVE).where(_MOVE.c.game_id == game["id"]).order_by(_MOVE.c.seq)
            ).mappings()
        ]
        if not rows:
            continue
        raw = [{k: r[k] for k in ("side", "command", "inbound_id", "created_at")} for r in rows]
        new = canonical_log(
            game["seed"],
            game["edition"],
            [o for o in (game["options"] or "").split(",") if o],
            game["snapshot"],
            raw,
        )
        if new is None:
            print(
                f"0005: game #{game['id']}: its log does not replay with this engine; left as written"
            )
            continue
        if [m["command"] for m in new] == [r["command"] for r in rows]:
            continue  # already canonical
        conn.execute(sa.delete(_MOVE).where(_MOVE.c.game_id == game["id"]))
        conn.execute(sa.insert(_MOVE), [{"game_id": game["id"], **m} for m in new])


def downgrade() -> None:
    pass  # canonical commands replay on the older engine too: nothing to undo
