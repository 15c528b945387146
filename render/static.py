"""The printed board: everything that does not change during a game, drawn once per edition and language, and
the squares themselves as tiles (free, owned, mortgaged, built on), each drawn once and reused."""

from __future__ import annotations

import math
import threading
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine import HOTEL, Edition, Square, load
from render import draw as dr
from render import patterns
from render.flags import flag, has_flag
from render.fonts import font
from render.layout import BAND, CENTRE_BOX, HEIGHT, MARGIN, PANEL_X, RING_INNER, WIDTH, Cell, cells
from render.style import (
    AIRLINE_BAND,
    CELL,
    CELL_LINE,
    INK,
    MONEY_GREEN,
    MORTGAGE_RED,
    MUTED,
    RGB,
    UTILITY_BAND,
    WHITE,
    Theme,
    block_colour,
    seat_colour,
    text_on,
    theme,
)
from render.texts import cash, label, phrase, short_cash, short_name, square_name

_lock = threading.Lock()
JAIL_CELL = (255, 236, 200)
MORTGAGE_GREY = (206, 208, 214)
TITLE_KINDS = ("country", "airline", "utility")


def printed_board(edition: str, lang: str) -> Image.Image:
    """The static board of `edition` in `lang` (RGB, full picture size, every square free). Shared: copy it
    before drawing on it."""
    with _lock:
        return _printed_board(edition, lang)


@cache
def _printed_board(edition: str, lang: str) -> Image.Image:
    ed = load(edition)
    th = theme(edition)
    img = Image.new("RGB", (WIDTH, HEIGHT), th.background)
    d = ImageDraw.Draw(img)
    d.rectangle((PANEL_X, 0, WIDTH, HEIGHT), fill=th.panel)
    _centre(d, ed, th, lang)
    for sq, cell in zip(ed.squares, cells(edition), strict=True):
        img.paste(tile(edition, lang, sq.index), (cell.x0, cell.y0))
    return img


# -- the middle of the board -------------------------------------------------------------------------------
def _centre(d: ImageDraw.ImageDraw, ed: Edition, th: Theme, lang: str) -> None:
    x0, y0, x1, y1 = RING_INNER
    d.rectangle((x0, y0, x1, y1), fill=th.background)
    cx0, cy0, cx1, cy1 = CENTRE_BOX
    cx, cy = (cx0 + cx1) / 2, (cy0 + cy1) / 2
    r = (cx1 - cx0) / 2 - 4
    d.ellipse((cx - r - 6, cy - r - 6, cx + r + 6, cy + r + 6), fill=th.centre_rim)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=th.centre)
    if ed.id != "monopolio":
        # Meridians and parallels: the globe in the middle of the Turista boards.
        for k in (-2, -1, 1, 2):
            rr = r * (1 - abs(k) * 0.3)
            d.ellipse((cx - rr, cy - r, cx + rr, cy + r), outline=th.centre_rim, width=2)
            yy = cy + k * r * 0.38
            half = (r**2 - (yy - cy) ** 2) ** 0.5
            d.line((cx - half, yy, cx + half, yy), fill=th.centre_rim, width=2)
        d.line((cx, cy - r, cx, cy + r), fill=th.centre_rim, width=2)
        d.line((cx - r, cy, cx + r, cy), fill=th.centre_rim, width=2)
    logo = label(lang, f"board.logo_{ed.id}").replace("\n", " ")
    size = 40
    while size > 24 and font(size, "heavy").getlength(logo) > (cx1 - cx0) - 140:
        size -= 1
    d.text(
        (cx, cy0 + 40),
        logo,
        font=font(size, "heavy"),
        fill=th.title,
        anchor="mt",
        stroke_width=4,
        stroke_fill=th.title_outline,
    )


# -- squares ----------------------------------------------------------------------------------------------
def band_colour(ed: Edition, sq: Square) -> RGB | None:
    if sq.kind == "country":
        return block_colour(ed.id, sq.block)
    return {"airline": AIRLINE_BAND, "utility": UTILITY_BAND}.get(sq.kind)


