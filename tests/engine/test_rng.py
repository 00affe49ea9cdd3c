"""The seeded generator (engine/rng.py, docs/RANDOMNESS.md): SHA-256 in counter mode.

The known vectors below are also printed in docs/RANDOMNESS.md so that another program
can check its own implementation against them."""

from __future__ import annotations

import hashlib

import pytest

import engine
from engine import rng


def test_key_is_sha256_of_the_prefixed_decimal_seed() -> None:
    r = rng.new_rng(1960)
    assert r == {"key": "03cb1a3fa5e259e679bf27c6b7270bbb4c381aab1bb8e6633992f924139b1750", "n": 0}
    assert r["key"] == hashlib.sha256(b"1960:1960").hexdigest()
    assert rng.new_rng(-5)["key"] == hashlib.sha256(b"1960:-5").hexdigest()


def test_known_vector_words_and_below() -> None:
    r = rng.new_rng(1960)
    # word 0 = first 8 bytes (big-endian) of sha256(key || 0 as 8 big-endian bytes)
    digest = hashlib.sha256(bytes.fromhex(r["key"]) + (0).to_bytes(8, "big")).digest()
    assert int.from_bytes(digest[:8], "big") == 0x4BC4BB7482B2E1C7
    assert [rng.below(r, 10) for _ in range(8)] == [1, 9, 4, 6, 7, 6, 7, 1]
    assert r["n"] == 8  # no word was rejected


def test_known_vector_shuffle() -> None:
    r = rng.new_rng(1)
    items = list(range(10))
    rng.shuffle(r, items)
    assert items == [2, 0, 7, 8, 5, 4, 9, 1, 3, 6]
    assert r["n"] == 9  # Fisher-Yates from the last index down: one draw per index 9..1


def test_independent_reimplementation_agrees() -> None:
    def word(key: str, n: int) -> int:
        return int.from_bytes(
            hashlib.sha256(bytes.fromhex(key) + n.to_bytes(8, "big")).digest()[:8], "big"
        )

    for seed in (0, 1, 42, 2**40):
        r = rng.new_rng(seed)
        key = r["key"]
        for bound in (2, 3, 7, 20, 91, 1000):
            n = r["n"]
            got = rng.below(r, bound)
            limit = 2**64 - 2**64 % bound
            while word(key, n) >= limit:  # rejection sampling (practically never happens)
                n += 1
            assert got == word(key, n) % bound
            assert r["n"] == n + 1


def test_rejection_sampling_discards_words_above_the_cutoff() -> None:
    # find a state whose next word is rejected for a huge bound, to exercise the loop
    bound = 2**63 + 1  # cutoff = 2**64 - (2**63 - 1): about half of all words are rejected
    r = rng.new_rng(3)
    for _ in range(10):
        before = r["n"]
        v = rng.below(r, bound)
        assert 0 <= v < bound
        if r["n"] > before + 1:
            return
    pytest.fail("no rejection seen in 10 draws with a 50% rejection rate")


def test_below_needs_a_positive_bound() -> None:
    with pytest.raises(ValueError):
        rng.below(rng.new_rng(1), 0)


def test_the_whole_state_is_plain_data_and_determines_the_future() -> None:
    a = rng.new_rng(99)
    for _ in range(5):
        rng.below(a, 6)
    b = dict(a)
    assert [rng.below(a, 100) for _ in range(20)] == [rng.below(b, 100) for _ in range(20)]


def test_games_are_deterministic_from_the_seed() -> None:
    assert engine.to_json(engine.new_game(1)) == engine.to_json(engine.new_game(1))
    assert engine.new_game(1)["deck"] != engine.new_game(2)["deck"]
    g = engine.new_game(1)
    # docs/RANDOMNESS.md: deck shuffled first, then the endorsement deck; each side draws from
    # the end of the deck, Kennedy first
    assert g["hands"] == {"kennedy": [51, 13, 84, 47, 14, 36], "nixon": [68, 5, 17, 72, 33, 35]}
    assert g["endorse_deck"][-3:] == ["east", "west", "midwest"]


def test_uniformity_smoke() -> None:
    r = rng.new_rng(5)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(r, 6)] += 1
    assert all(900 < c < 1100 for c in counts)
