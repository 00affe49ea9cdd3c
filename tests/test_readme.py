"""The README's command reference and configuration, and the files the manuals name, cannot drift
from the code."""

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


def test_the_quick_start_is_two_commands() -> None:
    block = README.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line for line in block.strip().splitlines() if line.strip()]
    assert len(commands) == 2
    assert "pbem demo" in commands[0] and "scripts/test.sh" in commands[1]


def _configuration_rows() -> dict[str, str]:
    """README's configuration table: each variable's default cell."""
    section = README.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`PBEM_"):
            for name in re.findall(r"`(PBEM_[A-Z_]+)`", cells[0]):
                rows[name] = cells[2]
    return rows


# settings read from the environment outside `Settings` (the file's name)
ENVIRONMENT_ONLY = {"PBEM_CONFIG"}


def test_the_configuration_table_lists_every_setting_with_the_codes_default() -> None:
    from pbem.config import ENV_NAMES, EXAMPLE_ADDRESSES, EXAMPLE_SECRETS, Settings, load_settings

    rows = _configuration_rows()
    assert set(rows) == set(ENV_NAMES.values()) | ENVIRONMENT_ONLY
    defaults = Settings()
    for field, var in ENV_NAMES.items():
        cell, default = rows[var], getattr(defaults, field)
        literal = re.match(r"`([^`]*)`", cell)
        if literal is None:  # "—", or words for a computed default: the code has no value
            assert default in ("", False) or default in EXAMPLE_SECRETS | EXAMPLE_ADDRESSES, var
            continue
        env = {var: literal.group(1), "PBEM_ADDRESS": "game@site.test"}
        read = getattr(load_settings(env=env), field)
        assert read == default, f"{var}: README says {literal.group(1)}, the code {default!r}"


def test_the_verb_list_is_the_commands() -> None:
    from pbem.cli import cli

    paragraph = README.split("The CLI verbs:", 1)[1].split("(`pbem COMMAND --help`", 1)[0]
    named = {m.split()[0] for m in re.findall(r"`(?:pbem )?([a-z][^`]*)`", paragraph)}
    assert named == set(cli.commands)


def test_the_exit_statuses_are_the_codes_and_the_help() -> None:
    from click.testing import CliRunner

    from pbem.cli import cli
    from pbem.cli.app import EXIT_STATUSES

    table = re.findall(r"^\| (\d+) \| (.+) \|$", README, re.M)
    assert [(int(code), text) for code, text in table] == list(EXIT_STATUSES)
    shown = CliRunner().invoke(cli, ["--help"]).output
    for code, text in EXIT_STATUSES:
        assert f"{code:>2}  {text}" in shown


# A project path written in a manual: starts a word (not inside /var/lib/pbem/…), names a file.
_PROJECT_FILE = re.compile(
    r"(?<![\w/.~$-])(?:benchmarks|scripts|soak|pbem|engine|bots|tests|deploy|docs)/[\w/.-]+\.(?:py|sh|md|j2)\b"
)


def test_every_project_file_the_manuals_name_exists() -> None:
    """A manual that tells the reader to run or read a file the project no longer has is wrong."""
    manuals = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", *(ROOT / "docs").glob("*.md")]
    missing = {
        (m.relative_to(ROOT).as_posix(), path)
        for m in manuals
        for path in _PROJECT_FILE.findall(m.read_text(encoding="utf-8"))
        if not (ROOT / path).exists()
    }
    assert not missing, sorted(missing)