@lru_cache(maxsize=1024)
def tile(
    edition: str, lang: str, square: int, owner: int = -1, mortgaged: bool = False, level: int = 0, letter: str = ""
) -> Image.Image:
    """Square `square` as it looks with this owner (-1: free; `letter` is the owner's), mortgage and buildings:
    an RGB tile the size of its cell (cached, never modified)."""
    ed = load(edition)
    cell = cells(edition)[square]
    img = Image.new("RGB", (cell.width, cell.height), CELL)
    d = ImageDraw.Draw(img)
    local = Cell(0, 0, cell.width, cell.height, cell.side, cell.inward)
    sq = ed.squares[square]
    if cell.side == "corner":
        _corner(d, ed, sq, local, lang)
    elif sq.kind in TITLE_KINDS:
        _title(img, d, ed, sq, local, lang, owner, mortgaged, level, letter)
    else:
        _special(d, ed, sq, local, lang)
    d.rectangle((0, 0, cell.width - 1, cell.height - 1), outline=CELL_LINE, width=1)
    return img


def _title(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    ed: Edition,
    sq: Square,
    cell: Cell,
    lang: str,
    owner: int,
    mortgaged: bool,
    level: int,
    letter: str,
) -> None:
    bx0, by0, bx1, by1 = cell.body()
    colour = seat_colour(owner) if owner >= 0 else CELL
    if mortgaged:
        _hatch(img, cell.body(), colour)
    else:
        d.rectangle((bx0, by0, bx1, by1), fill=colour)
        if owner >= 0:
            patterns.paint(img, (bx0, by0, bx1, by1), owner)
    ink = text_on(colour) if owner >= 0 and not mortgaged else INK
    band = cell.band()
    d.rectangle(band, fill=band_colour(ed, sq))
    # A mortgaged title has no buildings: its owner's letter goes on the bar, beside the bar's icon if it has one
    # (below the stamp, a name of two lines takes the body's height, and the letter's patch covered it).
    letter_on_band = owner >= 0 and mortgaged
    iconic = sq.kind != "country"
    _band_icon(d, ed, sq, _band_part(cell, ICON_PART) if letter_on_band and iconic else band)
    if level:
        _buildings(d, band, level)
    w = bx1 - bx0
    cx = (bx0 + bx1) / 2
    tall = cell.horizontal
    y = by0 + (5 if tall else 3)
    if mortgaged:
        # The stamp takes the flag's place: the name stays below it, the owner's letter goes on the bar.
        tag = label(lang, "board.mortgaged_short")
        f = font(13 if tall else 12, "heavy")
        tw = f.getlength(tag)
        th_ = 18 if tall else 16
        d.rounded_rectangle((cx - tw / 2 - 4, y, cx + tw / 2 + 4, y + th_), 4, fill=MORTGAGE_RED, outline=WHITE)
        d.text((cx, y + th_ / 2 + 1), tag, font=f, fill=WHITE, anchor="mm")
        y += th_ + 3
    elif has_flag(sq.id):
        fw, fh = (30, 20) if tall else (26, 17)
        img.paste(flag(sq.id, fw, fh), (int(cx - fw / 2), int(y)))
        y += fh + 3
    name = short_name(ed.id, sq.index, lang)
    one_line = has_flag(sq.id) or sq.kind != "country"
    found = dr.try_fit(name, w - 4, 34, (17, 16, 15, 14, 13, 12, 11), "bold", 1.0, max_lines=1 if one_line else 2)
    f, lines, step = found or dr.fit(name, w - 4, 34, (13, 12, 11, 10), "bold", 1.0)
    if mortgaged:
        for k, line in enumerate(lines):
            d.text((cx, y + k * step), line, font=f, fill=INK, anchor="mt", stroke_width=2, stroke_fill=WHITE)
    else:
        dr.lines_centred(d, cx, y, lines, f, step, ink)
    bottom = by1 - (4 if tall else 3)
    if owner >= 0:
        size = 22 if tall else 19
        if letter_on_band:
            _letter_on_band(d, cell, letter, colour, LETTER_PART if iconic else (0.0, 1.0))
        else:
            d.text((cx, bottom), letter, font=font(size, "heavy"), fill=ink, anchor="mb")
    else:
        price = short_cash(ed.id, sq.price)
        size = 15
        while size > 10 and font(size, "bold").getlength(price) > w - 4:
            size -= 1
        d.text((cx, bottom), price, font=font(size, "bold"), fill=MONEY_GREEN, anchor="mb")


