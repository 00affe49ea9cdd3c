"""A whole committed game by (in-memory) mail: the seed stays secret, is revealed, and verifies.

One game is played once for the module: invitations, acceptance with entropy, an observer
added by the operator and one by a player, random legal moves to the end. The tests then
check every mail for the secret seed, the reveal in the final mails, the export attached to
them, `verify` on it, and that tampering with any part makes `verify` fail at that part.
"""

from __future__ import annotations

import copy
import json
import logging
import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlmodel import Session, select

import engine
from pbem.cli import cli
from pbem.games.fairplay.observers import add_observer
from pbem.games.fairplay.verify import commitment, engine_seed, main, position_hash, verify_export
from pbem.store.db import transaction
from pbem.store.models import Game, InboundMessage, utcnow
from tests.pbem.fairplay_helpers import (
    attachment,
    commitment_row,
    confirm_observer,
    invite,
    secrets_of,
    whole_text,
)
from tests.pbem.harness import Harness
from tests.pbem.test_no_leak import hidden_names

WATCHER, FRIEND = "watcher@observers.test", "friend@observers.test"


@dataclass
class Played:
    h: Harness
    secrets: list[str]
    final: dict[str, EmailMessage]
    export: dict[str, Any]
    observer_checks: int
    log_text: str


def observer_mails(h: Harness, address: str) -> list[EmailMessage]:
    h.mails_to("kennedy")  # parses every sent mail
    return [msg for rcpts, msg in h._parsed if address in rcpts]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    records: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda r: records.append(r.getMessage())  # type: ignore[method-assign]
    root = logging.getLogger()
    root.addHandler(handler)
    old_level = root.level
    root.setLevel(logging.DEBUG)
    try:
        yield _play(Harness(Path(tmp_path_factory.mktemp("fair"))), records)
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)


def _play(h: Harness, records: list[str]) -> Played:
    invite(h)
    h.reply("kennedy", "accept the quick brown fox")
    h.reply("nixon", "accept jumps over 1960")
    with transaction(h.db) as s:
        game = s.get(Game, h.game_id)
        assert game is not None
        add_observer(s, h.settings, game, WATCHER, added_by="operator", now=utcnow())
    h.send()
    confirm_observer(h, WATCHER)
    h.reply("nixon", "observe " + FRIEND)
    confirm_observer(h, FRIEND)
    rnd = random.Random(15)
    seen = {WATCHER: 0, FRIEND: 0}
    checks = 0
    for _ in range(3000):
        state = h.state()
        hidden = hidden_names(state, "kennedy") | hidden_names(state, "nixon")
        for address in seen:  # observer mails rendered from this position: no hidden card named
            mails = observer_mails(h, address)
            for msg in mails[seen[address] :]:
                text = whole_text(msg)
                assert not [n for n in hidden if n in text], "observer mail names hidden cards"
                assert "only you see this" not in text
                assert msg["List-Unsubscribe"] is not None
                checks += 1
            seen[address] = len(mails)
        if engine.result(state) is not None:
            break
        active = sorted(engine.active_sides(state))
        side = active[rnd.randrange(len(active))]
        h.reply(side, rnd.choice(engine.legal_commands(state, side)))
    assert engine.result(h.state()) is not None
    final = {side: h.last_mail(side) for side in engine.SIDES}
    export = attachment(final["kennedy"])
    assert export is not None
    return Played(h, secrets_of(h), final, export, checks, "\n".join(records))


def test_the_seed_is_in_no_mail_log_or_record_before_the_end(played: Played) -> None:
    h = played.h
    h.mails_to("kennedy")
    before_end = [msg for _, msg in h._parsed if "game over" not in str(msg["Subject"])]
    assert len(before_end) > 300
    for msg in before_end:
        text = whole_text(msg)
        for secret in played.secrets:
            assert secret not in text, f"{secret[:8]}... in {msg['Subject']}"
    with Session(h.db) as s:
        details = " ".join(r.detail for r in s.exec(select(InboundMessage)))
    for secret in played.secrets:
        assert secret not in details and secret not in played.log_text


