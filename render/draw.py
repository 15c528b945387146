"""Drawing primitives shared by the board, the deeds and the summary: fitted text, tokens, dice, buildings."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.fonts import drawable, font
from render.style import INK, RGB, WHITE, text_on

Box = tuple[float, float, float, float]


def wrap(text: str, f: ImageFont.FreeTypeFont, width: int) -> list[str] | None:
    """Greedy word wrap of `text` into lines no wider than `width`, or None if one word is too wide.

    Each line takes the most words that fit, found by halving (a line is no narrower than its first words):
    a few measures of a line instead of one per word and two per line, as text layout is the cost."""
    words = text.split()
    lines: list[str] = []
    start = 0
    while start < len(words):
        if f.getlength(words[start]) > width:
            return None
        fits, over = start + 1, len(words) + 1  # words[start:fits] fit; words[start:over] do not (or run out)
        while over - fits > 1:
            middle = (fits + over) // 2
            if f.getlength(" ".join(words[start:middle])) <= width:
                fits = middle
            else:
                over = middle
        lines.append(" ".join(words[start:fits]))
        start = fits
    return lines


def try_fit(
    text: str,
    width: int,
    height: int,
    sizes: range | tuple[int, ...],
    weight: str = "bold",
    spacing: float = 1.1,
    max_lines: int = 99,
) -> tuple[ImageFont.FreeTypeFont, list[str], int] | None:
    """The largest of `sizes` at which `text` wraps into `width` x `height` in at most `max_lines` lines:
    (font, lines, line height), or None."""
    for size in sizes:
        candidate = font(size, weight)
        wrapped = wrap(text, candidate, width)
        step = int(size * spacing)
        if wrapped is not None and len(wrapped) <= max_lines and len(wrapped) * step <= height:
            return candidate, wrapped, step
    return None


def fit(
    text: str, width: int, height: int, sizes: range | tuple[int, ...], weight: str = "bold", spacing: float = 1.1
) -> tuple[ImageFont.FreeTypeFont, list[str], int]:
    """Like `try_fit`, falling back to the smallest size (lines may then overflow)."""
    found = try_fit(text, width, height, sizes, weight, spacing)
    if found is not None:
        return found
    f = font(sizes[-1], weight)
    return f, wrap(text, f, width) or [text], int(sizes[-1] * spacing)


def lines_centred(
    draw: ImageDraw.ImageDraw,
    cx: float,
    top: float,
    lines: list[str],
    f: ImageFont.FreeTypeFont,
    step: int,
    fill: RGB,
) -> float:
    """Draw `lines` centred on `cx` from `top`; returns the y below the last line."""
    y = top
    for line in lines:
        draw.text((cx, y), line, font=f, fill=fill, anchor="mt")
        y += step
    return y


def ellipsize(text: str, f: ImageFont.FreeTypeFont, width: float) -> str:
    """`text` cut with an ellipsis so that it fits `width`."""
    text = drawable(text)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


@lru_cache(maxsize=1024)
def ellipsized(text: str, size: int, weight: str, width: int) -> str:
    """`ellipsize` for a font given by size and weight, cached: names come back on every board."""
    return ellipsize(text, font(size, weight), width)


@lru_cache(maxsize=256)
def token(colour: RGB, letter: str, diameter: int, ring: RGB | None = None) -> Image.Image:
    """A round token with a letter, white rim and a soft shadow; `ring` adds an outer halo (whose turn it is).

    Cached and never modified: callers paste it, which is safe from several threads."""
    pad = 6 if ring else 3
    size = diameter + 2 * pad
    scale = 4  # drawn large then reduced: smooth edges without an anti-aliased ellipse primitive
    big = Image.new("RGBA", (size * scale, size * scale), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    s = scale
    if ring:
        d.ellipse((0, 0, size * s - 1, size * s - 1), fill=(*ring, 255))
    d.ellipse(((pad + 1) * s, (pad + 2) * s, (pad + diameter + 1) * s, (pad + diameter + 2) * s), fill=(0, 0, 0, 90))
    d.ellipse((pad * s, pad * s, (pad + diameter) * s, (pad + diameter) * s), fill=(*WHITE, 255))
    rim = max(2, diameter // 12) * s
    d.ellipse(
        (pad * s + rim, pad * s + rim, (pad + diameter) * s - rim, (pad + diameter) * s - rim), fill=(*colour, 255)
    )
    img = big.resize((size, size), Image.Resampling.LANCZOS)
    dd = ImageDraw.Draw(img)
    f = font(int(diameter * 0.55), "heavy")
    dd.text((size / 2, size / 2 + 1), letter, font=f, fill=(*text_on(colour), 255), anchor="mm")
    return img


def paste_centred(canvas: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    canvas.paste(sprite, (int(cx - sprite.width / 2), int(cy - sprite.height / 2)), sprite)


PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
}


@lru_cache(maxsize=16)
def die(value: int, size: int) -> Image.Image:
    """A white die showing `value`, with a shadow (cached, never modified)."""
    scale = 4
    s = size * scale
    pad = 4 * scale
    big = Image.new("RGBA", (s + pad, s + pad), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    radius = s // 6
    d.rounded_rectangle((pad, pad, s + pad - 1, s + pad - 1), radius, fill=(0, 0, 0, 80))
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius, fill=(*WHITE, 255), outline=(*INK, 255), width=scale * 2)
    pip = s // 10
    for px, py in PIPS[value]:
        x, y = px * s, py * s
        d.ellipse((x - pip, y - pip, x + pip, y + pip), fill=(*INK, 255))
    return big.resize(((s + pad) // scale, (s + pad) // scale), Image.Resampling.LANCZOS)


HOUSE = (38, 150, 70)
HOUSE_ROOF = (20, 100, 45)
HOTEL = (214, 40, 40)
HOTEL_ROOF = (150, 20, 25)


def house(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    """A restaurant / house: a green house shape with a white edge, readable on any band colour."""
    h = size / 2
    outline = [
        (cx - h, cy + h),
        (cx - h, cy - h * 0.1),
        (cx, cy - h),
        (cx + h, cy - h * 0.1),
        (cx + h, cy + h),
    ]
    draw.polygon(outline, fill=HOUSE, outline=WHITE)
    draw.line((cx - h * 0.55, cy - h * 0.05, cx, cy - h * 0.5, cx + h * 0.55, cy - h * 0.05), fill=HOUSE_ROOF)


def hotel(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A hotel: a red block with a white edge and an H."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=HOTEL, outline=WHITE, width=1)
    size = int(min(x1 - x0, y1 - y0) * 0.8)
    if size >= 7:
        draw.text(((x0 + x1) / 2, (y0 + y1) / 2 + 1), "H", font=font(size, "heavy"), fill=WHITE, anchor="mm")


def train(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: RGB) -> None:
    """A locomotive seen from the side, facing right (railroad squares)."""
    s = size / 2
    draw.rectangle((cx - s, cy - s * 0.35, cx + s * 0.55, cy + s * 0.4), fill=fill)  # boiler
    draw.rectangle((cx - s, cy - s * 0.8, cx - s * 0.35, cy + s * 0.4), fill=fill)  # cab
    draw.rectangle((cx + s * 0.2, cy - s * 0.75, cx + s * 0.42, cy - s * 0.35), fill=fill)  # chimney
    draw.polygon([(cx + s * 0.55, cy + s * 0.1), (cx + s, cy + s * 0.55), (cx + s * 0.55, cy + s * 0.55)], fill=fill)
    r = s * 0.22
    for wx in (cx - s * 0.7, cx - s * 0.15, cx + s * 0.35):
        draw.ellipse((wx - r, cy + s * 0.55 - r, wx + r, cy + s * 0.55 + r), fill=fill)


def bulb(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: RGB) -> None:
    """A light bulb (the electric company)."""
    s = size / 2
    r = s * 0.62
    draw.ellipse((cx - r, cy - s, cx + r, cy - s + 2 * r), fill=fill)
    draw.polygon(
        [(cx - r * 0.6, cy - s + 1.6 * r), (cx + r * 0.6, cy - s + 1.6 * r), (cx + s * 0.3, cy + s * 0.55),
         (cx - s * 0.3, cy + s * 0.55)],
        fill=fill,
    )
    draw.rectangle((cx - s * 0.3, cy + s * 0.62, cx + s * 0.3, cy + s), fill=fill)


def drop(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: RGB) -> None:
    """A drop of water (the water works)."""
    s = size / 2
    r = s * 0.62
    draw.ellipse((cx - r, cy + s - 2 * r, cx + r, cy + s), fill=fill)
    draw.polygon([(cx, cy - s), (cx + r * 0.95, cy + s - r * 1.3), (cx - r * 0.95, cy + s - r * 1.3)], fill=fill)


def cage(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, bars: int = 4) -> None:
    """A barred window: the jail."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=fill, outline=INK, width=2)
    for k in range(1, bars + 1):
        x = x0 + k * (x1 - x0) / (bars + 1)
        draw.line((x, y0, x, y1), fill=INK, width=3)


