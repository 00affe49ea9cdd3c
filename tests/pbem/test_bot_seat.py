"""Computer-played seats (``bot:KIND``): the bot answers in the same pass, is never mailed,
its moves are logged like a player's, and a bot failure never costs the human's mail."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlmodel import Session, col, select

import bots
import engine
from engine.forced import deciding_step
from pbem import errors
from pbem.cli import cli
from pbem.games import bot_catch_up
from pbem.games import setup as game_setup
from pbem.games import views as game_views
from pbem.store.models import Move, utcnow
from tests.pbem.harness import EMAILS, Harness


def bot_game(
    tmp_path: Path,
    bot: str = "bot:heuristic",
    human: str = "kennedy",
    seed: int | None = 7,
    **kw: object,
) -> Harness:
    h = Harness(tmp_path)
    seats = {"kennedy": EMAILS["kennedy"], "nixon": EMAILS["nixon"]}
    seats["nixon" if human == "kennedy" else "kennedy"] = bot
    h.game_id = game_setup.new_game(h.db, h.settings, seed=seed, **seats, **kw)  # type: ignore[arg-type]
    h.send()
    return h


def moves(h: Harness) -> list[Move]:
    with Session(h.db) as s:
        return list(s.exec(select(Move).where(Move.game_id == h.game_id).order_by(col(Move.seq))))


def test_a_whole_game_against_the_heuristic_bot(tmp_path: Path) -> None:
    human = "nixon"  # the bot plays Kennedy here; tests/pbem/test_e2e_bot.py the other way round
    h = bot_game(tmp_path, human=human, seed=3)
    bot = "nixon" if human == "kennedy" else "kennedy"
    rnd = random.Random(3)
    assert len(h.mails_to(human)) == 1  # the welcome; the bot's seat gets nothing
    mails = 0
    while engine.result(h.state()) is None:
        state = h.state()
        assert engine.active_sides(state) == {human}, "the bot left the human waiting"
        stats = h.reply(human, rnd.choice(engine.legal_commands(state, human)))
        assert stats.outcomes["applied"] == 1
        mails += 1
        assert mails < 1500
    log = moves(h)
    assert {m.side for m in log} == {"kennedy", "nixon"}
    # the bot's own decisions come with no mail
    assert sum(m.inbound_id is None for m in log if m.side == bot) > 50
    # every one of its moves is its own, with its reason (no order of the server's for it)
    assert all(m.source == "bot" and m.reason for m in log if m.side == bot)
    assert all(m.inbound_id is not None for m in log if m.side == human)
    assert [m.seq for m in log] == list(range(1, len(log) + 1))
    assert {r.recipient for r in h.outbox()} == {EMAILS[human]}
    assert mails < len(h.mails_to(human)) <= mails + 1
    assert "game over" in str(h.last_mail(human)["Subject"]).lower()
    assert game_views.replay(h.db, h.game_id).ok
    assert h.seat(bot).email == "bot:heuristic"


def test_the_bot_moves_at_once_when_it_must_decide_first(tmp_path: Path) -> None:
    for seed in range(1, 40):  # a seed where Nixon (the bot) wins the first initiative
        h = bot_game(tmp_path / str(seed), seed=seed)
        if moves(h):
            break
    else:
        pytest.skip("no seed in range gave the bot the first decision")
    assert all(m.side == "nixon" for m in moves(h))
    assert engine.active_sides(h.state()) == {"kennedy"}
    assert len(h.mails_to("kennedy")) == 1 and not [r for r in h.outbox() if r.side == "nixon"]
    assert game_views.replay(h.db, h.game_id).ok


def test_with_a_committed_seed_the_bot_also_moves_before_the_welcome(tmp_path: Path) -> None:
    """`pbem new --start` (a committed seed, no --seed): one mail, and it asks for the human's move."""
    for n in range(40):  # each game gets its own secret seed; find one where the bot (Nixon) starts
        h = bot_game(tmp_path / str(n), seed=None)
        if moves(h):
            break
    else:
        pytest.skip("no game in range gave the bot the first decision")
    assert all(m.side == "nixon" and m.inbound_id is None for m in moves(h))
    assert engine.active_sides(h.state()) == {"kennedy"}
    (welcome,) = h.mails_to("kennedy")
    assert "your move" in str(welcome["Subject"]).lower(), welcome["Subject"]
    assert game_views.replay(h.db, h.game_id).ok


def test_a_search_bot_with_a_small_budget(tmp_path: Path) -> None:
    h = bot_game(tmp_path, bot="bot:search:0.05", seed=5)
    rnd = random.Random(5)
    for _ in range(12):
        state = h.state()
        h.reply("kennedy", rnd.choice(engine.legal_commands(state, "kennedy")))
    assert any(m.side == "nixon" for m in moves(h))
    assert engine.active_sides(h.state()) == {"kennedy"}


