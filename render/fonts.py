"""The bundled DejaVu fonts (data/fonts/), loaded per thread so concurrent renders never share a face."""

from __future__ import annotations

import threading
from functools import lru_cache

from PIL import ImageFont

from engine import DATA_DIR

FONT_DIR = DATA_DIR / "fonts"
FILES = {
    "regular": "DejaVuSansCondensed.ttf",
    "bold": "DejaVuSansCondensed-Bold.ttf",
    "heavy": "DejaVuSans-Bold.ttf",
}
# The Unicode ranges kept when the fonts were subset (data/fonts/README.md); other characters are dropped
# from names so that an emoji in a Discord name never becomes an empty box.
COVERED = (
    (0x20, 0x24F),
    (0x370, 0x3FF),
    (0x400, 0x4FF),
    (0x1E00, 0x1EFF),
    (0x2000, 0x206F),
    (0x20A0, 0x20CF),
    (0x2100, 0x214F),
    (0x2190, 0x21FF),
    (0x2500, 0x26FF),
)

_local = threading.local()


def font(size: int, weight: str = "bold") -> ImageFont.FreeTypeFont:
    """The font of `weight` ("regular", "bold", "heavy") at `size` px, cached for the calling thread."""
    fonts: dict[tuple[int, str], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if fonts is None:
        fonts = _local.fonts = {}
    key = (size, weight)
    if key not in fonts:
        fonts[key] = ImageFont.truetype(str(FONT_DIR / FILES[weight]), size)
    return fonts[key]


@lru_cache(maxsize=4096)
def _covered(ch: str) -> bool:
    code = ord(ch)
    return any(lo <= code <= hi for lo, hi in COVERED)


def drawable(text: str) -> str:
    """`text` without the characters the bundled fonts cannot draw, trimmed of the spaces left behind."""
    return " ".join("".join(ch for ch in text if _covered(ch)).split())
