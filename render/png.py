"""PNG encoding fast enough to post a board after every turn.

The picture is reduced to a fixed 256-colour palette per (edition, language) before encoding: mapping to a
known palette is a table look-up, an 8-bit PNG compresses several times faster and smaller than RGB, and the
board's flat colours survive exactly. The palette is learnt once from a busy sample board (every title owned,
buildings, mortgages, six tokens, dice and a full panel), so the colours of any real game are in it.

Learning a palette is most of what a process pays before its first picture (about 0.4 s of the 0.5 s per
edition and language). A process may hand `keep_palettes` a place that keeps them between runs: a palette is
kept under a digest of its sample's very pixels and of how it is learnt, so a kept one is used only for the
same picture it was learnt from, and a release that draws the board otherwise simply learns anew.
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections.abc import Callable
from functools import cache
from typing import Protocol

import PIL
from PIL import Image

# Measured with bench/render.py on a busy late board: level 1 encodes in 9 ms to 120 KB, level 3 in 13 ms to
# 105 KB, level 6 in 23 ms to 88 KB; all well under the 250 KB budget, so the fastest wins.
COMPRESS_LEVEL = 1

_lock = threading.Lock()
_sample_renderers: dict[str, tuple[Callable[[str, str], Image.Image], int]] = {}


def register_sample(kind: str, renderer: Callable[[str, str], Image.Image], kmeans: int = 0) -> None:
    """`renderer(edition, lang)` draws the busy sample picture the palette of `kind` pictures is learnt from;
    `kmeans` refining passes sharpen the palette (each costs about as much as the first pass)."""
    _sample_renderers[kind] = (renderer, kmeans)


def palette(kind: str, edition: str, lang: str) -> Image.Image:
    with _lock:
        return _palette(kind, edition, lang)


# The flat colours of a picture (backgrounds, squares, bands, seat colours) cover many pixels each; they get
# exact palette entries so they never shift, and median cut shares the rest among anti-aliased edges.
EXACT_COLOURS = 96
EXACT_MIN_PIXELS = 300
PALETTE_BYTES = 768


class KeptPalettes(Protocol):
    """Palettes kept between processes, by key (`sample_key`): what `keep_palettes` is given."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, palette: bytes) -> None: ...


_kept: KeptPalettes | None = None


def keep_palettes(kept: KeptPalettes | None) -> None:
    """Look learnt palettes up in `kept` first, and put the ones learnt there (None: learn each in memory)."""
    global _kept
    _kept = kept


def sample_key(sample: Image.Image, kmeans: int) -> str:
    """The key of the palette learnt from `sample`: its pixels, and everything else the learning depends on."""
    h = hashlib.blake2b(digest_size=20)
    h.update(repr((sample.mode, sample.size, kmeans, EXACT_COLOURS, EXACT_MIN_PIXELS, PIL.__version__)).encode())
    h.update(sample.tobytes())
    return h.hexdigest()


@cache
def _palette(kind: str, edition: str, lang: str) -> Image.Image:
    renderer, kmeans = _sample_renderers[kind]
    sample = renderer(edition, lang)
    key = sample_key(sample, kmeans) if _kept is not None else ""
    flat = _kept.get(key) if _kept is not None else None
    if flat is None or len(flat) != PALETTE_BYTES:
        flat = learn(sample, kmeans)
        if _kept is not None:
            _kept.put(key, flat)
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def learn(sample: Image.Image, kmeans: int) -> bytes:
    """The 256 colours of a palette for pictures like `sample` (RGB triplets, `PALETTE_BYTES` bytes)."""
    counts = sorted(sample.getcolors(maxcolors=sample.width * sample.height) or [], reverse=True)
    exact = [rgb for n, rgb in counts[:EXACT_COLOURS] if n >= EXACT_MIN_PIXELS]
    rest = sample.quantize(256 - len(exact), method=Image.Quantize.MEDIANCUT, kmeans=kmeans)
    shared = (rest.getpalette() or [])[: 3 * (256 - len(exact))]
    flat = [channel for rgb in exact for channel in rgb] + shared
    return bytes(flat + [0] * (PALETTE_BYTES - len(flat)))


def to_png(img: Image.Image, pal: Image.Image | None = None, compress_level: int = COMPRESS_LEVEL) -> bytes:
    """PNG bytes of `img`, mapped to `pal` (a "P" image) when given, else quantized on its own."""
    if pal is not None:
        small = img.quantize(palette=pal, dither=Image.Dither.NONE)
    else:
        small = img.quantize(256, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    small.save(out, "PNG", compress_level=compress_level, optimize=False)
    return out.getvalue()


def encode(img: Image.Image, edition: str, lang: str, kind: str = "board") -> bytes:
    return to_png(img, palette(kind, edition, lang))


def preview(png: bytes, width: int) -> bytes:
    """`png` scaled down to `width` px wide, as Discord shows it in a channel (550 on a desktop, 350 on a
    phone): to judge a picture at the size it is read."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    if width < img.width:
        img = img.resize((width, round(img.height * width / img.width)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    img.save(out, "PNG", optimize=True)
    return out.getvalue()
