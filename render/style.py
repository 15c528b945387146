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

# Seat colours: distinct from each other, readable on the cream squares and on the dark panel.
SEAT_COLOURS: tuple[RGB, ...] = (
    (229, 57, 53),  # red
    (30, 110, 230),  # blue
    (46, 160, 67),  # green
    (255, 193, 7),  # yellow
    (156, 72, 196),  # purple
    (0, 172, 178),  # teal
)

AIRLINE_BAND = (70, 84, 104)
UTILITY_BAND = (140, 148, 160)


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


def text_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 160 else WHITE
