"""Render docs/COMMANDS.md, the one command reference, from the engine's and the server's tables.

Nothing in it is written by hand: the words come from `engine.vocabulary` (the game's verbs and
synonyms) and `pbem.server_words` (the server's words), the decision steps from the flow's step
registry, the card texts from ``pbem/reports/data/card_text.json``, and what each event asks is found by
playing it: every event is played once, by the card's own side, in a seeded game, and each
question it asks is recorded as the engine asks it (`engine.decision`) with the commands `engine.legal_commands` offers.

    python scripts/gen_command_reference.py           # rewrite docs/COMMANDS.md
    python scripts/gen_command_reference.py --check   # exit 1 if the committed file is stale

tests/test_command_reference.py runs the check.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402  (the checkout's engine, not an installed one)
from engine.events.cards import module_of  # noqa: E402
from engine.events.script import EVENTS  # noqa: E402
from engine.flow import STEPS, top  # noqa: E402
from engine.vocabulary import SYNONYMS, VERBS  # noqa: E402
from pbem.reports.cardtext import event_text  # noqa: E402
from pbem.server_words import SERVER_WORDS  # noqa: E402

OUT = ROOT / "docs" / "COMMANDS.md"
SEED = 1960  # the seeded game every event is played in
PLAY_TO_TURN = 3  # ... from an action of this turn
# then every issue gets a leader and both sides some media (signed: + Kennedy, - Nixon, R1.4)
SAMPLE_ISSUES = {"defense": 2, "economy": -2, "civil_rights": 2}
SAMPLE_MEDIA = {"east": 1, "midwest": -1, "south": -1, "west": 1}
SHOWN = 8  # legal commands listed per question
MAX_QUESTIONS = 12  # questions recorded per event (a long event repeats the same one)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _words() -> list[str]:
    also: dict[str, list[str]] = {}
    for word, verb in sorted(SYNONYMS.items()):
        also.setdefault(verb, []).append(word)
    out = [
        "## Commands",
        "",
        "Every command a player writes starts with one of these words (R-numbers: the rules "
        "reference). Each decision mail lists the exact commands legal at that moment.",
        "",
        "| word | arguments | what it does | example | also written |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, v in VERBS.items():
        args = " ".join(a.upper() for a in v.args)
        alt = ", ".join(f"`{w}`" for w in also.get(name, []))
        out.append(f"| `{name}` | {_cell(args)} | {_cell(v.help)} | `{v.example}` | {alt} |")
    others = [f"`{w}` for `{t}`" for t, ws in sorted(also.items()) if t not in VERBS for w in ws]
    if others:
        out += ["", "Also read inside a command: " + ", ".join(others) + "."]
    out += [
        "",
        "## Server words",
        "",
        "Answered by the server, never sent to the rules engine.",
        "",
        "| word | arguments | what it does | example |",
        "| --- | --- | --- | --- |",
    ]
    for name, m in SERVER_WORDS.items():
        out.append(f"| `{name}` | {_cell(m.args)} | {_cell(m.help)} | `{m.example}` |")
    return out


def _steps() -> list[str]:
    out = [
        "",
        "## Decision steps",
        "",
        "The named steps of the game's flow that ask a player something (the name is stored in "
        "saved games; see docs/FLOW.md).",
        "",
        "| step | what it asks |",
        "| --- | --- |",
    ]
    for name in sorted(STEPS):
        step = STEPS[name]
        if step.auto:
            continue
        doc = (type(step).__doc__ or "").strip().split("\n\n")[0]
        out.append(f"| `{name}` | {_cell(' '.join(doc.split()))} |")
    return out


def _game_at_an_action(edition: str) -> engine.GameState:
    """The seeded game played at random to an action of turn 3: cubes on the board, media and
    issue leaders, so that most events find someone to act and something to choose."""
    g = engine.new_game(SEED, edition=edition)
    rnd = random.Random(SEED)
    while (f := top(g)) is not None and not (f["step"] == "action" and g["turn"] >= PLAY_TO_TURN):
        side = sorted(engine.active_sides(g))[0]
        engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
    g["issues"].update(SAMPLE_ISSUES)
    g["media"].update(SAMPLE_MEDIA)
    return g


def _hand_to(g: engine.GameState, side: str, card: int) -> None:
    """Put ``card`` in ``side``'s hand, wherever it was, in place of the hand's first card."""
    for pile in (g["deck"], g["discard"], g["removed"], *g["hands"].values()):
        if card in pile:
            pile.remove(card)
    g["hands"][side].append(card)


def _event_running(g: engine.GameState, card: int) -> bool:
    return any(f["step"] == "event" and f["card"] == card for f in g["stack"])


def _questions(card: int) -> list[str]:
    """Play ``card``'s event once and return each question it asks, as asked."""
    edition = "gmt" if engine.CARDS[card].gmt_only else "zman"
    g = _game_at_an_action(edition)
    f = top(g)
    assert f is not None
    side = f["side"]
    icon = engine.CARDS[card].icon
    if icon in engine.SIDES and icon != side:  # the card's own side plays it
        f["side"] = side = icon
    _hand_to(g, side, card)
    g["persistent"]["prevention"] = []  # no event in force prevents this one (R6.4)
    engine.apply_in_place(g, side, f"event {card}")
    asked: list[str] = []
    last = None
    for _ in range(60):
        if not _event_running(g, card) or len(asked) >= MAX_QUESTIONS:
            break
        who = sorted(engine.active_sides(g))[0]
        step = top(g)
        legal = engine.legal_commands(g, who)
        name = step["step"] if step else "?"
        if name != last:
            shown = ", ".join(f"`{c}`" for c in legal[:SHOWN])
            more = f" … ({len(legal)} in all)" if len(legal) > SHOWN else ""
            prompt = " ".join(engine.decision(g, who).split())
            asked.append(f"{who.title()}, step `{name}`: {prompt} — {shown}{more}")
            last = name
        pick = next((c for c in legal if c != "done"), legal[0])
        engine.apply_in_place(g, who, pick)
    return asked