# The owner's patch on a mortgaged title's bar (along the bar, across it) and its letter's size. In the top and
# bottom rows it reaches past the bar into the body, whose name is at its other end; beside a square of the
# left and right columns the name runs up to the bar, so the patch keeps to the bar.
BAND_PATCH = {True: (28, 26, 19), False: (28, BAND, 16)}
# Where along its bar a mortgaged airline or utility has its letter and its icon (shares of the bar's length).
LETTER_PART, ICON_PART = (0.0, 0.62), (0.62, 1.0)


def _band_part(cell: Cell, part: tuple[float, float]) -> tuple[int, int, int, int]:
    """The stretch `part` of the cell's colour bar, along the bar."""
    x0, y0, x1, y1 = cell.band()
    a, b = part
    if cell.horizontal:
        return round(x0 + a * (x1 - x0)), y0, round(x0 + b * (x1 - x0)), y1
    return x0, round(y0 + a * (y1 - y0)), x1, round(y0 + b * (y1 - y0))


def _letter_on_band(d: ImageDraw.ImageDraw, cell: Cell, letter: str, colour: RGB, part: tuple[float, float]) -> None:
    """The owner's letter on a patch of their colour over the stretch `part` of the colour bar."""
    x0, y0, x1, y1 = _band_part(cell, part)
    along, across, size = BAND_PATCH[cell.horizontal]
    ix, iy = cell.inward
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    over = (across - BAND) / 2  # how far the patch reaches past the bar, towards the body (away from the centre)
    cx, cy = cx - ix * over, cy - iy * over
    w, h = (along, across) if cell.horizontal else (across, along)
    d.rounded_rectangle((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), 5, fill=colour, outline=WHITE, width=2)
    d.text((cx, cy + 1), letter, font=font(size, "heavy"), fill=text_on(colour), anchor="mm")


