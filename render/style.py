"""Colours and the look of each edition's board."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine import load

RGB = tuple[int, int, int]

INK = (24, 32, 46)
CELL = (252, 248, 238)
CELL_LINE = (24, 32, 46)
MUTED = (96, 104, 118)
WHITE = (255, 255, 255)
MONEY_GREEN = (22, 120, 60)
MORTGAGE_RED = (200, 30, 40)

# Seat colours. The group colours of the editions take every strong hue (red, purple, green, orange, blue, pink,
# brown, yellow, light blue, magenta), so an owner's colour painted beside a group's band could be mistaken
# for it. These six were chosen in what is left (dark teal, olive, wine, aqua, lavender, near-black): each is at
# least MIN_GROUP_DISTANCE (CIEDE2000) from every group colour of every edition and from the cream of a free
# square, and at least MIN_SEAT_DISTANCE from the others (tests/test_render.py checks both). For colour-blind
# players the owner's letter is written on every owned square too. The olive was a lime (128, 240, 0), as light
# as Monopolio's pale green board and a free square's cream (1.06:1 and 1.38:1): hemmed in between the
# editions' yellows and greens, no lime had more; the olive has 2.4:1 and 3.1:1.
SEAT_COLOURS: tuple[RGB, ...] = (
    (0, 110, 110),  # dark teal
    (146, 148, 0),  # olive
    (100, 0, 45),  # wine
    (0, 240, 208),  # aqua
    (168, 120, 255),  # lavender
    (20, 20, 24),  # near-black
)
MIN_GROUP_DISTANCE = 20.0
MIN_SEAT_DISTANCE = 25.0

AIRLINE_BAND = (70, 84, 104)
UTILITY_BAND = (150, 140, 120)  # warm grey: far from the lavender seat


@dataclass(frozen=True)
class Theme:
    background: RGB  # the table around and inside the ring
    centre: RGB  # the disc in the middle
    centre_rim: RGB
    title: RGB  # the name in the middle
    title_outline: RGB
    panel: RGB
    panel_row: RGB
    panel_current: RGB
    panel_text: RGB
    panel_muted: RGB
    corner_go: RGB
    corner_jail: RGB
    corner_to_jail: RGB
    corner_free: RGB
    card: RGB


TURISTA = Theme(
    background=(18, 92, 178),
    centre=(62, 146, 222),
    centre_rim=(140, 200, 245),
    title=(236, 64, 38),
    title_outline=(255, 255, 255),
    panel=(14, 30, 58),
    panel_row=(26, 48, 86),
    panel_current=(44, 78, 134),
    panel_text=(245, 247, 250),
    panel_muted=(170, 186, 210),
    corner_go=(255, 214, 64),
    corner_jail=(200, 232, 250),
    corner_to_jail=(255, 150, 50),
    corner_free=(255, 226, 160),
    card=(110, 190, 240),
)

MONOPOLIO = Theme(
    background=(196, 228, 200),
    centre=(214, 238, 216),
    centre_rim=(160, 206, 168),
    title=(214, 36, 40),
    title_outline=(255, 255, 255),
    panel=(20, 44, 34),
    panel_row=(34, 68, 52),
    panel_current=(52, 104, 78),
    panel_text=(245, 250, 246),
    panel_muted=(176, 206, 188),
    corner_go=(250, 216, 96),
    corner_jail=(255, 170, 80),
    corner_to_jail=(120, 170, 230),
    corner_free=(240, 120, 110),
    card=(250, 190, 90),
)


def theme(edition: str) -> Theme:
    return MONOPOLIO if edition == "monopolio" else TURISTA


def hex_rgb(value: str) -> RGB:
    value = value.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


@cache
def block_colour(edition: str, block: str) -> RGB:
    colours = load(edition).colors
    return hex_rgb(colours[block]) if block in colours else MUTED


def seat_colour(seat: int) -> RGB:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _luminance(colour: RGB) -> float:
    """WCAG relative luminance."""

    def linear(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = colour
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def text_on(colour: RGB) -> RGB:
    """Dark ink or white, whichever has the higher WCAG contrast on `colour`."""
    lum = _luminance(colour)
    return INK if (lum + 0.05) / (_luminance(INK) + 0.05) >= 1.05 / (lum + 0.05) else WHITE


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