def plane(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: RGB) -> None:
    """A side view of a jet (airline squares), nose to the right."""
    s = size / 2
    body = [
        (cx - s, cy - s * 0.12),
        (cx + s * 0.75, cy - s * 0.12),
        (cx + s, cy),
        (cx + s * 0.75, cy + s * 0.12),
        (cx - s, cy + s * 0.12),
    ]
    draw.polygon(body, fill=fill)
    draw.polygon(
        [(cx - s * 0.1, cy), (cx + s * 0.25, cy), (cx - s * 0.35, cy + s * 0.75), (cx - s * 0.55, cy + s * 0.75)],
        fill=fill,
    )
    draw.polygon(
        [(cx - s * 0.1, cy), (cx + s * 0.25, cy), (cx - s * 0.35, cy - s * 0.75), (cx - s * 0.55, cy - s * 0.75)],
        fill=fill,
    )
    draw.polygon(
        [(cx - s, cy), (cx - s * 0.7, cy), (cx - s * 0.95, cy - s * 0.45), (cx - s * 1.05, cy - s * 0.45)], fill=fill
    )


def building(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: RGB, window: RGB) -> None:
    """A small office tower (embassy, consulate, utility squares)."""
    w, h = size * 0.5, size
    x0, y0 = cx - w / 2, cy - h / 2
    draw.rectangle((x0, y0 + h * 0.12, x0 + w, y0 + h), fill=fill)
    draw.rectangle((cx - w * 0.15, y0, cx + w * 0.15, y0 + h * 0.12), fill=fill)
    rows, cols = 4, 3
    for r in range(rows):
        for c in range(cols):
            wx = x0 + w * (0.14 + c * 0.27)
            wy = y0 + h * (0.22 + r * 0.18)
            draw.rectangle((wx, wy, wx + w * 0.16, wy + h * 0.09), fill=window)


