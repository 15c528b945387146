"""A counter-based random generator: the n-th draw of a game depends only on its seed and n.

SplitMix64 is tiny, fast and gives the same numbers on every machine and Python version, so the counter
stored in the state is all a replay needs (the global `random` module is never used).

It is written once for both ways the engine runs. Its values are 64-bit words typed `i64`: compiled (mypyc),
machine words, whose sums and products wrap modulo 2⁶⁴ by themselves (the build asks the C compiler to wrap,
`-fwrapv`); in Python, ints that never wrap, so each sum and product is masked to 64 bits with `_WRAP`,
which compiled is all ones and changes nothing. A word of 2⁶³ or more reads as negative compiled: its right
shifts are masked to the bits a logical shift keeps, and `below` takes such a word modulo n as the unsigned
value it stands for. tests/test_rng.py checks the numbers against the reference implementation, and CI runs
it on the compiled engine too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # only read in annotations: the sources need no mypy installed
    from mypy_extensions import i64

# Whether this module runs compiled (see setup.py).
NATIVE: Final = not __file__.endswith(".py")
_WRAP: Final[i64] = -1 if NATIVE else (1 << 64) - 1
_MASK64: Final = (1 << 64) - 1
# SplitMix64's constants as words: compiled, a word of 2⁶³ or more is negative (the same bits modulo 2⁶⁴);
# in Python they stay positive, which Python multiplies and masks faster.
_UNSIGNED: Final = 0 if NATIVE else 1 << 64
_GOLDEN: Final[i64] = 0x9E3779B97F4A7C15 - (1 << 64) + _UNSIGNED
_MIX1: Final[i64] = 0xBF58476D1CE4E5B9 - (1 << 64) + _UNSIGNED
_MIX2: Final[i64] = 0x94D049BB133111EB - (1 << 64) + _UNSIGNED


def draw(seed: int, counter: int) -> int:
    """The 64-bit value number `counter` of the stream `seed` (any int: taken modulo 2⁶⁴), from 0 to 2⁶⁴ - 1."""
    return below(((seed + (1 << 63)) & _MASK64) - (1 << 63), counter, 0) & _MASK64


def below(seed: int, counter: int, n: int) -> int:
    """A number in range(n): `draw(seed, counter) % n`, for a seed that fits a signed 64-bit word, as a game's
    does (`engine.rules.new_game`); n = 0 gives the whole value, as a word (`draw`). The bias of a 64-bit
    modulo is below 1e-17 for board-game sizes."""
    s: i64 = seed
    z: i64 = (s + (counter + 1) * _GOLDEN) & _WRAP
    # Compiled, a word of 2⁶³ or more shifts ones in from the left: each shift keeps only the bits a logical
    # shift keeps (in Python the word is never negative, and the masks would only cost time).
    shifted = z >> 30
    if NATIVE:
        shifted &= 0x3_FFFF_FFFF
    z = ((z ^ shifted) * _MIX1) & _WRAP
    shifted = z >> 27
    if NATIVE:
        shifted &= 0x1F_FFFF_FFFF
    z = ((z ^ shifted) * _MIX2) & _WRAP
    shifted = z >> 31
    if NATIVE:
        shifted &= 0x1_FFFF_FFFF
    z ^= shifted
    if n == 0:
        return z
    if z < 0:  # compiled, a word of 2⁶³ or more: its top 63 bits (a logical shift) modulo n, doubled, its last bit
        return (((z >> 1) & 0x7FFF_FFFF_FFFF_FFFF) % n * 2 + (z & 1)) % n
    return z % n


def shuffled(seed: int, counter: int, items: list) -> tuple[list, int]:
    """A Fisher-Yates shuffle of `items`; returns the new list and the counter after the draws used."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(seed, counter, i + 1)
        counter += 1
        out[i], out[j] = out[j], out[i]
    return out, counter
