"""Seeded, replayable randomness whose whole state lives in the game state.

Algorithm (documented in docs/RANDOMNESS.md so any program can recompute every
draw): SHA-256 in counter mode. The generator state is ``{"key": K, "n": N}``
where ``K`` is the hex SHA-256 of the decimal seed (``sha256(b"1960:" + str(seed))``)
and ``N`` counts 64-bit words used. Word ``N`` is the first 8 bytes, big-endian,
of ``sha256(bytes.fromhex(K) + N.to_bytes(8, "big"))``. ``below(n)`` draws an
integer in ``[0, n)`` by rejection sampling (words ``>= 2**64 - 2**64 % n``
are discarded). ``shuffle`` is Fisher-Yates from the last index down, each
``j = below(i + 1)``.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine.schema import Rng

_LIMIT = 1 << 64


def new_rng(seed: int) -> Rng:
    """Return a fresh generator state for ``seed``."""
    key = hashlib.sha256(b"1960:" + str(seed).encode()).hexdigest()
    return {"key": key, "n": 0}


_KEY_BYTES: dict[str, bytes] = {}  # hex key -> bytes (decoded once per game, not per draw)


def _key(hexkey: str) -> bytes:
    key = _KEY_BYTES.get(hexkey)
    if key is None:
        if len(_KEY_BYTES) > 4096:
            _KEY_BYTES.clear()
        key = _KEY_BYTES[hexkey] = bytes.fromhex(hexkey)
    return key


def below(rng: Rng, n: int) -> int:
    """Uniform integer in ``[0, n)``; advances the generator."""
    if n <= 0:
        raise ValueError("below() needs a positive bound")
    cutoff = _LIMIT - _LIMIT % n
    key = _key(rng["key"])
    i: int = rng["n"]
    while True:  # word i (module docstring), then i + 1 ...
        w = int.from_bytes(hashlib.sha256(key + i.to_bytes(8, "big")).digest()[:8], "big")
        i += 1
        if w < cutoff:
            rng["n"] = i
            return w % n


def shuffle(rng: Rng, items: list[Any]) -> None:
    """Shuffle ``items`` in place (Fisher-Yates)."""
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