@lru_cache(maxsize=256)
def chip_sprite(text: str, size: int, fill: RGB, ink: RGB) -> Image.Image:
    """A rounded label as a sprite (cached, never modified)."""
    f = font(size, "bold")
    w, h = int(f.getlength(text)) + 16, size + 8
    sprite = Image.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    d.rounded_rectangle((0, 0, w, h), h // 2, fill=fill)
    d.text((8, h / 2), text, font=f, fill=ink, anchor="lm")
    return sprite


def chip(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int, fill: RGB, ink: RGB) -> float:
    """A rounded label at (x, y) top-left; returns its right edge."""
    f = font(size, "bold")
    w = f.getlength(text)
    h = size + 8
    draw.rounded_rectangle((x, y, x + w + 16, y + h), h // 2, fill=fill)
    draw.text((x + 8, y + h / 2), text, font=f, fill=ink, anchor="lm")
    return x + w + 16


@lru_cache(maxsize=2048)
def _text_mask(text: str, size: int, weight: str, anchor: str) -> tuple[Image.Image, int, int]:
    """`text` rasterised once as an "L" mask, with its offset from the anchor point (cached, never modified)."""
    # FreeType's coverage of the text, laid out once: the mask ImageDraw.text would draw at ink 255, without
    # the separate layout of getbbox (text layout is most of the cost of a new string).
    core, (x0, y0) = font(size, weight).getmask2(text, "L", anchor=anchor)
    w, h = core.size
    if not w or not h:  # nothing drawn (spaces): an empty mask as wide as the text
        return Image.new("L", (max(1, w), max(1, h)), 0), x0, y0
    return Image.Image()._new(core), x0, y0


def text(
    img: Image.Image, xy: tuple[float, float], string: str, size: int, weight: str, fill: RGB, anchor: str = "la"
) -> None:
    """Draw `string` like ImageDraw.text, from a cache of rasterised strings: names and labels come back on
    every board, so each is drawn by FreeType once."""
    mask, dx, dy = _text_mask(string, size, weight, anchor)
    img.paste(fill, (int(round(xy[0])) + dx, int(round(xy[1])) + dy), mask)
