"""National flags for the country squares, drawn from the simple shapes in `data/flags.toml`."""

from __future__ import annotations

import math
import threading
import tomllib
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine import DATA_DIR
from render.style import INK, hex_rgb

SCALE = 4  # drawn large, then reduced: smooth edges at 15 px wide
_lock = threading.Lock()


@cache
def _specs() -> dict[str, dict]:
    return tomllib.loads((DATA_DIR / "flags.toml").read_text(encoding="utf-8"))


def has_flag(square_id: str) -> bool:
    return square_id in _specs()


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.4
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _draw(spec: dict, w: int, h: int) -> Image.Image:
    img = Image.new("RGB", (w, h), hex_rgb(spec.get("field", "#ffffff")))
    d = ImageDraw.Draw(img)
    colours = [hex_rgb(c) for c in spec.get("colours", [])]
    if colours:
        weights = spec.get("weights", [1] * len(colours))
        total = sum(weights)
        start = 0.0
        for colour, weight in zip(colours, weights, strict=True):
            end = start + weight / total
            if spec["stripes"] == "h":
                d.rectangle((0, round(start * h), w, round(end * h)), fill=colour)
            else:
                d.rectangle((round(start * w), 0, round(end * w), h), fill=colour)
            start = end
    for shape in spec.get("shapes", []):
        colour = hex_rgb(shape["colour"])
        kind = shape["kind"]
        if kind in ("disc", "star"):
            cx, cy = shape["at"][0] * w, shape["at"][1] * h
            r = shape["r"] * h
            if kind == "disc":
                d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
            else:
                d.polygon(_star(cx, cy, r), fill=colour)
        elif kind == "rect":
            x0, y0, x1, y1 = shape["box"]
            d.rectangle((x0 * w, y0 * h, x1 * w, y1 * h), fill=colour)
        elif kind == "poly":
            d.polygon([(x * w, y * h) for x, y in shape["points"]], fill=colour)
        elif kind == "cross":
            half = shape["w"] * h / 2
            cx, cy = shape["at"][0] * w, shape["at"][1] * h
            d.rectangle((cx - half, 0, cx + half, h), fill=colour)
            d.rectangle((0, cy - half, w, cy + half), fill=colour)
        else:
            raise ValueError(f"unknown flag shape {kind!r}")
    return img


@lru_cache(maxsize=256)
def flag(square_id: str, w: int, h: int) -> Image.Image:
    """The flag of the country square `square_id`, `w` x `h` with a thin dark border (cached, never modified)."""
    with _lock:
        spec = _specs()[square_id]
    big = _draw(spec, w * SCALE, h * SCALE)
    small = big.resize((w, h), Image.Resampling.LANCZOS)
    ImageDraw.Draw(small).rectangle((0, 0, w - 1, h - 1), outline=INK, width=1)
    return small
