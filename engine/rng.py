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
# SplitMix64 a fifth of a simulated game. There the same function is worked out on 16-bit limbs, whose
# products stay within the word (tests/test_rng.py checks that both give the same numbers).
NATIVE: Final = not __file__.endswith(".py")
_M16: Final = 0xFFFF


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
        a3, a2, a1, a0 = limbs(seed, counter)
        step = 65536 % n
        return (((a3 % n * step + a2) % n * step + a1) % n * step + a0) % n
    return draw(seed, counter) % n


def _times(a3: int, a2: int, a1: int, a0: int, c3: int, c2: int, c1: int, c0: int) -> tuple[int, int, int, int]:
    """The low 64 bits of a × c, both as four 16-bit limbs (most significant first)."""
    t = a0 * c0
    r0 = t & _M16
    t = (t >> 16) + a1 * c0 + a0 * c1
    r1 = t & _M16
    t = (t >> 16) + a2 * c0 + a1 * c1 + a0 * c2
    r2 = t & _M16
    t = (t >> 16) + a3 * c0 + a2 * c1 + a1 * c2 + a0 * c3
    return t & _M16, r2, r1, r0


# The last seed split into limbs: a game draws from one seed, which is often too wide for the word.
_last_seed: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)


def _seed_limbs(seed: int) -> tuple[int, int, int, int]:
    global _last_seed
    last = _last_seed
    if last[0] == seed:
        return last[1], last[2], last[3], last[4]
    split = ((seed >> 48) & _M16, (seed >> 32) & _M16, (seed >> 16) & _M16, seed & _M16)
    _last_seed = (seed, *split)
    return split


def limbs(seed: int, counter: int) -> tuple[int, int, int, int]:
    """`draw(seed, counter)` as four 16-bit limbs (most significant first), computed on limbs throughout."""
    k = counter + 1
    # (counter + 1) × the golden gamma, plus the seed, modulo 2⁶⁴.
    k3, k2, k1, k0 = (k >> 48) & _M16, (k >> 32) & _M16, (k >> 16) & _M16, k & _M16
    p3, p2, p1, p0 = _times(k3, k2, k1, k0, 0x9E37, 0x79B9, 0x7F4A, 0x7C15)
    s3, s2, s1, s0 = _seed_limbs(seed)
    t = s0 + p0
    a0 = t & _M16
    t = (t >> 16) + s1 + p1
    a1 = t & _M16
    t = (t >> 16) + s2 + p2
    a2 = t & _M16
    a3 = ((t >> 16) + s3 + p3) & _M16
    # z ^= z >> 30; z *= 0xBF58476D1CE4E5B9
    a3, a2, a1, a0 = _times(
        a3, a2 ^ (a3 >> 14), a1 ^ (((a2 >> 14) | (a3 << 2)) & _M16), a0 ^ (((a1 >> 14) | (a2 << 2)) & _M16),
        0xBF58, 0x476D, 0x1CE4, 0xE5B9,
    )  # fmt: skip
    # z ^= z >> 27; z *= 0x94D049BB133111EB
    a3, a2, a1, a0 = _times(
        a3, a2 ^ (a3 >> 11), a1 ^ (((a2 >> 11) | (a3 << 5)) & _M16), a0 ^ (((a1 >> 11) | (a2 << 5)) & _M16),
        0x94D0, 0x49BB, 0x1331, 0x11EB,
    )  # fmt: skip
    # z ^= z >> 31
    return a3, a2 ^ (a3 >> 15), a1 ^ (((a2 >> 15) | (a3 << 1)) & _M16), a0 ^ (((a1 >> 15) | (a2 << 1)) & _M16)


def shuffled(seed: int, counter: int, items: list) -> tuple[list, int]:
    """A Fisher-Yates shuffle of `items`; returns the new list and the counter after the draws used."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(seed, counter, i + 1)
        counter += 1
        out[i], out[j] = out[j], out[i]
    return out, counter
