"""A game against a computer player is a fair-play game: the README's `pbem new --kennedy …
--nixon bot:heuristic` invites the human (commitment, the human's words), the final mail's
export verifies; with `--start` the final mail names no commitment that was never mailed."""

from __future__ import annotations

import random
import re
from pathlib import Path

from click.testing import CliRunner
from sqlmodel import Session, col, select

import engine
from pbem.cli import cli
from pbem.games.fairplay.verify import verify_export
from pbem.store.models import Game
from tests.pbem.fairplay_helpers import attachment, commitment_row, whole_text
from tests.pbem.harness import EMAILS, Harness


def pbem_new(h: Harness, *extra: str) -> None:
    env = {
        "PBEM_DATABASE_URL": h.settings.database_url,
        "PBEM_ADDRESS": h.settings.address,
        "PBEM_SECRET": h.settings.secret,
    }
    args = ["new", "--kennedy", EMAILS["kennedy"], "--nixon", "bot:heuristic", *extra]
    out = CliRunner().invoke(cli, args, env=env)
    assert out.exit_code == 0, out.output
    with Session(h.db) as s:
        h.game_id = s.exec(select(Game.id).order_by(col(Game.id).desc())).first() or 0
    h.send()


def test_the_readme_bot_example_invites_the_human_and_the_game_verifies(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    pbem_new(h)
    (invitation,) = h.mails_to("kennedy")
    text = whole_text(invitation)
    assert "Invitation" in str(invitation["Subject"]) and "the computer" in text
    assert commitment_row(h).commitment in text.replace("\n", "").replace(" ", "")
    h.reply("kennedy", "accept ask not what your country")
    rnd = random.Random(9)
    for _ in range(1500):
        state = h.state()
        if engine.result(state) is not None:
            break
        assert engine.active_sides(state) == {"kennedy"}
        h.reply("kennedy", rnd.choice(engine.legal_commands(state, "kennedy")))
    final = h.last_mail("kennedy")
    export = attachment(final)
    assert export is not None and export["entropy"]["kennedy"] == "ask not what your country"
    verdict = verify_export(export)
    assert verdict.ok, verdict.message
    body = " ".join(h.text_of(final).split())
    assert "the commitment you received with your invitation" in body
    assert "(none: a computer player)" in body


def test_with_start_the_final_mail_names_no_commitment_it_never_sent(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    pbem_new(h, "--start")
    (welcome,) = h.mails_to("kennedy")
    assert "Invitation" not in str(welcome["Subject"])
    h.reply("kennedy", "resign")
    code = re.search(r"resign ([A-Z2-7]{6})", h.text_of(h.last_mail("kennedy")))
    assert code is not None
    h.reply("kennedy", f"resign {code.group(1)}")
    final = h.last_mail("kennedy")
    body = " ".join(h.text_of(final).split())
    assert "game over" in str(final["Subject"]) and "seed" in body
    assert "received with your invitation" not in body and "without invitations" in body