def _hatch(img: Image.Image, box: tuple[int, int, int, int], colour: RGB) -> None:
    """Diagonal stripes of the owner's colour on grey: a mortgaged title."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    patch = Image.new("RGB", (w, h), MORTGAGE_GREY)
    pd = ImageDraw.Draw(patch)
    for k in range(-h, w, 12):
        pd.polygon([(k, h), (k + 5, h), (k + 5 + h, 0), (k + h, 0)], fill=colour)
    img.paste(patch, (x0, y0))


def _band_icon(d: ImageDraw.ImageDraw, ed: Edition, sq: Square, band: tuple[int, int, int, int]) -> None:
    if sq.kind == "country":
        return
    x0, y0, x1, y1 = band
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    size = min(x1 - x0, y1 - y0) - 3
    if ed.id == "monopolio":
        if sq.kind == "airline":
            dr.train(d, cx, cy, size + 2, WHITE)
        elif "agua" in sq.id:
            dr.drop(d, cx, cy, size, WHITE)
        else:
            dr.bulb(d, cx, cy, size, WHITE)
    elif sq.kind == "airline":
        dr.plane(d, cx, cy, size + 4, WHITE)
    else:
        dr.building(d, cx, cy, size, WHITE, UTILITY_BAND)


# The largest house the bar holds (its thickness but a pixel each side). At 12 px the houses were dots at the
# 550 px a desktop shows: now as large as the bar and their number allow, four still apart.
HOUSE_SIZE = BAND - 2


def _buildings(d: ImageDraw.ImageDraw, band: tuple[int, int, int, int], level: int) -> None:
    """Restaurants / houses side by side on the colour bar, spread along it, or one hotel across it."""
    x0, y0, x1, y1 = band
    along_x = (x1 - x0) > (y1 - y0)
    length = (x1 - x0) if along_x else (y1 - y0)
    if level == HOTEL:
        pad = length * 0.2
        box = (x0 + pad, y0 + 2, x1 - pad, y1 - 2) if along_x else (x0 + 2, y0 + pad, x1 - 2, y1 - pad)
        dr.hotel(d, box)
        return
    step = length / level
    size = min(HOUSE_SIZE, step - 1)
    for k in range(level):
        along = step * (k + 0.5)
        cx, cy = (x0 + along, (y0 + y1) / 2) if along_x else ((x0 + x1) / 2, y0 + along)
        dr.house(d, cx, cy, size)


def _special(d: ImageDraw.ImageDraw, ed: Edition, sq: Square, cell: Cell, lang: str) -> None:
    """Cards, taxes, customs and the club: a symbol, a short name and what it costs."""
    th = theme(ed.id)
    x0, y0, x1, y1 = cell.box
    cx = (x0 + x1) / 2
    tall = cell.horizontal
    if sq.kind == "card":
        d.rectangle(cell.box, fill=th.card)
    name = short_name(ed.id, sq.index, lang)
    found = dr.try_fit(name, x1 - x0 - 4, 30, (15, 14, 13, 12, 11), "bold", 1.0, max_lines=2)
    f, lines, step = found or dr.fit(name, x1 - x0 - 4, 30, (11, 10, 9), "bold", 1.0)
    top = y0 + 4
    bottom_text = dr.lines_centred(d, cx, top, lines, f, step, INK)
    footer = ""
    if sq.kind in ("tax", "customs", "club"):
        footer = short_cash(ed.id, sq.amount)
    bottom = y1 - (4 if tall else 3)
    if footer:
        d.text((cx, bottom), footer, font=font(15, "bold"), fill=INK, anchor="mb")
        bottom -= 17
    room = bottom - bottom_text
    cy = (bottom_text + bottom) / 2
    if sq.kind == "card":
        symbol = "@" if sq.deck == "email" else "?"
        d.text(
            (cx, cy),
            symbol,
            font=font(int(min(34, room + 4)), "heavy"),
            fill=WHITE,
            anchor="mm",
            stroke_width=2,
            stroke_fill=INK,
        )
    elif sq.kind == "tax":
        d.text((cx, cy), "$", font=font(int(min(30, room + 2)), "heavy"), fill=MUTED, anchor="mm")
    elif sq.kind == "customs":
        r = min(8, room / 2 - 1)
        for k, colour in enumerate(((40, 170, 70), (220, 40, 40))):
            dx = (k - 0.5) * 2.3 * r
            d.ellipse((cx + dx - r, cy - r, cx + dx + r, cy + r), fill=colour, outline=INK, width=1)
    elif sq.kind == "club":
        h = min(18, room - 2)
        w = h * 1.55
        d.rounded_rectangle((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), 3, fill=(200, 204, 212), outline=INK)
        d.rectangle((cx - w / 2, cy - h * 0.2, cx + w / 2, cy + h * 0.05), fill=INK)


def _corner(d: ImageDraw.ImageDraw, ed: Edition, sq: Square, cell: Cell, lang: str) -> None:
    th = theme(ed.id)
    x0, y0, x1, y1 = cell.box
    cx = (x0 + x1) / 2
    name = square_name(ed.id, sq.index, lang)
    fill = {
        "go": th.corner_go,
        "jail": th.corner_jail,
        "go_to_jail": th.corner_to_jail,
    }.get(sq.kind, th.corner_free)
    d.rectangle(cell.box, fill=fill)
    text = name.upper() if sq.kind == "go" else name
    f, lines, step = dr.fit(text, x1 - x0 - 8, 34, (18, 17, 16, 15, 14, 13, 12, 11), "heavy", 1.0)
    below = dr.lines_centred(d, cx, y0 + 5, lines, f, step, INK)
    small = font(12, "bold")
    if sq.kind == "go":
        collect = label(lang, "board.collect", amount=cash(ed.id, ed.economy.salary))
        f2, lines2, step2 = dr.fit(collect, x1 - x0 - 6, 28, (13, 12, 11, 10), "bold", 1.05)
        dr.lines_centred(d, cx, below + 1, lines2, f2, step2, INK)
        _travel_arrow(d, ed, cell, y1 - 16)
    elif sq.kind == "jail":
        fine = label(lang, "board.fine", amount=cash(ed.id, ed.economy.jail_fine))
        d.text((cx, y1 - 4), fine, font=small, fill=INK, anchor="mb")
        top, bottom = below + 3, y1 - 20
        dr.cage(d, (cx - 24, top, cx + 24, bottom), JAIL_CELL)
    elif sq.kind == "go_to_jail":
        # Where this corner sends you, as a picture: a plane off to the far corner, or a cell.
        top, bottom = below + 4, y1 - 6
        if ed.id == "monopolio":
            dr.cage(d, (cx - 22, top + 4, cx + 22, bottom), JAIL_CELL)
        else:
            dr.plane(d, cx, (top + bottom) / 2, min(48, (bottom - top) * 1.3), INK)
    else:
        sub = phrase(lang, "board.lose_turns", turns=sq.turns) if sq.kind == "lose_turns" else label(lang, "board.rest")
        if sub.casefold() != name.casefold() and below < y1 - 52:
            f2, lines2, step2 = dr.fit(sub, x1 - x0 - 8, 30, (13, 12, 11), "bold", 1.05)
            below = dr.lines_centred(d, cx, below + 2, lines2, f2, step2, INK)
        _sun(d, cx, (below + y1) / 2, min(9, (y1 - below) / 4))


def _sun(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """The rest corner: a sun (a holiday on the world trip)."""
    for k in range(8):
        a = k * math.pi / 4
        d.line((cx + r * 1.35 * math.cos(a), cy + r * 1.35 * math.sin(a), cx + r * 1.85 * math.cos(a),
                cy + r * 1.85 * math.sin(a)), fill=(230, 140, 20), width=3)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 196, 40), outline=(230, 140, 20))


def _travel_arrow(d: ImageDraw.ImageDraw, ed: Edition, cell: Cell, y: float) -> None:
    """An arrow on the start corner pointing the way play goes round."""
    grid = cells(ed.id)
    start, nxt = grid[0], grid[1]
    dx = 1 if nxt.centre[0] > start.centre[0] + 10 else -1 if nxt.centre[0] < start.centre[0] - 10 else 0
    dy = 1 if nxt.centre[1] > start.centre[1] + 10 else -1 if nxt.centre[1] < start.centre[1] - 10 else 0
    cx = (cell.x0 + cell.x1) / 2
    red = (214, 36, 40)
    length, head = 24, 9
    if dx:
        x_tip = cx + dx * length
        d.line((cx - dx * length, y, x_tip - dx * 4, y), fill=red, width=6)
        d.polygon([(x_tip, y), (x_tip - dx * head * 1.6, y - head), (x_tip - dx * head * 1.6, y + head)], fill=red)
    else:
        y_tip = y + dy * 10
        d.line((cx, y - dy * 10, cx, y_tip - dy * 4), fill=red, width=6)
        d.polygon([(cx, y_tip + dy * 4), (cx - head, y_tip - dy * 8), (cx + head, y_tip - dy * 8)], fill=red)


def centre_of_board() -> tuple[float, float]:
    x0, y0, x1, y1 = CENTRE_BOX
    return (x0 + x1) / 2, (y0 + y1) / 2


__all__ = ["MARGIN", "band_colour", "centre_of_board", "printed_board", "tile"]
