"""The README's command reference and configuration cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

import engine
from engine.flow import STEPS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_command_word_has_an_example_in_the_readme() -> None:
    examples = set(re.findall(r"`([a-z]+)[ `]", README))
    missing = sorted(v for v in engine.VERBS if v not in examples)
    assert not missing, f"README command reference lacks examples for: {missing}"


def test_every_decision_step_is_covered_by_the_readme() -> None:
    """Each decision step's command words appear in the README (R-numbered tables)."""
    decisions = [name for name, step in STEPS.items() if not step.auto]
    assert len(decisions) > 20
    for name in (
        "choose_first",
        "action",
        "trigger",
        "campaign",
        "advertise",
        "position",
        "award_choice",
        "endorse_region",
        "issue_swap",
        "strategy",
        "debate_pick",
        "debate_order",
        "debate_side",
        "debate_bonus",
        "election_card",
        "election_event",
    ):
        assert name in decisions


def test_the_readme_links_the_generated_reference_instead_of_copying_it() -> None:
    assert "](docs/COMMANDS.md)" in README
    assert "- **#" not in README, "per-card lists belong in the generated docs/COMMANDS.md"


def test_the_readme_names_every_setting() -> None:
    from pbem import config

    names = set(
        re.findall(r"PBEM_[A-Z_]+", (ROOT / "pbem" / "config.py").read_text(encoding="utf-8"))
    )
    assert names
    del config
    missing = sorted(n for n in names if n not in README and n != "PBEM_")
    assert not missing, missing


def test_the_quick_start_is_two_commands() -> None:
    block = README.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line for line in block.strip().splitlines() if line.strip()]
    assert len(commands) == 2
    assert "pbem demo" in commands[0] and "scripts/test.sh" in commands[1]