@pytest.mark.parametrize(
    ("kennedy", "nixon", "error"),
    [
        ("jack@players.test", "bot:genius", "unknown player"),
        ("jack@players.test", "bot:heuristic:3", "only the search player takes a budget"),
        ("bot:heuristic", "bot:search", "both seats are bots"),
    ],
)
def test_bad_bot_seats_are_refused(tmp_path: Path, kennedy: str, nixon: str, error: str) -> None:
    h = Harness(tmp_path)
    with pytest.raises(errors.ServiceError, match=error):
        game_setup.new_game(h.db, h.settings, kennedy=kennedy, nixon=nixon, seed=1)


def test_a_failing_bot_keeps_the_human_move_and_catches_up_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = bot_game(tmp_path, seed=2)
    real = bots.decide

    def broken(*args: object, **kw: object) -> str:
        raise RuntimeError("the bot is broken")

    rnd = random.Random(2)
    monkeypatch.setattr(bots, "decide", broken)
    stuck = False
    for _ in range(40):  # play until the bot's turn comes
        state = h.state()
        if "nixon" in engine.active_sides(state):
            stuck = True
            break
        stats = h.reply("kennedy", rnd.choice(engine.legal_commands(state, "kennedy")))
        assert stats.outcomes["applied"] == 1 and not stats.outcomes["quarantined"]
    assert stuck
    before = len(h.mails_to("kennedy"))
    monkeypatch.setattr(bots, "decide", real)
    stats = h.poll()  # no mail: the sweep plays the bot and reports to the human
    assert stats.outcomes["bot moves"] >= 1
    assert engine.active_sides(h.state()) == {"kennedy"}
    assert len(h.mails_to("kennedy")) == before + 1
    assert game_views.replay(h.db, h.game_id).ok


def test_the_humans_standing_orders_answer_after_the_bots_move_too(tmp_path: Path) -> None:
    """'standing trigger never' holds in a game against a bot: a trigger question that the
    bot's move raises is declined for the human by the server, as it is against a human, and
    the human is mailed only for their next real decision (it asked them every time)."""
    h = bot_game(tmp_path, seed=4)
    rnd = random.Random(4)
    state = h.state()
    first = rnd.choice(engine.legal_commands(state, "kennedy"))
    assert h.reply("kennedy", f"{first}\nstanding trigger never").outcomes["applied"] == 1
    for _ in range(1500):
        state = h.state()
        if engine.result(state) is not None:
            break
        assert engine.active_sides(state) == {"kennedy"}
        legal = engine.legal_commands(state, "kennedy")
        assert sorted(legal) != ["decline", "trigger"], "asked to trigger against a standing order"
        h.reply("kennedy", rnd.choice(legal))
    log = moves(h)
    # the server's answers after the bot's move: the human's moves of a mail that come after a
    # bot move of the same pass (the mail's own lines all come before it)
    after_bot = [
        i
        for i, m in enumerate(log)
        if m.side == "kennedy"
        and any(p.inbound_id == m.inbound_id and p.side == "kennedy" for p in log[:i])
        and log[i - 1].side == "nixon"
        and log[i - 1].inbound_id is None
    ]
    # the declines of the standing order, and choices the human had no other one for
    assert "decline" in {log[i].command for i in after_bot}
    # some let the bot move again in the same pass: it thought from there, and says why
    chained = [i for i in after_bot if i + 1 < len(log) and log[i + 1].side == "nixon"]
    assert chained, "no decline was followed by the bot's move in the same pass"
    assert all(log[i + 1].inbound_id is None and log[i + 1].reason for i in chained)
    assert game_views.replay(h.db, h.game_id).ok


