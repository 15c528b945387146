"""A palette PNG written band by band, each band of rows compressed once and kept.

A board changes a few places per action (a token, the dice, a panel row); the rows in between stay the
same from one picture to the next, and across the tables of one process too. Each band of BAND_ROWS rows is
deflated on its own (a fresh compressor, ended with a sync flush, so bands can be laid end to end in one zlib
stream) and kept under a key that names everything drawn in it: a band already seen costs a dictionary
look-up, not a deflate. Pillow writes a PNG in one piece only, so the few bytes of the PNG container (chunks,
CRCs, the zlib header and its Adler-32, combined from the bands' own) are written here.

Deflate is ISA-L's (the `isal` package) when it can be imported: on a board's bands it compresses about 2.5
times as fast as zlib at level 1 and as small (70 KB against 71 KB), and its sync-flushed bands lay end to
end like zlib's. Without it, the standard zlib does the same work more slowly.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from types import ModuleType
from typing import NamedTuple

from PIL import Image

try:
    from isal import isal_zlib
except ImportError:  # a platform without a wheel: the standard zlib
    isal_zlib = None


BAND_ROWS = 8


class Deflate(NamedTuple):
    """A deflate implementation and the level used with it."""

    module: ModuleType
    level: int


# zlib level 1: measured on late boards, the fastest (about 5 ms for a whole 1100 x 688 picture) and under
# 100 KB; levels 2-3 save 5-10 % of bytes for 50 % more time, and Z_RLE neither saves time nor bytes.
ZLIB = Deflate(zlib, 1)
# ISA-L level 1 (its levels are 0-3): 2.2 ms and 75 KB for the same bands; level 0 takes half the time for a
# third more bytes (99 KB), levels 2-3 are no smaller.
ISAL = Deflate(isal_zlib, 1) if isal_zlib is not None else None
DEFLATE = ISAL or ZLIB
CACHE_BANDS = 16_384  # about 15 MB of compressed rows: every band of a few hundred boards

_ADLER_BASE = 65521
_FINAL_BLOCK = b"\x03\x00"  # an empty final fixed-Huffman block: the end of the deflate stream
_ZLIB_HEADER = b"\x78\x01"


class BandCache:
    """Compressed bands by key, least recently used dropped first; safe to share between threads."""

    def __init__(self, size: int = CACHE_BANDS) -> None:
        self.size = size
        self._bands: OrderedDict[Hashable, tuple[bytes, int, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> tuple[bytes, int, int] | None:
        return self.get_many((key,))[0]

    def get_many(self, keys: Sequence[Hashable]) -> list[tuple[bytes, int, int] | None]:
        """The bands of `keys`, None for those not kept (one lock for a whole picture)."""
        with self._lock:
            bands, found = self._bands, []
            for key in keys:
                band = bands.get(key)
                if band is not None:
                    bands.move_to_end(key)
                found.append(band)
            return found

    def put(self, key: Hashable, band: tuple[bytes, int, int]) -> None:
        self.put_many(((key, band),))

    def put_many(self, items: Iterable[tuple[Hashable, tuple[bytes, int, int]]]) -> None:
        with self._lock:
            bands = self._bands
            for key, band in items:
                bands[key] = band
                bands.move_to_end(key)
            while len(bands) > self.size:
                bands.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._bands.clear()

    def __len__(self) -> int:
        return len(self._bands)


def compress_band(raw: bytes | memoryview, deflate: Deflate = DEFLATE) -> tuple[bytes, int, int]:
    """(deflated bytes ending on a byte boundary, Adler-32 of `raw`, len(raw)): a raw deflate stream cut by a
    sync flush (an empty stored block), without a final block, so bands can follow one another."""
    z = deflate.module
    c = z.compressobj(deflate.level, zlib.DEFLATED, -15, 9)
    return c.compress(raw) + c.flush(zlib.Z_SYNC_FLUSH), z.adler32(raw), len(raw)


def _adler_combine(a1: int, a2: int, len2: int) -> int:
    """The Adler-32 of two strings laid end to end, from theirs (zlib's adler32_combine)."""
    rem = len2 % _ADLER_BASE
    sum1 = a1 & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (a2 & 0xFFFF) + _ADLER_BASE - 1
    sum2 += ((a1 >> 16) & 0xFFFF) + ((a2 >> 16) & 0xFFFF) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return sum1 | (sum2 << 16)


def scanlines(img: Image.Image) -> Image.Image:
    """A "P" picture laid out as its PNG scanlines: one column more on the left, of zeros (each row's filter
    byte: none, as a palette picture compresses best unfiltered), so that its pixel bytes are the rows the
    PNG deflates. `png` takes its pictures this way: no row is copied to be put together."""
    out = Image.new("P", (img.width + 1, img.height), 0)
    out.paste(img, (1, 0))
    return out


def _chunk(kind: bytes, data: bytes, crc32: Callable[[bytes, int], int] = zlib.crc32) -> list[bytes]:
    """A PNG chunk, as the pieces to lay end to end (the picture's rows are copied once, into the PNG)."""
    return [struct.pack(">I", len(data)), kind, data, struct.pack(">I", crc32(data, crc32(kind, 0)))]


def png(
    width: int,
    height: int,
    palette: bytes,
    keys: Sequence[Hashable],
    cache: BandCache,
    draw: Callable[[frozenset[int]], Image.Image],
    deflate: Deflate = DEFLATE,
) -> bytes:
    """The PNG of a `width` x `height` "P" picture with `palette` (768 bytes), band k named by `keys[k]`.
    `draw(missing)` gives the picture as `scanlines` lays it out (`width` + 1 wide), right at least in the
    bands numbered in `missing`; it is called only if some band is not in `cache`."""
    bands = cache.get_many(keys)
    missing = frozenset(k for k, b in enumerate(bands) if b is None)
    if missing:
        img = draw(missing)
        assert img.size == (width + 1, height) and img.mode == "P"
        pixels = memoryview(img.tobytes())
        row = (width + 1) * BAND_ROWS
        new = []
        for k in sorted(missing):
            band = compress_band(pixels[k * row : (k + 1) * row], deflate)
            new.append((keys[k], band))
            bands[k] = band
        cache.put_many(new)
    done = [b for b in bands if b is not None]
    adler = done[0][1]
    for _, band_adler, size in done[1:]:
        adler = _adler_combine(adler, band_adler, size)
    idat = b"".join([_ZLIB_HEADER, *(b[0] for b in done), _FINAL_BLOCK, struct.pack(">I", adler)])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join([
        b"\x89PNG\r\n\x1a\n",
        *_chunk(b"IHDR", header),
        *_chunk(b"PLTE", palette),
        *_chunk(b"IDAT", idat, deflate.module.crc32),  # ISA-L's CRC-32 is ten times as fast as zlib's
        *_chunk(b"IEND", b""),
    ])


def band_count(height: int) -> int:
    return -(-height // BAND_ROWS)
