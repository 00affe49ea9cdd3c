"""Prepare pbem/reports/data/card_text.json from the shared card notes (run once by a developer).

    python scripts/make_card_text.py ../shared/data/card_effects.md

Takes each card's event summary (our own words, see docs/DATA.md), drops the source
remarks marked [?] and puts the project's ruling in their place, so players read what the
engine does. The server reads only the JSON it writes (never the shared folder).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "pbem" / "reports" / "data" / "card_text.json"


def rulings(md: str) -> dict[int, str]:
    out: dict[int, str] = {}
    for line in md.splitlines():
        m = re.match(r"\| #(\d+) [^|]*\| (.*) \|$", line)
        if m:
            out[int(m.group(1))] = re.sub(r"\*\*(.*?)\*\*", r"\1", m.group(2)).strip()
    return out


def clean(text: str) -> str:
    text = re.sub(
        r"\*\*\[\?\]\*\*[^\n]*(\n(?!\n)[^\n]*)*", "", text
    )  # a [?] remark: to the paragraph's end
    text = re.sub(r"\s*\[\?\]", "", text)
    text = re.sub(r"\s*\((?:CW|JH)'s [^)]*\)", "", text)  # remarks on the sources, not the card
    text = re.sub(r"\*\*(.*?)\*\*", r"\1", text)
    text = re.sub(r"`([^`]*)`", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def main(path: str) -> None:
    md = Path(path).read_text(encoding="utf-8")
    rule = rulings(md)
    cards: dict[str, dict[str, str]] = {}
    for block in re.split(r"\n(?=### \d+\. )", md)[1:]:
        head, _, body = block.partition("\n")
        m = re.match(r"### (\d+)\. (.+)", head)
        assert m, head
        n = int(m.group(1))
        lines = body.split("\n", 1)
        # the card's text ends at the next section heading or a horizontal rule ("---")
        body = lines[1] if len(lines) > 1 else ""
        text = clean(re.split(r"\n(?:## |-{3,}[ \t]*(?:\n|$))", body)[0])
        if n in rule:
            text = (text + " Ruling: " + rule[n]).strip()
        cards[str(n)] = {"name": m.group(2).strip(), "text": text}
    for entry in cards.values():  # "Same as #14 for the East": the event itself, for that region
        same = re.match(r"Same as #14 for the (East|Midwest|West)\b(.*)$", entry["text"])
        if same:
            adjective = {"East": "Eastern", "Midwest": "Midwestern", "West": "Western"}[
                same.group(1)
            ]
            base = cards["14"]["text"].replace("Southern", adjective)
            rest = same.group(2).strip(" .")
            entry["text"] = f"{base} {rest}." if rest else base
    for entry in cards.values():  # "Same event as X (#84)": give the event itself
        twin = re.match(r"Ruling: Same event as (.+) \(#(\d+)\)\.$", entry["text"])
        if twin:
            entry["text"] = (
                cards[twin.group(2)]["text"]
                + f" (The same event as {twin.group(1)}, #{twin.group(2)}.)"
            )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(cards, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(cards)} cards -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/card_effects.md")