def test_the_catch_up_pass_also_answers_by_the_humans_standing_orders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the worker's pass plays the bot (its move failed in the mail's pass), the human's
    orders answer what they can after it, and the bot moves again from there, as after a mail."""
    h = bot_game(tmp_path, seed=5)
    real = bots.decide

    def broken(*args: object, **kw: object) -> str:
        raise RuntimeError("the bot is broken")

    rnd = random.Random(5)
    h.reply("kennedy", "standing trigger never")
    passes = 0
    while engine.result(h.state()) is None and passes < 400:
        state = h.state()
        assert engine.active_sides(state) == {"kennedy"}
        legal = engine.legal_commands(state, "kennedy")
        assert sorted(legal) != ["decline", "trigger"], "asked to trigger against a standing order"
        monkeypatch.setattr(bots, "decide", broken)
        h.reply("kennedy", rnd.choice(legal))  # the bot fails: its moves wait for the pass
        monkeypatch.setattr(bots, "decide", real)
        if "nixon" in engine.active_sides(h.state()):
            assert bot_catch_up.catch_up(h.db, h.settings, utcnow()) > 0
            passes += 1
    assert passes > 20
    declined = [m for m in moves(h) if m.side == "kennedy" and m.inbound_id is None]
    assert declined and {m.command for m in declined} >= {"decline"}
    assert game_views.replay(h.db, h.game_id).ok


def test_undo_after_the_server_answered_for_the_human_is_refused_as_after_the_bots_move(
    tmp_path: Path,
) -> None:
    """The bot moved after the human's mail and the server then declined a trigger for them:
    'undo' cannot take their mail back (the bot has decided since), and must not pretend to
    take back the server's answer alone."""
    h = bot_game(tmp_path, seed=4)
    rnd = random.Random(4)
    h.reply("kennedy", "standing trigger never")
    for _ in range(300):
        before = len(moves(h))
        h.reply("kennedy", rnd.choice(engine.legal_commands(h.state(), "kennedy")))
        new = moves(h)[before:]
        if len(new) > 2 and new[-1].side == "kennedy" and new[-2].side == "nixon":
            break  # this pass ended with the server's answer for the human
    else:
        pytest.fail("no pass ended with a server's answer for the human")
    position = h.state()
    stats = h.reply("kennedy", "undo")
    assert stats.outcomes["rejected"] == 1
    text = h.last_mail("kennedy").get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "your last mail cannot be taken back: Nixon has decided since" in " ".join(text.split())
    assert h.state() == position
    assert game_views.replay(h.db, h.game_id).ok


def _whole_action(state: engine.GameState, card: int) -> str | None:
    """A line that plays ``card`` for its CP, all into Kennedy's token's state, and ends the
    action (no support check there: Kennedy's token starts where Kennedy carries, R7.4)."""
    where = state["token"]["kennedy"]
    cp = engine.card_info(card)["cp"]
    line = f"campaign {card}: {where} {cp}"
    try:
        after = engine.apply(state, "kennedy", line)
    except engine.CommandError:
        return None
    return line if "kennedy" not in engine.active_sides(after) else None


def test_a_queued_line_is_played_after_the_bots_move_in_the_same_pass(tmp_path: Path) -> None:
    """'then' queues the human's next action: once the bot has answered the first, the server
    plays the queued line and the bot answers it too, all in the pass of one mail."""
    for seed in range(1, 30):
        h = bot_game(tmp_path / str(seed), seed=seed)
        state = h.state()
        if deciding_step(state, "kennedy") != "action":
            continue
        lines = [x for c in state["hands"]["kennedy"] if (x := _whole_action(state, c))]
        if len(lines) >= 2:
            break
    else:
        pytest.skip("no deal in range gave Kennedy two whole actions at the start")
    before = len(moves(h))
    stats = h.reply("kennedy", f"standing trigger never\n{lines[0]}\nthen\n{lines[1]}")
    assert stats.outcomes["applied"] == 1
    new = moves(h)[before:]
    queued_card = lines[1].split()[1].rstrip(":")
    played = [m for m in new if m.side == "kennedy" and m.command == f"campaign {queued_card}"]
    assert played and played[0].source == "after-bot"
    after_queued = new[new.index(played[0]) :]
    assert any(m.side == "nixon" and m.reason for m in after_queued)  # the bot answered it
    # the bot decides its own questions, each with its reason: no order of the server's
    # ('trigger useful' declined some for it, with no reason in the human's report)
    assert {m.source for m in new if m.side == "nixon"} == {"bot"}
    assert all(m.reason for m in new if m.side == "nixon")
    text = h.last_mail("kennedy").get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert f"from your queue: {lines[1]}" in " ".join(text.split())
    assert game_views.replay(h.db, h.game_id).ok
    # `pbem log` says who decided each row: the mail's own lines bare, the others marked
    env = {"PBEM_DATABASE_URL": h.settings.database_url, "PBEM_SECRET": h.settings.secret}
    out = CliRunner().invoke(cli, ["log", str(h.game_id)], env=env, catch_exceptions=False)
    rows = {line.split()[0]: line for line in out.output.splitlines() if line[:5].strip()}
    assert rows[str(played[0].seq)].endswith(
        "(done for the player by the server, after the computer's move)"
    )
    notes = {
        "bot": "(computer player)",
        "server": "(done for the player by the server)",
        "mail": "",
    }
    for m in new:
        line = rows[str(m.seq)]
        if m.source in notes:
            assert line.endswith(f"{m.command}   {notes[m.source]}".rstrip()), line
