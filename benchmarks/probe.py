"""Run one `pbem` command in this process and write what it cost as JSON (used by the benchmarks).

    python benchmarks/probe.py OUT.json poll [pbem options...]

The settings come from the environment (PBEM_*), as for the real command. Every public engine
function the server calls is wrapped with a timer (only the outermost engine call counts), so
the JSON says how much of the command's time the engine took: ``rules_s`` (apply, legal commands,
views, decisions, new games) and ``json_s`` (``to_json``/``from_json``, the state's storage).
Also ``seconds`` (the command, in process, after imports), ``maxrss_kb`` (peak memory,
`resource.getrusage`), ``exit``, and CPU time (user + system, `resource.getrusage`):
``startup_cpu_s`` (interpreter and imports), ``cpu_s`` (the command after them, this process,
all its threads) and ``children_cpu_s`` (its child processes).
"""

from __future__ import annotations

import json
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine

RULES = (
    "apply",
    "apply_in_place",
    "legal_commands",
    "active_sides",
    "decision",
    "view",
    "result",
    "new_game",
    "copy_state",
    "card_info",
)
STORAGE = ("to_json", "from_json")
spent = {"rules_s": 0.0, "json_s": 0.0}
calls = {"rules": 0, "json": 0}
_depth = 0


def _wrap(fn: Callable[..., Any], bucket: str) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        global _depth
        if _depth:
            return fn(*args, **kwargs)
        _depth += 1
        t = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[f"{bucket}_s"] += time.perf_counter() - t
            calls[bucket] += 1
            _depth -= 1

    return timed


def install() -> None:
    for name in RULES:
        if hasattr(engine, name):
            setattr(engine, name, _wrap(getattr(engine, name), "rules"))
    for name in STORAGE:
        setattr(engine, name, _wrap(getattr(engine, name), "json"))


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    out, args = Path(sys.argv[1]), sys.argv[2:]
    install()
    from pbem.cli import cli  # after `install`: the server sees the wrapped engine functions

    startup_cpu = _cpu(resource.RUSAGE_SELF)
    t = time.perf_counter()
    code: int | str | None = 0
    try:
        cli.main(args=args, prog_name="pbem", standalone_mode=False)
    except SystemExit as exc:
        code = exc.code
    seconds = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cpu = {
        "startup_cpu_s": startup_cpu,
        "cpu_s": _cpu(resource.RUSAGE_SELF) - startup_cpu,
        "children_cpu_s": _cpu(resource.RUSAGE_CHILDREN),
    }
    out.write_text(
        json.dumps(
            {"seconds": seconds, "maxrss_kb": peak, "exit": code, **spent, **cpu, "calls": calls}
        )
    )
    sys.exit(code)


if __name__ == "__main__":
    main()
