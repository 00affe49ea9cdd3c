"""`pbem demo`: the whole product as a newcomer runs it, and its final board in words."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from pbem.worker.demo import final_board


def test_the_demo_plays_the_whole_product_and_prints_whole_lines(tmp_path: Path) -> None:
    """`pbem demo` as a process with its output piped: invitations, acceptances, the game,
    the reveal and the verified export, no line wrapped, and its folder removed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env |= {"TMPDIR": str(tmp_path), "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    run = subprocess.run(
        [sys.executable, "-m", "pbem", "demo"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    for words in ("commitment SHA-256", "Kennedy replies: accept", "Nixon replies: accept"):
        assert words in out
    assert re.search(r"game over: (Kennedy|Nixon) wins, electoral votes", out)
    assert re.search(r"\$ python -m pbem verify \S+/game-1-export\.json\n   verified: ", out)
    assert re.search(r"removed \S+/pbem-demo-\w+\n$", out)
    assert list(tmp_path.glob("pbem-demo-*")) == []


def test_the_demos_final_board_explains_the_unpledged_electors() -> None:
    states = {
        "AL": {"side": "kennedy", "ev": 11},
        "MS": {"side": "kennedy", "ev": 8},
        "NY": {"side": "kennedy", "ev": 45},
        "CA": {"side": "nixon", "ev": 32},
    }
    result = {"electoral_votes": {"kennedy": 45, "nixon": 32}, "unpledged": ["AL", "MS"]}
    text = final_board({"states": states}, result | {"winner": "kennedy"})  # type: ignore[arg-type]
    assert text.startswith("Kennedy wins, electoral votes Kennedy 45, Nixon 32")
    assert "states carried (Kennedy 64, Nixon 32)" in text
    assert "gives Alabama (11), Mississippi (8) to nobody, so Kennedy counts 19 fewer" in text