def test_final_mails_reveal_the_seed_that_matches_the_commitment(played: Played) -> None:
    c = commitment_row(played.h)
    invitation = played.h.mails_to("kennedy")[0]
    assert c.commitment in whole_text(invitation).replace("\n", "").replace(" ", "")
    for side, msg in played.final.items():
        text = whole_text(msg)
        assert c.server_seed in text and c.engine_seed in text.replace("\n", "").replace(" ", "")
        assert "the quick brown fox" in text and "jumps over 1960" in text
        assert attachment(msg) == played.export, side
    e = played.export
    assert e["server_seed"] == c.server_seed
    assert commitment(e["game"], e["edition"], e["options"], e["server_seed"]) == c.commitment
    assert e["entropy"] == {"kennedy": "the quick brown fox", "nixon": "jumps over 1960"}
    assert e["engine_seed"] == str(engine_seed(c.server_seed, e["game"], e["entropy"]))


def test_observers_follow_the_public_board_to_the_end(played: Played) -> None:
    assert played.observer_checks > 100
    for address in (WATCHER, FRIEND):
        mails = observer_mails(played.h, address)
        assert "observe" in str(mails[0]["Subject"])
        last = mails[-1]
        assert "game over" in str(last["Subject"]) and attachment(last) == played.export
    nixon_notes = [m for m in played.h.mails_to("nixon") if "Observer asked" in str(m["Subject"])]
    assert len(nixon_notes) == 1


