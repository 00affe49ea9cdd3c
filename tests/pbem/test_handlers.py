"""Each pipeline stage on its own, with a hand-made `Context`; the stages' list and modules."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest
from sqlmodel import Session

import pbem.pipeline
from pbem.mail import parse_message
from pbem.pipeline.base import Context, IgnoreMessage, RejectMessage, Stage
from pbem.pipeline.runner import STAGE_NAMES, STAGES
from pbem.pipeline.stages.dedupe import DuplicateMessage, content_hash, dedupe_key
from pbem.store.models import utcnow
from tests.pbem.harness import EMAILS, Harness, player_mail


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    harness = Harness(tmp_path)
    harness.new_game(seed=2)
    return harness


STAGES_DIR = Path(pbem.pipeline.__file__).parent / "stages"


def stage(name: str) -> Stage:
    """The pipeline's stage called ``name``."""
    (found,) = [s for s in STAGES if s.name == name]
    return found


def ctx_for(h: Harness, s: Session, raw: bytes, *, upto: str | None = None) -> Context:
    """A context that has been through the stages before ``upto``."""
    ctx = Context(s, h.settings, raw, utcnow(), "INBOX", 1, 99)
    for step in STAGES:
        if step.name == upto:
            break
        ctx.stage = step.name
        step.process(ctx)
    return ctx


def test_every_stage_is_a_small_function_in_a_module_named_after_it() -> None:
    assert len(set(STAGE_NAMES)) == len(STAGES) == 26
    modules = {p.stem for p in STAGES_DIR.glob("*.py")} - {"__init__"}
    assert modules == {name.replace("-", "_") for name in STAGE_NAMES}
    for step in STAGES:
        module = step.name.replace("-", "_")
        assert step.process.__module__ == f"pbem.pipeline.stages.{module}"
        tree = ast.parse((STAGES_DIR / f"{module}.py").read_text(encoding="utf-8"))
        assert f"``{step.name}`` stage" in (ast.get_docstring(tree) or "")
        public = [
            n.name
            for n in tree.body
            if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")
        ]
        assert step.process.__name__ in public  # with a helper for the runner at most
        assert step.description and len(inspect.getsource(step.process).splitlines()) < 60


def test_the_package_docstring_lists_the_stages_in_the_runners_order() -> None:
    doc = pbem.pipeline.__doc__ or ""
    listed = [
        name.strip()
        for line in doc.splitlines()
        if "->" in line
        for name in line.split("->")
        if name.strip()
    ]
    assert tuple(listed) == STAGE_NAMES
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", name) for name in listed)


def test_dedupe_key_normalises_the_message_id_domain_only() -> None:
    assert dedupe_key("<Abc@Example.TEST>", b"") == "mid:Abc@example.test"
    assert dedupe_key(None, b"x").startswith("sha256:")


def test_content_hash_ignores_trace_headers() -> None:
    body = b"From: a@b.test\r\nSubject: x\r\n\r\nhello\r\n"
    traced = b"Received: from mx by mx; now\r\nDelivered-To: game@x\r\n" + body
    assert content_hash(body) == content_hash(traced)
    assert content_hash(body) != content_hash(body + b"!")


def test_filter_loops_ignores_auto_submitted(h: Harness) -> None:
    raw = player_mail(
        EMAILS["kennedy"], "game@pbem.test", "x", headers={"Auto-Submitted": "auto-replied"}
    )
    with Session(h.db) as s:
        ctx = ctx_for(h, s, raw, upto="filter-loops")
        with pytest.raises(IgnoreMessage, match="automatic"):
            stage("filter-loops").process(ctx)


def test_our_own_reports_coming_back_are_ignored(h: Harness) -> None:
    own = h.sender.sent[0].raw
    with Session(h.db) as s:
        ctx = ctx_for(h, s, own, upto="filter-loops")
        with pytest.raises(IgnoreMessage):
            stage("filter-loops").process(ctx)


def test_dedupe_refuses_a_known_message(h: Harness) -> None:
    raw = h.reply_bytes("kennedy", "first kennedy")
    h.inbox.deliver(raw)
    h.poll()
    with Session(h.db) as s:
        ctx = Context(s, h.settings, raw, utcnow())
        stage("parse").process(ctx)
        with pytest.raises(DuplicateMessage):
            stage("dedupe").process(ctx)


def test_identify_seat_verifies_the_key(h: Harness) -> None:
    good = h.reply_bytes("kennedy", "first kennedy")
    key = h.last_mail("kennedy")["Reply-To"].split("+")[1].split("@")[0]
    forged = good.replace(key.encode(), (key[:-1] + ("a" if key[-1] != "a" else "b")).encode())
    with Session(h.db) as s:
        ctx = ctx_for(h, s, good, upto="check-sender")
        assert ctx.seat is not None and ctx.seat.side == "kennedy" and ctx.key is not None
    with Session(h.db) as s:  # the In-Reply-To still names the welcome: matched from there
        ctx = ctx_for(
            h,
            s,
            forged.replace(b"In-Reply-To", b"X-Old").replace(b"References", b"X-Ref"),
            upto="identify-seat",
        )
        with pytest.raises(RejectMessage) as info:  # From is a player: explain, to her only
            stage("identify-seat").process(ctx)
        assert info.value.kind == "key_problem"


def test_check_sender_drops_a_mismatched_from(h: Harness) -> None:
    raw = h.reply_bytes("kennedy", "first kennedy", frm=EMAILS["nixon"])
    with Session(h.db) as s:
        ctx = ctx_for(h, s, raw, upto="check-sender")
        with pytest.raises(IgnoreMessage, match="forgery"):
            stage("check-sender").process(ctx)
        assert ctx.seat is None  # nobody will be answered


def test_meta_commands_split_help_from_moves(h: Harness) -> None:
    raw = h.reply_bytes("kennedy", "help\nfirst kennedy")
    with Session(h.db) as s:
        ctx = ctx_for(h, s, raw, upto="meta-commands")
        stage("meta-commands").process(ctx)
        assert ctx.meta == ["help"] and ctx.lines == ["first kennedy"]


def test_apply_is_all_or_nothing(h: Harness) -> None:
    raw = h.reply_bytes("kennedy", "first kennedy\nfirst nixon")
    with Session(h.db) as s:
        ctx = ctx_for(h, s, raw, upto="apply")
        before = dict(ctx.state or {})
        with pytest.raises(RejectMessage, match="line 2"):
            stage("apply").process(ctx)
        assert ctx.new_state is None and ctx.state == before
        assert [r["ok"] for r in ctx.results] == [False, False]
        assert "all or nothing" in ctx.results[0]["message"]


def test_message_parsing_is_the_mail_layers(h: Harness) -> None:
    parsed = parse_message(h.reply_bytes("kennedy", "first kennedy"), h.settings.address)
    assert parsed.from_addr == EMAILS["kennedy"] and parsed.auto_reason is None
