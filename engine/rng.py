"""A counter-based random generator: the n-th draw of a game depends only on its seed and n.

SplitMix64 is tiny, fast in pure Python and gives the same numbers on every machine and Python version,
so the counter stored in the state is all a replay needs (the global `random` module is never used).
"""

from __future__ import annotations

from typing import Final

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


def draw(seed: int, counter: int) -> int:
    """The 64-bit value number `counter` of the stream `seed`."""
    z = (seed + (counter + 1) * _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def below(seed: int, counter: int, n: int) -> int:
    """A number in range(n); the bias of a 64-bit modulo is below 1e-17 for board-game sizes."""
    return draw(seed, counter) % n


def shuffled(seed: int, counter: int, items: list) -> tuple[list, int]:
    """A Fisher-Yates shuffle of `items`; returns the new list and the counter after the draws used."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(seed, counter, i + 1)
        counter += 1
        out[i], out[j] = out[j], out[i]
    return out, counter