def test_the_attached_export_verifies(
    played: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    verdict = verify_export(played.export)
    assert verdict.ok, verdict.message
    assert verdict.moves == len(played.export["moves"]) > 150 and verdict.draws > 100
    path = tmp_path / "export.json"
    path.write_text(json.dumps(played.export))
    assert main([str(path)]) == 0 and capsys.readouterr().out.startswith("verified")
    out = CliRunner().invoke(cli, ["verify", str(path)])
    assert out.exit_code == 0 and "verified" in out.output


def test_the_standalone_verifier_needs_only_the_standard_library_and_the_engine(
    played: Played, tmp_path: Path
) -> None:
    """As the README says: `python3 pbem/games/fairplay/verify.py FILE` from a copy of the
    project with nothing installed (-I -S: no site-packages, no PYTHONPATH, any folder)."""
    path = tmp_path / "export.json"
    path.write_text(json.dumps(played.export))
    verifier = Path(__file__).resolve().parents[2] / "pbem" / "games" / "fairplay" / "verify.py"
    run = subprocess.run(
        [sys.executable, "-I", "-S", str(verifier), str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (run.returncode, run.stderr) == (0, "") and run.stdout.startswith("verified:")


def test_pbem_export_prints_the_same_export_after_the_end(played: Played) -> None:
    env = {
        "PBEM_DATABASE_URL": played.h.settings.database_url,
        "PBEM_ADDRESS": played.h.settings.address,
    }
    out = CliRunner().invoke(cli, ["export", str(played.h.game_id)], env=env)
    assert out.exit_code == 0
    assert json.loads(out.output) == played.export


def _first_move_with_draws(e: dict[str, Any]) -> int:
    return next(i for i, m in enumerate(e["moves"]) if m["draws"])


def _tampered(e: dict[str, Any], change: Any) -> str:
    bad = copy.deepcopy(e)
    change(bad)
    verdict = verify_export(bad)
    assert not verdict.ok and verdict.code == 1
    return verdict.message


def test_tampering_with_a_draw_fails_at_that_draw(played: Played) -> None:
    e = played.export
    i = _first_move_with_draws(e)
    bound, value = e["moves"][i]["draws"][0]

    def change(x: dict[str, Any]) -> None:
        x["moves"][i]["draws"][0] = [bound, (value + 1) % bound]

    assert _tampered(e, change).startswith(f"move {i + 1} (") and "draw 1" in _tampered(e, change)

    def deal(x: dict[str, Any]) -> None:
        x["setup"]["draws"][4][1] = (x["setup"]["draws"][4][1] + 1) % x["setup"]["draws"][4][0]

    assert _tampered(e, deal).startswith("setup (deal): draw 5")


def _effect(g: engine.GameState, side: str, command: str) -> tuple[str, list[Any]]:
    """What ``command`` does from ``g``: the position hash and the new log lines."""
    after = copy.deepcopy(g)  # the state carries its RNG: the same draws as the real move
    engine.apply_in_place(after, side, command)
    return position_hash(after), after["log"][len(g["log"]) :]


def _a_move_with_a_different_legal_choice(e: dict[str, Any]) -> tuple[int, str, str]:
    """(index, side, another legal command whose effect differs) from the middle of the game on.

    Some legal choices are the same move in effect (a debate card bound for an issue that is
    already resolved is discarded on either side: ``side kennedy`` = ``side nixon``), and a
    replay cannot tell those apart: such a tamper is no tamper. The game's seed is secret and
    new on every run, so picking the first other command made this test fail now and then.
    """
    g = engine.new_game(int(e["engine_seed"]))
    moves = e["moves"]
    for m in moves[: len(moves) // 2]:
        engine.apply_in_place(g, m["side"], m["command"])
    for i in range(len(moves) // 2, len(moves)):
        side, played_command = moves[i]["side"], moves[i]["command"]
        effect = _effect(g, side, played_command)
        for other in engine.legal_commands(g, side)[:200]:
            if other != played_command and _effect(g, side, other) != effect:
                return i, side, other
        engine.apply_in_place(g, side, played_command)
    raise AssertionError("no move of the second half had a legal choice with another effect")


def test_tampering_with_a_move_fails_at_that_move(played: Played) -> None:
    e = played.export
    i, side, other = _a_move_with_a_different_legal_choice(e)

    def change(x: dict[str, Any]) -> None:
        x["moves"][i]["command"] = other

    assert _tampered(e, change).startswith(f"move {i + 1} ({side}: {other!r})")

    def illegal(x: dict[str, Any]) -> None:
        x["moves"][i]["command"] = "support XX"

    assert _tampered(e, illegal).startswith(f"move {i + 1} ({side}: 'support XX') is not legal")

    def logline(x: dict[str, Any]) -> None:
        j = next(k for k in range(i, len(x["moves"])) if x["moves"][k]["log"])
        x["moves"][j]["log"][0] += " (edited)"

    assert "log line 1" in _tampered(e, logline)

    def position(x: dict[str, Any]) -> None:
        x["moves"][i]["position"] = "0" * 64

    assert _tampered(e, position).startswith(f"move {i + 1} (") and "position" in _tampered(
        e, position
    )


def test_tampering_with_entropy_seed_or_options_fails_before_any_draw(played: Played) -> None:
    e = played.export

    def entropy(x: dict[str, Any]) -> None:
        x["entropy"]["nixon"] = "jumps over 1961"

    assert _tampered(e, entropy).startswith("engine seed:")

    def options(x: dict[str, Any]) -> None:
        x["edition"], x["options"] = "gmt", ["vice_presidents"]

    assert _tampered(e, options).startswith("commitment:")

    def seed(x: dict[str, Any]) -> None:
        x["server_seed"] = x["server_seed"][:-1] + ("0" if x["server_seed"][-1] != "0" else "1")

    assert _tampered(e, seed).startswith("commitment:")

    def engine_seed_only(x: dict[str, Any]) -> None:
        x["engine_seed"] = str(int(x["engine_seed"]) + 1)

    assert _tampered(e, engine_seed_only).startswith("engine seed:")

    def result(x: dict[str, Any]) -> None:
        x["result"]["winner"] = "nixon" if x["result"]["winner"] == "kennedy" else "kennedy"

    assert _tampered(e, result).startswith("result:")
