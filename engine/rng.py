"""A counter-based random generator: the n-th draw of a game depends only on its seed and n.

SplitMix64 is tiny, fast in pure Python and gives the same numbers on every machine and Python version,
so the counter stored in the state is all a replay needs (the global `random` module is never used).
"""

from __future__ import annotations

from typing import Final

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15

# Compiled (see setup.py), an int that needs more than 62 bits leaves the machine word for a heap object at
# every operation, and a product is worked out in the word only when both factors are below 2³⁰: that made
# SplitMix64 a fifth of a simulated game. There the same function is worked out on three limbs of 22, 22 and
# 20 bits, whose products and sums stay within the word (tests/test_rng.py checks that both give the same
# numbers).
NATIVE: Final = not __file__.endswith(".py")
_M22: Final = (1 << 22) - 1
_M20: Final = (1 << 20) - 1
# The three multipliers of SplitMix64 as limbs (high, middle, low).
_G2: Final = 0x9E3779B97F4A7C15 >> 44
_G1: Final = (0x9E3779B97F4A7C15 >> 22) & _M22
_G0: Final = 0x9E3779B97F4A7C15 & _M22
_B2: Final = 0xBF58476D1CE4E5B9 >> 44
_B1: Final = (0xBF58476D1CE4E5B9 >> 22) & _M22
_B0: Final = 0xBF58476D1CE4E5B9 & _M22
_C2: Final = 0x94D049BB133111EB >> 44
_C1: Final = (0x94D049BB133111EB >> 22) & _M22
_C0: Final = 0x94D049BB133111EB & _M22


def draw(seed: int, counter: int) -> int:
    """The 64-bit value number `counter` of the stream `seed`."""
    z = (seed + (counter + 1) * _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def below(seed: int, counter: int, n: int) -> int:
    """A number in range(n): `draw(seed, counter) % n` (compiled, within the machine word for n below 2¹⁴).
    The bias of a 64-bit modulo is below 1e-17 for board-game sizes."""
    if NATIVE:
        s2, s1, s0 = seed_limbs(seed)
        return below_limbs(s2, s1, s0, counter, n)
    return draw(seed, counter) % n


def below_limbs(s2: int, s1: int, s0: int, counter: int, n: int) -> int:
    """`below` for a seed already split by `seed_limbs`."""
    a2, a1, a0 = limbs_of(s2, s1, s0, counter)
    step = 4194304 % n  # 2²² mod n
    return ((a2 % n * step + a1) % n * step + a0) % n


# The last seed split into limbs: a game draws from one seed, which is often too wide for the word.
_last_seed: tuple[int, int, int, int] = (0, 0, 0, 0)


def seed_limbs(seed: int) -> tuple[int, int, int]:
    """`seed` modulo 2⁶⁴ as three limbs of 20, 22 and 22 bits (most significant first)."""
    global _last_seed
    last = _last_seed
    if last[0] == seed:
        return last[1], last[2], last[3]
    split = ((seed >> 44) & _M20, (seed >> 22) & _M22, seed & _M22)
    _last_seed = (seed, *split)
    return split


def limbs(seed: int, counter: int) -> tuple[int, int, int]:
    """`draw(seed, counter)` as three limbs of 20, 22 and 22 bits (most significant first), computed on limbs
    throughout."""
    s2, s1, s0 = seed_limbs(seed)
    return limbs_of(s2, s1, s0, counter)


def limbs_of(s2: int, s1: int, s0: int, counter: int) -> tuple[int, int, int]:
    """`limbs` for a seed already split by `seed_limbs`."""
    k = counter + 1
    k0 = k & _M22
    k1 = (k >> 22) & _M22
    k2 = (k >> 44) & _M20
    # The seed plus (counter + 1) × the golden gamma, modulo 2⁶⁴: the product's low limbs with their carries.
    t = k0 * _G0
    p0 = t & _M22
    t = (t >> 22) + k1 * _G0 + k0 * _G1
    p1 = t & _M22
    p2 = (t >> 22) + k2 * _G0 + k1 * _G1 + k0 * _G2
    t = s0 + p0
    a0 = t & _M22
    t = (t >> 22) + s1 + p1
    a1 = t & _M22
    a2 = ((t >> 22) + s2 + p2) & _M20
    # z ^= z >> 30; z *= 0xBF58476D1CE4E5B9
    a0 ^= ((a1 >> 8) | (a2 << 14)) & _M22
    a1 ^= a2 >> 8
    t = a0 * _B0
    b0 = t & _M22
    t = (t >> 22) + a1 * _B0 + a0 * _B1
    b1 = t & _M22
    b2 = ((t >> 22) + a2 * _B0 + a1 * _B1 + a0 * _B2) & _M20
    # z ^= z >> 27; z *= 0x94D049BB133111EB
    b0 ^= ((b1 >> 5) | (b2 << 17)) & _M22
    b1 ^= b2 >> 5
    t = b0 * _C0
    c0 = t & _M22
    t = (t >> 22) + b1 * _C0 + b0 * _C1
    c1 = t & _M22
    c2 = ((t >> 22) + b2 * _C0 + b1 * _C1 + b0 * _C2) & _M20
    # z ^= z >> 31
    return c2, c1 ^ (c2 >> 9), c0 ^ (((c1 >> 9) | (c2 << 13)) & _M22)


def shuffled(seed: int, counter: int, items: list) -> tuple[list, int]:
    """A Fisher-Yates shuffle of `items`; returns the new list and the counter after the draws used."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(seed, counter, i + 1)
        counter += 1
        out[i], out[j] = out[j], out[i]
    return out, counter
