"""Where each square sits on the picture: a ring of 40 cells around the centre, like the printed boards.

Squares are counted in the order of play from the start corner. Each printed board starts in its own corner
and runs its own way round (the photos in the reference folder): Turismundo from México at the bottom right
going up, the modern Mundial from SALIDA at the bottom left going right, Monopolio from Salida at the bottom
right going left.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

WIDTH, HEIGHT = 1600, 1000
MARGIN = 12
CORNER = 128
CELL = 80  # the short side of an edge square
BOARD = 2 * CORNER + 9 * CELL  # 976
BAND = 24  # the block colour bar at the inner edge of an edge square
OWNER_STRIP = 10  # the owner's colour along the outer edge
PANEL_X = MARGIN * 2 + BOARD  # 1000

# (ring index of square 0, +1 clockwise / -1 counter-clockwise); the ring counts clockwise from the bottom
# right corner.
START: dict[str, tuple[int, int]] = {
    "turismundo": (0, -1),
    "mundial": (10, -1),
    "monopolio": (0, 1),
}


@dataclass(frozen=True)
class Cell:
    x0: int
    y0: int
    x1: int
    y1: int
    side: str  # "bottom", "left", "top", "right" or "corner"
    inner: str  # the edge that faces the centre of the board: "top", "bottom", "left", "right"

    @property
    def box(self) -> tuple[int, int, int, int]:
        return self.x0, self.y0, self.x1, self.y1

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    @property
    def centre(self) -> tuple[int, int]:
        return (self.x0 + self.x1) // 2, (self.y0 + self.y1) // 2

    def band(self) -> tuple[int, int, int, int]:
        """The block colour bar along the inner edge."""
        x0, y0, x1, y1 = self.box
        return {
            "top": (x0, y0, x1, y0 + BAND),
            "bottom": (x0, y1 - BAND, x1, y1),
            "left": (x0, y0, x0 + BAND, y1),
            "right": (x1 - BAND, y0, x1, y1),
        }[self.inner]

    def outer_strip(self, thickness: int = OWNER_STRIP) -> tuple[int, int, int, int]:
        """A strip along the outer edge (the one facing the table's edge)."""
        x0, y0, x1, y1 = self.box
        return {
            "top": (x0, y1 - thickness, x1, y1),
            "bottom": (x0, y0, x1, y0 + thickness),
            "left": (x1 - thickness, y0, x1, y1),
            "right": (x0, y0, x0 + thickness, y1),
        }[self.inner]

    def body(self) -> tuple[int, int, int, int]:
        """The part between the colour bar and the owner strip, where names and prices go."""
        x0, y0, x1, y1 = self.box
        return {
            "top": (x0, y0 + BAND, x1, y1 - OWNER_STRIP),
            "bottom": (x0, y0 + OWNER_STRIP, x1, y1 - BAND),
            "left": (x0 + BAND, y0, x1 - OWNER_STRIP, y1),
            "right": (x0 + OWNER_STRIP, y0, x1 - BAND, y1),
        }[self.inner]


def _ring_cell(r: int) -> Cell:
    left, top = MARGIN, MARGIN
    right, bottom = MARGIN + BOARD, MARGIN + BOARD
    if r == 0:
        return Cell(right - CORNER, bottom - CORNER, right, bottom, "corner", "top")
    if r < 10:
        x1 = right - CORNER - (r - 1) * CELL
        return Cell(x1 - CELL, bottom - CORNER, x1, bottom, "bottom", "top")
    if r == 10:
        return Cell(left, bottom - CORNER, left + CORNER, bottom, "corner", "top")
    if r < 20:
        y1 = bottom - CORNER - (r - 11) * CELL
        return Cell(left, y1 - CELL, left + CORNER, y1, "left", "right")
    if r == 20:
        return Cell(left, top, left + CORNER, top + CORNER, "corner", "bottom")
    if r < 30:
        x0 = left + CORNER + (r - 21) * CELL
        return Cell(x0, top, x0 + CELL, top + CORNER, "top", "bottom")
    if r == 30:
        return Cell(right - CORNER, top, right, top + CORNER, "corner", "bottom")
    y0 = top + CORNER + (r - 31) * CELL
    return Cell(right - CORNER, y0, right, y0 + CELL, "right", "left")


@cache
def cells(edition: str) -> tuple[Cell, ...]:
    """The cell of each square of `edition`, by square index."""
    start, step = START.get(edition, (0, 1))
    return tuple(_ring_cell((start + step * i) % 40) for i in range(40))


CENTRE_BOX = (MARGIN + CORNER, MARGIN + CORNER, MARGIN + BOARD - CORNER, MARGIN + BOARD - CORNER)
