"""Where everything sits on the board picture.

The picture is 1100 x 688: Discord shows it at about half that (550 px wide on a desktop, 350 on a phone), so
every size here is twice what a reader sees in a channel. The board is the square on the left: a ring of 40
squares around the centre, like the printed boards. Tokens never stand on a square: they wait in a lane just
inside the ring, beside the square they are on, so no token hides a name, a price, a building or a mortgage.
The side panel on the right lists the seats.

Squares are counted in the order of play from the start corner. Each printed board starts in its own corner
and runs its own way round (the photos in the reference folder): Turismundo from México at the bottom right
going up, the modern Mundial from SALIDA at the bottom left going right, Monopolio from Salida at the bottom
right going left.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

WIDTH, HEIGHT = 1100, 688
MARGIN = 6
CORNER = 86
CELL = 56  # the short side of an edge square
BOARD = 2 * CORNER + 9 * CELL  # 676
BAND = 18  # the block colour bar at the inner edge of an edge square (buildings stand on it)
LANE = 38  # the strip inside the ring where tokens wait beside their square
PANEL_X = MARGIN * 2 + BOARD  # 688
PANEL_BOX = (PANEL_X, 0, WIDTH, HEIGHT)
# The middle of the board inside the token lanes: the globe, the dice, the news, the bank.
CENTRE_BOX = (
    MARGIN + CORNER + LANE,
    MARGIN + CORNER + LANE,
    MARGIN + BOARD - CORNER - LANE,
    MARGIN + BOARD - CORNER - LANE,
)
RING_INNER = (MARGIN + CORNER, MARGIN + CORNER, MARGIN + BOARD - CORNER, MARGIN + BOARD - CORNER)

# (ring index of square 0, +1 clockwise / -1 counter-clockwise); the ring counts clockwise from the bottom
# right corner.
START: dict[str, tuple[int, int]] = {
    "turismundo": (0, -1),
    "mundial": (10, -1),
    "monopolio": (0, 1),
}

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Cell:
    x0: int
    y0: int
    x1: int
    y1: int
    side: str  # "bottom", "left", "top", "right" or "corner"
    inward: tuple[int, int]  # the direction of the centre of the board: (0, -1) for the bottom row

    @property
    def box(self) -> Box:
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

    @property
    def horizontal(self) -> bool:
        """True for the top and bottom rows (their squares are taller than wide)."""
        return self.side in ("top", "bottom")

    def band(self) -> Box:
        """The block colour bar along the inner edge (edge squares only)."""
        x0, y0, x1, y1 = self.box
        return {
            (0, -1): (x0, y0, x1, y0 + BAND),
            (0, 1): (x0, y1 - BAND, x1, y1),
            (1, 0): (x1 - BAND, y0, x1, y1),
            (-1, 0): (x0, y0, x0 + BAND, y1),
        }[self.inward]

    def body(self) -> Box:
        """The square without its colour bar: where the flag, the name and the price go."""
        x0, y0, x1, y1 = self.box
        return {
            (0, -1): (x0, y0 + BAND, x1, y1),
            (0, 1): (x0, y0, x1, y1 - BAND),
            (1, 0): (x0, y0, x1 - BAND, y1),
            (-1, 0): (x0 + BAND, y0, x1, y1),
        }[self.inward]

    def lane_anchor(self) -> tuple[float, float]:
        """Where the first token on this square stands: in the lane, against the square's inner edge. For a
        corner, one step further in along the diagonal: where the two lanes meet belongs to the squares on
        either side of the corner."""
        dx, dy = self.inward
        cx, cy = self.centre
        if self.side == "corner":
            x = self.x1 if dx > 0 else self.x0
            y = self.y1 if dy > 0 else self.y0
            return x + dx * LANE * 1.35, y + dy * LANE * 1.35
        # Far enough in that the halo of the seat to act (44 px across) stays off the square.
        depth = LANE / 2 + 5
        if dx:
            edge = self.x1 if dx > 0 else self.x0
            return edge + dx * depth, cy
        edge = self.y1 if dy > 0 else self.y0
        return cx, edge + dy * depth


def _ring_cell(r: int) -> Cell:
    left, top = MARGIN, MARGIN
    right, bottom = MARGIN + BOARD, MARGIN + BOARD
    if r == 0:
        return Cell(right - CORNER, bottom - CORNER, right, bottom, "corner", (-1, -1))
    if r < 10:
        x1 = right - CORNER - (r - 1) * CELL
        return Cell(x1 - CELL, bottom - CORNER, x1, bottom, "bottom", (0, -1))
    if r == 10:
        return Cell(left, bottom - CORNER, left + CORNER, bottom, "corner", (1, -1))
    if r < 20:
        y1 = bottom - CORNER - (r - 11) * CELL
        return Cell(left, y1 - CELL, left + CORNER, y1, "left", (1, 0))
    if r == 20:
        return Cell(left, top, left + CORNER, top + CORNER, "corner", (1, 1))
    if r < 30:
        x0 = left + CORNER + (r - 21) * CELL
        return Cell(x0, top, x0 + CELL, top + CORNER, "top", (0, 1))
    if r == 30:
        return Cell(right - CORNER, top, right, top + CORNER, "corner", (-1, 1))
    y0 = top + CORNER + (r - 31) * CELL
    return Cell(right - CORNER, y0, right, y0 + CELL, "right", (-1, 0))


@cache
def cells(edition: str) -> tuple[Cell, ...]:
    """The cell of each square of `edition`, by square index."""
    start, step = START.get(edition, (0, 1))
    return tuple(_ring_cell((start + step * i) % 40) for i in range(40))
