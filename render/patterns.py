"""Owners told apart by more than hue: each seat's titles carry a pattern of their own over the seat's colour.

Under colour blindness two seat colours can look alike (the wine and the near-black under protanopia, the lime
and the aqua under tritanopia: `tests/test_patterns.py` simulates all three). The letter on every owned square
already names its owner; the pattern lets the eye gather one owner's squares around the board at a glance, as a
map for colour-blind readers does. Each pattern is drawn in `tone`, the seat's colour moved towards the ink of
its name: a difference of lightness, which every kind of colour blindness sees, and the name still reads on it.
The strokes are two or three pixels at full size, so they hold at the 550 px preview (and as a texture at 350 px).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.style import RGB, SEAT_COLOURS, text_on

# One pattern per seat, in the order of `SEAT_COLOURS`; "plain" is a pattern too (no strokes). The seats whose
# colours come closest under a simulation get patterns least alike: wine (2) rows against near-black (5)
# crosses, lime (1) dots against aqua (3) columns.
PATTERNS = ("plain", "dots", "rows", "columns", "slants", "checks")
STEP = 10  # pixels between two strokes, at full size
STROKE = 3
TONE_SHARE = 0.32  # how far the tone moves from the seat's colour towards the ink of its name


def pattern_of(seat: int) -> str:
    return PATTERNS[seat % len(PATTERNS)]


def tone(colour: RGB) -> RGB:
    """The colour of a pattern's strokes on `colour`: moved towards the ink written on it."""
    ink = text_on(colour)
    r, g, b = (round(c + (i - c) * TONE_SHARE) for c, i in zip(colour, ink, strict=True))
    return r, g, b


def paint(img: Image.Image, box: tuple[int, int, int, int], seat: int) -> None:
    """The seat's pattern over `box` of `img` (inclusive corners), which is filled with the seat's colour."""
    name = pattern_of(seat)
    if name == "plain":
        return
    x0, y0, x1, y1 = box
    w, h = x1 - x0 + 1, y1 - y0 + 1
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    patch = Image.new("RGB", (w, h), colour)
    d = ImageDraw.Draw(patch)
    ink = tone(colour)
    if name == "dots":
        for row, y in enumerate(range(STEP // 2, h, STEP)):
            for x in range(STEP // 2 + (STEP // 2) * (row % 2), w, STEP):
                d.ellipse((x - 2, y - 2, x + 2, y + 2), fill=ink)
    elif name == "rows":
        for y in range(STEP // 2, h, STEP):
            d.rectangle((0, y, w, y + STROKE - 1), fill=ink)
    elif name == "columns":
        for x in range(STEP // 2, w, STEP):
            d.rectangle((x, 0, x + STROKE - 1, h), fill=ink)
    elif name == "slants":
        # Falling to the right: a mortgage's hatching rises to the right, and is on grey.
        for k in range(-h, w, STEP):
            d.line((k, 0, k + h, h), fill=ink, width=STROKE - 1)
    elif name == "checks":
        for y in range(STEP // 2, h, STEP):
            d.rectangle((0, y, w, y + STROKE - 2), fill=ink)
        for x in range(STEP // 2, w, STEP):
            d.rectangle((x, 0, x + STROKE - 2, h), fill=ink)
    img.paste(patch, (x0, y0))
