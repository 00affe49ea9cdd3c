"""Commit-reveal fair play: the byte layouts, the game export's replay, and a standalone verifier.

This one file is the scheme's home (docs/RANDOMNESS.md describes the same bytes for people):

* **commitment** = SHA-256 of the ASCII text
  ``1960-pbem/commit/v1\\ngame=<id>\\nedition=<edition>\\noptions=<o1,o2>\\nseed=<64 hex>``
  (options sorted, comma-separated, empty if none; no trailing newline), published in both
  invitations before any player entropy is known;
* **entropy** = the words a player wrote after ``accept`` (whitespace collapsed), or the
  Message-ID of the acceptance when no words were given;
* **engine seed** = the HMAC-SHA256, keyed with the 32 seed bytes, of the ASCII/UTF-8 text
  ``1960-pbem/key/v1\\ngame=<id>\\nkennedy=<sha256 hex of K entropy>\\nnixon=<sha256 hex of N entropy>``,
  read as one big-endian unsigned integer; it is passed to ``engine.new_game`` like any seed.

It needs only the Python standard library and this project's ``engine`` package (itself
standard library only), so a player can run it from any copy of the project with nothing
installed: ``python3 pbem/games/fairplay/verify.py EXPORT.json`` prints ``verified`` or the
first point of difference (exit 0 / 1; 2 for an unreadable or not yet revealed export).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __name__ == "__main__" and not __package__:  # run as a file: the engine is 3 folders up
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import engine
import engine.rng

__all__ = [
    "COMMIT_TAG",
    "EXPORT_FORMAT",
    "KEY_TAG",
    "Verdict",
    "commitment",
    "commitment_preimage",
    "engine_seed",
    "entropy_digest",
    "key_message",
    "main",
    "normalise_entropy",
    "position_hash",
    "replay_records",
    "verify_export",
]

COMMIT_TAG = "1960-pbem/commit/v1"
KEY_TAG = "1960-pbem/key/v1"
EXPORT_FORMAT = "1960-pbem-export/1"
SIDES = ("kennedy", "nixon")


# --- the scheme ----------------------------------------------------------------------------------


def commitment_preimage(game_id: int, edition: str, options: Iterable[str], seed_hex: str) -> bytes:
    """The exact bytes whose SHA-256 is the commitment."""
    opts = ",".join(sorted(set(options)))
    return (
        f"{COMMIT_TAG}\ngame={int(game_id)}\nedition={edition}\noptions={opts}\n"
        f"seed={seed_hex.lower()}"
    ).encode("ascii")


def commitment(game_id: int, edition: str, options: Iterable[str], seed_hex: str) -> str:
    """SHA-256 (hex) of `commitment_preimage`."""
    return hashlib.sha256(commitment_preimage(game_id, edition, options, seed_hex)).hexdigest()


def normalise_entropy(words: str) -> str:
    """A player's words as they count: runs of whitespace become one space, ends stripped."""
    return " ".join(words.split())


def entropy_digest(entropy: str) -> str:
    """SHA-256 (hex) of the entropy's UTF-8 bytes."""
    return hashlib.sha256(entropy.encode("utf-8")).hexdigest()


def key_message(game_id: int, entropy: dict[str, str]) -> bytes:
    """The HMAC message that mixes both players' entropy into the seed."""
    return (
        f"{KEY_TAG}\ngame={int(game_id)}\nkennedy={entropy_digest(entropy['kennedy'])}\n"
        f"nixon={entropy_digest(entropy['nixon'])}"
    ).encode("ascii")


def engine_seed(seed_hex: str, game_id: int, entropy: dict[str, str]) -> int:
    """HMAC-SHA256(seed, key message) as a big-endian integer: the seed `engine.new_game` takes."""
    mac = hmac.new(bytes.fromhex(seed_hex), key_message(game_id, entropy), hashlib.sha256)
    return int.from_bytes(mac.digest(), "big")


def position_hash(state: engine.GameState) -> str:
    """SHA-256 of the position without its log (the log is checked line by line instead)."""
    slim = {k: v for k, v in state.items() if k != "log"}
    return hashlib.sha256(
        json.dumps(slim, separators=(",", ":"), sort_keys=True).encode()
    ).hexdigest()


