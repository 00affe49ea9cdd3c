"""docs/COMMANDS.md is generated from the engine and the server's words
(scripts/gen_command_reference.py), never stale."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import engine
from engine.events.script import EVENTS
from pbem.server_words import SERVER_WORDS

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "gen_command_reference.py"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_command_reference", SCRIPT)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_committed_reference_is_what_the_engine_renders() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr + "\nrun: python scripts/gen_command_reference.py"


def test_the_check_fails_on_a_stale_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gen = _generator()
    stale = tmp_path / "COMMANDS.md"
    stale.write_text(gen.render().replace("`support`", "`suport`", 1), encoding="utf-8")
    monkeypatch.setattr(gen, "OUT", stale)
    monkeypatch.setattr(sys, "argv", ["gen_command_reference.py", "--check"])
    assert gen.main() == 1
    stale.write_text(gen.render(), encoding="utf-8")
    assert gen.main() == 0


def test_every_word_and_every_card_is_in_it() -> None:
    text = (ROOT / "docs" / "COMMANDS.md").read_text(encoding="utf-8")
    for word in (*engine.VERBS, *SERVER_WORDS, *engine.SYNONYMS):
        assert f"`{word}`" in text, word
    cards = [int(n) for n in re.findall(r"^### #(\d+) ", text, re.M)]
    assert cards == sorted(engine.CARDS)
    asked = text.split("## Card events", 1)[1]
    # the questions are the engine's own: prompts and legal commands of real decision steps
    assert "step `place_support`" in asked and "step `pick_state`" in asked
    assert "step `discard_replace`" in asked and "step `order_issues`" in asked
    assert len(EVENTS) > 90
