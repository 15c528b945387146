"""The random generator: SplitMix64, and its form on limbs of 22, 22 and 20 bits that the compiled engine
uses, give the same numbers (a game replays the same compiled or not)."""

from __future__ import annotations

import random

import pytest

from engine import rng


def test_draw_is_splitmix64() -> None:
    # The first outputs of SplitMix64 from state 0 (Vigna's reference implementation).
    assert [rng.draw(0, n) for n in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_limbs_give_the_same_numbers_as_draw() -> None:
    r = random.Random(17)
    seeds = [0, 1, 7, (1 << 62) - 1, 1 << 62, (1 << 63) - 1, (1 << 64) - 1, -1, -(1 << 63)]
    seeds += [r.getrandbits(63) for _ in range(300)] + [r.randrange(-(1 << 63), 1 << 64) for _ in range(100)]
    counters = [0, 1, 2, (1 << 31) - 1, (1 << 32) - 1, 1 << 32, (1 << 40) + 3, (1 << 48) - 1, 1 << 48, (1 << 63) + 5]
    counters += [r.randrange(100_000) for _ in range(30)]
    for seed in seeds:
        for counter in counters:
            a2, a1, a0 = rng.limbs(seed, counter)
            assert a2 < 1 << 20 and a1 < 1 << 22 and a0 < 1 << 22
            assert a2 << 44 | a1 << 22 | a0 == rng.draw(seed, counter), (seed, counter)


@pytest.mark.parametrize("native", [False, True])
def test_below_is_the_draw_modulo_n(monkeypatch: pytest.MonkeyPatch, native: bool) -> None:
    # In Python the flag picks the form; compiled, the form is fixed at the build and the flag is ignored.
    monkeypatch.setattr(rng, "NATIVE", native)
    r = random.Random(3)
    for _ in range(3000):
        seed, counter, n = r.getrandbits(63), r.randrange(10**6), r.randrange(1, 60)
        assert rng.below(seed, counter, n) == rng.draw(seed, counter) % n


def test_shuffle_is_a_permutation_and_replays() -> None:
    items = list(range(30))
    once, used = rng.shuffled(99, 5, items)
    assert sorted(once) == items and once != items and used == 5 + 29
    assert rng.shuffled(99, 5, items) == (once, used)