# --- replaying with every draw recorded ----------------------------------------------------------


@contextmanager
def _recording(draws: list[list[int]]) -> Iterator[None]:
    """Record every ``engine.rng.below(bound)`` result as ``[bound, value]`` while inside."""
    real = engine.rng.below

    def below(rng: engine.schema.Rng, n: int) -> int:
        value = real(rng, n)
        draws.append([n, value])
        return value

    engine.rng.below = below  # shuffle() looks it up here too
    try:
        yield
    finally:
        engine.rng.below = real


def _log_texts(state: engine.GameState, start: int) -> list[str]:
    return [(f"[{e['to']}] " if e.get("to") else "") + str(e["text"]) for e in state["log"][start:]]


def _setup(seed: int, edition: str, options: list[str]) -> tuple[engine.GameState, dict[str, Any]]:
    """(state, setup record): the game set up from ``seed`` with the deal's draws recorded."""
    draws: list[list[int]] = []
    with _recording(draws):
        state = engine.new_game(seed, edition=edition, options=options)
    return state, {
        "draws": draws,
        "hands": {s: list(state["hands"][s]) for s in SIDES},
        "log": _log_texts(state, 0),
        "position": position_hash(state),
    }


def _step(state: engine.GameState, side: str, command: str) -> dict[str, Any]:
    """Apply one move to ``state`` (raises `engine.CommandError`); its record."""
    draws: list[list[int]] = []
    start = len(state["log"])
    with _recording(draws):
        engine.apply_in_place(state, side, command)
    return {
        "side": side,
        "command": command,
        "draws": draws,
        "log": _log_texts(state, start),
        "position": position_hash(state),
    }


def replay_records(
    seed: int, edition: str, options: list[str], moves: Iterable[tuple[str, str]]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(setup record, one record per move): draws, new log lines and position after each step."""
    state, setup = _setup(seed, edition, options)
    return setup, [_step(state, side, command) for side, command in moves]


# --- verifying an export -------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """``ok`` and, if not, where the export and the recomputation first differ."""

    ok: bool
    message: str
    moves: int = 0
    draws: int = 0
    code: int = 0  # 0 verified, 1 a difference, 2 not verifiable (malformed, not revealed)


def _fail(where: str, code: int = 1) -> Verdict:
    return Verdict(False, where, code=code)


def _compare(where: str, mine: dict[str, Any], theirs: Any) -> str | None:
    """The first field of a setup/move record that differs, in words; None if equal."""
    if not isinstance(theirs, dict):
        return f"{where}: missing from the export"
    for i, (a, b) in enumerate(zip(mine["draws"], theirs.get("draws") or [], strict=False)):
        if list(a) != list(b):
            return (
                f"{where}: draw {i + 1} (below {a[0]}) is {b[1] if len(b) > 1 else b} in the "
                f"export but {a[1]} recomputed"
            )
    if len(mine["draws"]) != len(theirs.get("draws") or []):
        return (
            f"{where}: {len(theirs.get('draws') or [])} draws in the export, "
            f"{len(mine['draws'])} recomputed"
        )
    if "hands" in mine and mine["hands"] != theirs.get("hands"):
        return f"{where}: the dealt hands differ (export {theirs.get('hands')}, recomputed {mine['hands']})"
    for i, (a, b) in enumerate(zip(mine["log"], theirs.get("log") or [], strict=False)):
        if a != b:
            return f"{where}: log line {i + 1} is {b!r} in the export but {a!r} recomputed"
    if len(mine["log"]) != len(theirs.get("log") or []):
        return f"{where}: {len(theirs.get('log') or [])} log lines in the export, {len(mine['log'])} recomputed"
    if mine["position"] != theirs.get("position"):
        return f"{where}: the position after it differs (hash {theirs.get('position')!r}, recomputed {mine['position']})"
    return None


def verify_export(data: dict[str, Any]) -> Verdict:
    """Recompute the commitment, the engine seed, every draw and every position of an export."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        return _fail(
            f"not a game export (format {data.get('format') if isinstance(data, dict) else None!r}, "
            f"expected {EXPORT_FORMAT!r})",
            2,
        )
    try:
        game_id, edition = int(data["game"]), str(data["edition"])
        options = [str(o) for o in data["options"]]
        seed_hex, entropy = data.get("server_seed"), data["entropy"]
        pairs = _pairs(data["moves"])
    except (KeyError, TypeError, ValueError) as exc:
        return _fail(f"malformed export: {exc}", 2)
    if data.get("fixed_seed") and data.get("commitment") is None and data.get("engine_seed"):
        verdict = _replay_and_compare(int(data["engine_seed"]), edition, options, data, pairs)
        return Verdict(
            verdict.ok,
            ("started with a fixed seed, nothing was committed; replay " if verdict.ok else "")
            + verdict.message,
            verdict.moves,
            verdict.draws,
            verdict.code,
        )
    if not seed_hex:
        return _fail("not revealed yet: the server seed is published when the game ends", 2)
    try:
        seed_bytes = bytes.fromhex(str(seed_hex))
    except ValueError:
        return _fail(f"server_seed {seed_hex!r} is not hexadecimal")
    if len(seed_bytes) != 32:
        return _fail(f"server_seed has {len(seed_bytes)} bytes, expected 32")
    recomputed = commitment(game_id, edition, options, str(seed_hex))
    if recomputed != data.get("commitment"):
        return _fail(
            f"commitment: the export's {data.get('commitment')!r} is not SHA-256 of its "
            f"game, edition, options and server_seed ({recomputed})"
        )
    if not isinstance(entropy, dict) or not all(isinstance(entropy.get(s), str) for s in SIDES):
        return _fail("entropy: both players' entropy strings are needed", 2)
    seed = engine_seed(str(seed_hex), game_id, entropy)
    if str(seed) != str(data.get("engine_seed")):
        return _fail(
            f"engine seed: HMAC(server_seed, entropies) is {seed}, the export says "
            f"{data.get('engine_seed')} (the seed or an entropy was changed)"
        )
    return _replay_and_compare(seed, edition, options, data, pairs)


