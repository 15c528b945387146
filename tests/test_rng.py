"""The random generator is SplitMix64 for every seed and counter, compiled or not (a game replays the same
either way: CI runs these tests on the compiled engine too)."""

from __future__ import annotations

import random

import pytest

from engine import IllegalAction, new_game, rng


def test_draw_is_splitmix64() -> None:
    # The first outputs of SplitMix64 from state 0 (Vigna's reference implementation).
    assert [rng.draw(0, n) for n in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def reference(seed: int, counter: int) -> int:
    """SplitMix64 as Vigna writes it, on unsigned 64-bit words."""
    mask = (1 << 64) - 1
    z = (seed + (counter + 1) * 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def test_every_seed_and_counter_gives_the_reference_numbers() -> None:
    r = random.Random(17)
    seeds = [0, 1, 7, (1 << 62) - 1, 1 << 62, (1 << 63) - 1, 1 << 63, (1 << 64) - 1, 1 << 64, -1, -(1 << 63)]
    seeds += [r.getrandbits(63) for _ in range(300)] + [r.randrange(-(1 << 65), 1 << 66) for _ in range(100)]
    counters = [0, 1, 2, (1 << 31) - 1, (1 << 32) - 1, 1 << 32, (1 << 40) + 3, (1 << 48) - 1, 1 << 48, (1 << 62) - 2]
    counters += [r.randrange(100_000) for _ in range(30)]
    for seed in seeds:
        for counter in counters:
            assert rng.draw(seed, counter) == reference(seed, counter), (seed, counter)
            if -(1 << 63) <= seed < 1 << 63:  # a game's seed (engine.rules.new_game)
                for n in (1, 6, 8, 40, 1000, (1 << 31) - 1):
                    assert rng.below(seed, counter, n) == reference(seed, counter) % n, (seed, counter, n)


def test_below_is_the_draw_modulo_n() -> None:
    r = random.Random(3)
    for _ in range(3000):
        seed, counter, n = r.getrandbits(63), r.randrange(10**6), r.randrange(1, 60)
        assert rng.below(seed, counter, n) == rng.draw(seed, counter) % n


def test_a_game_needs_a_seed_of_64_bits() -> None:
    new_game("turismundo", ["Ana", "Beto"], seed=-(1 << 63))
    new_game("turismundo", ["Ana", "Beto"], seed=(1 << 63) - 1)
    for seed in (1 << 63, -(1 << 63) - 1):
        with pytest.raises(IllegalAction) as refused:
            new_game("turismundo", ["Ana", "Beto"], seed=seed)
        assert refused.value.code == "bad_seed"


def test_shuffle_is_a_permutation_and_replays() -> None:
    items = list(range(30))
    once, used = rng.shuffled(99, 5, items)
    assert sorted(once) == items and once != items and used == 5 + 29
    assert rng.shuffled(99, 5, items) == (once, used)
