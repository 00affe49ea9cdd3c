"""The fair-play scheme's byte layouts (docs/RANDOMNESS.md vectors) and that entropy changes the deal."""

from __future__ import annotations

import engine
from pbem.games.fairplay.verify import (
    commitment,
    commitment_preimage,
    engine_seed,
    normalise_entropy,
)

SEED = "ab" * 32
WORDS = {"kennedy": "ask not what your country", "nixon": "checkers 1952"}


def test_known_vectors_match_the_documented_shell_recipe() -> None:
    assert commitment_preimage(12, "zman", [], SEED) == (
        b"1960-pbem/commit/v1\ngame=12\nedition=zman\noptions=\nseed=" + SEED.encode()
    )
    assert commitment(12, "zman", [], SEED) == (
        "facdaddb828995fe6530f9f886f779a1503572dd7ea1cde7eb9f15f69e5b1fe7"
    )
    assert hex(engine_seed(SEED, 12, WORDS)) == (
        "0x5ed4ef2a59440d5a8156b6bc712f3f78d80013e0f42827136aa912fb5bbc00e1"
    )
    g = engine.new_game(engine_seed(SEED, 12, WORDS))
    assert g["rng"]["key"] != SEED  # the generator key is one more hash away


def test_commitment_binds_game_edition_options_and_seed() -> None:
    base = commitment(12, "gmt", ["vice_presidents"], SEED)
    assert commitment(12, "gmt", ["vice_presidents"], SEED.upper()) == base  # hex case-insensitive
    assert (
        len(
            {
                base,
                commitment(13, "gmt", ["vice_presidents"], SEED),
                commitment(12, "gmt", [], SEED),
                commitment(12, "gmt", ["vice_presidents"], "cd" * 32),
            }
        )
        == 4
    )


def test_a_players_entropy_changes_the_deal() -> None:
    hands = set()
    for k_words in ("ask not what your country", "ask not what your country!", "x"):
        seed = engine_seed(SEED, 12, {"kennedy": k_words, "nixon": WORDS["nixon"]})
        g = engine.new_game(seed)
        hands.add((tuple(g["hands"]["kennedy"]), tuple(g["hands"]["nixon"]), tuple(g["deck"])))
    assert len(hands) == 3
    nixon_changed = engine.new_game(engine_seed(SEED, 12, {**WORDS, "nixon": "checkers 1953"}))
    assert nixon_changed["deck"] != engine.new_game(engine_seed(SEED, 12, WORDS))["deck"]


def test_entropy_whitespace_is_normalised_but_case_and_words_count() -> None:
    assert normalise_entropy("  ask\tnot \n what ") == "ask not what"
    assert engine_seed(SEED, 1, {"kennedy": "A", "nixon": ""}) != engine_seed(
        SEED, 1, {"kennedy": "a", "nixon": ""}
    )
    swapped = {"kennedy": WORDS["nixon"], "nixon": WORDS["kennedy"]}
    assert engine_seed(SEED, 12, swapped) != engine_seed(SEED, 12, WORDS)  # sides are bound