def _pairs(moves: Any) -> list[tuple[str, str]]:
    pairs = []
    for i, m in enumerate(moves):
        if (
            not isinstance(m, dict)
            or m.get("side") not in SIDES
            or not isinstance(m.get("command"), str)
        ):
            raise ValueError(f"move {i + 1}: malformed (needs side and command)")
        pairs.append((m["side"], m["command"]))
    return pairs


def _replay_and_compare(
    seed: int, edition: str, options: list[str], data: dict[str, Any], pairs: list[tuple[str, str]]
) -> Verdict:
    """Replay move by move, comparing each record as it is made: the first difference wins."""
    try:
        state, setup = _setup(seed, edition, options)
    except ValueError as exc:
        return _fail(f"setup: {exc}")
    problem = _compare("setup (deal)", setup, data.get("setup"))
    if problem:
        return _fail(problem)
    total = len(setup["draws"])
    for i, (side, command) in enumerate(pairs):
        where = f"move {i + 1} ({side}: {command!r})"
        try:
            record = _step(state, side, command)
        except engine.CommandError as exc:
            return _fail(f"{where} is not legal in the recomputed position: {exc}")
        problem = _compare(where, record, data["moves"][i])
        if problem:
            return _fail(problem)
        total += len(record["draws"])
    result = json.loads(json.dumps(engine.result(state)))
    if data.get("result") != result:
        return _fail(f"result: the export says {data.get('result')}, the replay gives {result}")
    return Verdict(
        True,
        f"verified: commitment, engine seed, {total} draws and {len(pairs)} positions match",
        len(pairs),
        total,
    )


def main(argv: list[str] | None = None) -> int:
    """``verify.py EXPORT.json``: print the verdict; exit 0 verified, 1 differs, 2 unusable."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print(
            "usage: python3 pbem/games/fairplay/verify.py EXPORT.json   "
            "(the export attached to the final mail, or `pbem export GAME`)",
            file=sys.stderr,
        )
        return 2
    try:
        with open(args[0], encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        print(f"cannot read {args[0]}: {reason}", file=sys.stderr)
        return 2
    verdict = verify_export(data)
    print(verdict.message if verdict.ok else f"NOT VERIFIED: {verdict.message}")
    return verdict.code


if __name__ == "__main__":
    sys.exit(main())