def _events() -> list[str]:
    out = [
        "",
        "## Card events",
        "",
        "Every event is played with `event N` (R6.3) or, after the opponent played the card for "
        "CP, triggered with `trigger` for 1 momentum (R6.7), and then resolved as below. Each "
        f"event was played here once, by its own side, at an action of turn {PLAY_TO_TURN} of a "
        f"seeded game (seed {SEED}, Z-Man edition; GMT for the GMT-only cards; Kennedy leading "
        "Defense and Civil Rights, Nixon Economy, media on both sides), and every "
        "question it asked is quoted as the engine asks it, with the commands it offered then. "
        "In your game the states, counts and cards offered are those of your position, and an "
        "event whose condition does not hold (nobody leads the issue, no state qualifies) asks "
        "nothing. Answers may also be written compactly, e.g. `support OH 2, PA`.",
    ]
    for card in sorted(engine.CARDS):
        c = engine.CARDS[card]
        gmt = ", GMT only" if c.gmt_only else ""
        out += [
            "",
            f"### #{card} {c.name}",
            "",
            f"{c.cp} CP, {c.icon if c.icon != 'both' else 'both'} icon{gmt}. {event_text(card)}",
        ]
        if card not in EVENTS:
            out += ["", "Its event is not implemented: play it for CP (it is refused as an event)."]
            continue
        out[-1] += f" Script: `{module_of(card).replace('.', '/')}.py`."
        asked = _questions(card)
        if EVENTS[card].election_day and not asked:
            asked = []
            out += [
                "",
                "Asks nothing when played; it waits for Election Day (R13.4), where the "
                "initiative player orders such events with `resolve N`.",
            ]
            continue
        out += [""] + (
            [f"- {q}" for q in asked]
            if asked
            else ["Asked nothing in that position: it resolved at once."]
        )
    return out


def render() -> str:
    lines = [
        "# Command reference",
        "",
        "<!-- Generated by scripts/gen_command_reference.py from the engine's and the server's tables: "
        "do not edit by hand; tests/test_command_reference.py fails when it is stale. -->",
        "",
    ]
    lines += _words() + _steps() + _events()
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/COMMANDS.md is stale")
    args = ap.parse_args()
    text = render()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(
                f"{OUT.name} is stale: run python scripts/gen_command_reference.py", file=sys.stderr
            )
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
