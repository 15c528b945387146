"""The printed board: everything that never changes during a game, drawn once per edition and language."""

from __future__ import annotations

import threading
from functools import cache

from PIL import Image, ImageDraw

from engine import load
from engine.edition import Edition, Square
from render import draw as dr
from render.fonts import font
from render.layout import CENTRE_BOX, HEIGHT, MARGIN, PANEL_X, WIDTH, Cell, cells
from render.style import (
    AIRLINE_BAND,
    CELL,
    CELL_LINE,
    INK,
    MONEY_GREEN,
    MUTED,
    RGB,
    UTILITY_BAND,
    WHITE,
    Theme,
    block_colour,
    theme,
)
from render.texts import cash, edition_name, label, square_name

_lock = threading.Lock()
JAIL_CELL = (255, 236, 200)


Zone = tuple[int, int, int, int]


def printed_board(edition: str, lang: str) -> tuple[Image.Image, tuple[Zone, ...]]:
    """The static board of `edition` in `lang` (RGB, full picture size) and, per square, the free area
    between its name and its price where tokens stand. Shared: copy the picture before drawing on it."""
    with _lock:
        return _printed_board(edition, lang)


@cache
def _printed_board(edition: str, lang: str) -> tuple[Image.Image, tuple[Zone, ...]]:
    ed = load(edition)
    th = theme(edition)
    img = Image.new("RGB", (WIDTH, HEIGHT), th.background)
    d = ImageDraw.Draw(img)
    d.rectangle((PANEL_X - MARGIN // 2, 0, WIDTH, HEIGHT), fill=th.panel)
    _centre(d, ed, th, lang)
    zones = tuple(_square(d, ed, th, sq, cell, lang) for sq, cell in zip(ed.squares, cells(edition), strict=True))
    return img, zones


# -- the middle of the board -------------------------------------------------------------------------------


def _centre(d: ImageDraw.ImageDraw, ed: Edition, th: Theme, lang: str) -> None:
    x0, y0, x1, y1 = CENTRE_BOX
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = (x1 - x0) / 2 - 30
    d.ellipse((cx - r - 10, cy - r - 10, cx + r + 10, cy + r + 10), fill=th.centre_rim)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=th.centre)
    if ed.id == "monopolio":
        _title(d, ed, th, lang, cx, cy)
        return
    # Meridians and parallels: the globe in the middle of the Turista boards.
    for k in (-2, -1, 1, 2):
        rr = r * (1 - abs(k) * 0.3)
        d.ellipse((cx - rr, cy - r, cx + rr, cy + r), outline=th.centre_rim, width=2)
        yy = cy + k * r * 0.38
        half = (r**2 - (yy - cy) ** 2) ** 0.5
        d.line((cx - half, yy, cx + half, yy), fill=th.centre_rim, width=2)
    d.line((cx, cy - r, cx, cy + r), fill=th.centre_rim, width=2)
    d.line((cx - r, cy, cx + r, cy), fill=th.centre_rim, width=2)
    _title(d, ed, th, lang, cx, cy)


def _title(d: ImageDraw.ImageDraw, ed: Edition, th: Theme, lang: str, cx: float, cy: float) -> None:
    words = tuple(label(lang, f"board.logo_{ed.id}").split("\n"))
    size = 86 if len(words) > 1 else 78
    f = font(size, "heavy")
    y = cy - 190
    for word in words:
        d.text((cx, y), word, font=f, fill=th.title, anchor="mt", stroke_width=6, stroke_fill=th.title_outline)
        y += size + 8
    sub = font(24, "bold")
    d.text((cx, y + 6), edition_name(ed.id, lang), font=sub, fill=WHITE, anchor="mt", stroke_width=3, stroke_fill=INK)


# -- squares ----------------------------------------------------------------------------------------------
def _square(d: ImageDraw.ImageDraw, ed: Edition, th: Theme, sq: Square, cell: Cell, lang: str) -> Zone:
    if cell.side == "corner":
        _corner(d, ed, th, sq, cell, lang)
        d.rectangle(cell.box, outline=CELL_LINE, width=2)
        return cell.box
    d.rectangle(cell.box, fill=CELL)
    name = square_name(ed.id, sq.index, lang)
    bx0, by0, bx1, by1 = cell.body()
    if sq.kind in ("country", "airline", "utility"):
        band = cell.band()
        colour = {"airline": AIRLINE_BAND, "utility": UTILITY_BAND}.get(sq.kind) or block_colour(ed.id, sq.block)
        d.rectangle(band, fill=colour)
        d.line(_inner_line(cell, band), fill=CELL_LINE, width=1)
        bcx, bcy = (band[0] + band[2]) / 2, (band[1] + band[3]) / 2
        if sq.kind == "airline":
            dr.plane(d, bcx, bcy, 20, WHITE)
        elif sq.kind == "utility":
            dr.building(d, bcx, bcy, 19, WHITE, UTILITY_BAND)
        # Prices are printed on every board; what an edition estimates (rents, costs) shows on the deed.
        price = cash(ed.id, sq.price)
        top, bottom = _name_and_footer(d, (bx0, by0, bx1, by1), name, price, MONEY_GREEN)
    else:
        top, bottom = _special(d, ed, th, sq, cell, name, lang)
    d.rectangle(cell.box, outline=CELL_LINE, width=2)
    return cell.x0, int(top), cell.x1, int(bottom)


def _inner_line(cell: Cell, band: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = band
    return {
        "top": (x0, y1, x1, y1),
        "bottom": (x0, y0, x1, y0),
        "left": (x1, y0, x1, y1),
        "right": (x0, y0, x0, y1),
    }[cell.inner]


def _name_and_footer(
    d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], name: str, footer: str, footer_colour: RGB
) -> tuple[float, float]:
    """Name at the top of `box`, footer at its bottom; returns the free band (top, bottom) left between."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    foot_size = 14 if w < 100 else 15
    while foot_size > 9 and font(foot_size, "bold").getlength(footer) > w - 6:
        foot_size -= 1
    foot = font(foot_size, "bold")
    # Two lines at a readable size leave room for the tokens between the name and the price.
    found = dr.try_fit(name, w - 8, h - 26, (15, 14, 13, 12), max_lines=2)
    f, lines, step = found or dr.fit(name, w - 8, h - 26, (15, 14, 13, 12, 11, 10, 9, 8))
    bottom = dr.lines_centred(d, (x0 + x1) / 2, y0 + 5, lines, f, step, INK)
    if not footer:
        return bottom, y1 - 4
    d.text(((x0 + x1) / 2, y1 - 5), footer, font=foot, fill=footer_colour, anchor="mb")
    return bottom, y1 - 5 - foot.size


def _special(
    d: ImageDraw.ImageDraw, ed: Edition, th: Theme, sq: Square, cell: Cell, name: str, lang: str
) -> tuple[float, float]:
    """Cards, taxes, customs and the club: a name, a symbol sized to the room left, and what it costs."""
    cx = cell.centre[0]
    if sq.kind == "card":
        d.rectangle(cell.box, fill=th.card)
        deck = label(lang, f"deck.{ed.id}.{sq.deck}")
        top, bottom = _name_and_footer(d, cell.box, deck, "", INK)
        symbol = "@" if sq.deck == "email" else "?"
        size = int(min(48, (bottom - top) * 0.95))
        d.text(
            (cx, (top + bottom) / 2),
            symbol,
            font=font(size, "heavy"),
            fill=WHITE,
            anchor="mm",
            stroke_width=3,
            stroke_fill=INK,
        )
        return top, bottom
    footer = ""
    if sq.kind in ("tax", "customs"):
        footer = label(lang, "board.pay", amount=cash(ed.id, sq.amount))
    elif sq.kind == "club":
        footer = cash(ed.id, sq.amount)
    top, bottom = _name_and_footer(d, cell.box, name, footer, INK)
    room = bottom - top
    cy = (top + bottom) / 2
    if sq.kind == "tax":
        d.text((cx, cy), "$", font=font(int(min(40, room)), "heavy"), fill=MUTED, anchor="mm")
    elif sq.kind == "customs":
        r = min(11, room / 2 - 2)
        for k, colour in enumerate(((40, 170, 70), (220, 40, 40))):
            dx = (k - 0.5) * 2.4 * r
            d.ellipse((cx + dx - r, cy - r, cx + dx + r, cy + r), fill=colour, outline=INK, width=2)
    elif sq.kind == "club":
        h = min(26, room - 4)
        w = h * 1.55
        d.rounded_rectangle(
            (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), 4, fill=(200, 204, 212), outline=INK, width=1
        )
        d.rectangle((cx - w / 2, cy - h * 0.2, cx + w / 2, cy), fill=INK)
    return top, bottom


def _corner(d: ImageDraw.ImageDraw, ed: Edition, th: Theme, sq: Square, cell: Cell, lang: str) -> None:
    x0, y0, x1, y1 = cell.box
    cx, cy = cell.centre
    name = square_name(ed.id, sq.index, lang)
    small = font(14, "bold")
    if sq.kind == "jail":
        d.rectangle(cell.box, fill=th.corner_jail)
        jx0, jy0, jx1, jy1 = jail_box(cell)
        d.rectangle((jx0, jy0, jx1, jy1), fill=JAIL_CELL, outline=INK, width=2)
        for k in range(1, 5):
            x = jx0 + k * (jx1 - jx0) / 5
            d.line((x, jy0, x, jy1), fill=INK, width=3)
        d.text(
            ((jx0 + jx1) / 2, jy0 + 4),
            label(lang, "board.jailed"),
            font=font(12, "bold"),
            fill=INK,
            anchor="mt",
            stroke_width=2,
            stroke_fill=JAIL_CELL,
        )
        # The name goes in the strip the cell leaves free, above or below it.
        sy0 = jy1 if jy0 == y0 else y0
        f, lines, step = dr.fit(name, x1 - x0 - 8, 20, (17, 15, 13, 12, 11))
        bottom = dr.lines_centred(d, cx, sy0 + 3, lines, f, step, INK)
        fine = label(lang, "board.fine", amount=cash(ed.id, ed.economy.jail_fine))
        d.text((cx, bottom), fine, font=font(12, "bold"), fill=INK, anchor="mt")
        return
    fill = {"go": th.corner_go, "go_to_jail": th.corner_to_jail}.get(sq.kind, th.corner_free)
    d.rectangle(cell.box, fill=fill)
    f, lines, step = dr.fit(
        name.upper() if sq.kind == "go" else name, x1 - x0 - 12, 52, (24, 22, 20, 18, 16, 14), "heavy"
    )
    bottom = dr.lines_centred(d, cx, y0 + 12, lines, f, step, INK)
    if sq.kind == "go":
        d.text(
            (cx, bottom + 2),
            label(lang, "board.collect", amount=cash(ed.id, ed.economy.salary)),
            font=small,
            fill=INK,
            anchor="mt",
        )
        _travel_arrow(d, ed, cell, y1 - 26)
    elif sq.kind == "go_to_jail":
        jail = square_name(ed.id, ed.rules.jail_square, lang)
        where = label(lang, "board.go_to", square=jail)
        if where.casefold() != name.casefold():
            f2, lines2, step2 = dr.fit(where, x1 - x0 - 12, 40, (14, 13, 12))
            dr.lines_centred(d, cx, bottom + 4, lines2, f2, step2, INK)
        # A small cage: where this corner sends you.
        d.rectangle((cx - 22, y1 - 38, cx + 22, y1 - 10), fill=JAIL_CELL, outline=INK, width=2)
        for k in range(1, 4):
            d.line((cx - 22 + k * 11, y1 - 38, cx - 22 + k * 11, y1 - 10), fill=INK, width=3)
    elif sq.kind == "lose_turns":
        f2, lines2, step2 = dr.fit(label(lang, "board.lose_turns", turns=sq.turns), x1 - x0 - 12, 40, (14, 13, 12))
        dr.lines_centred(d, cx, bottom + 8, lines2, f2, step2, INK)
    else:
        d.text((cx, bottom + 8), label(lang, "board.rest"), font=small, fill=INK, anchor="mt")


def _travel_arrow(d: ImageDraw.ImageDraw, ed: Edition, cell: Cell, y: float) -> None:
    """An arrow on the start corner pointing the way play goes round."""
    nxt = cells(ed.id)[1]
    dx = 1 if nxt.centre[0] > cell.centre[0] + 10 else -1 if nxt.centre[0] < cell.centre[0] - 10 else 0
    dy = 1 if nxt.centre[1] > cell.centre[1] + 10 else -1 if nxt.centre[1] < cell.centre[1] - 10 else 0
    cx = cell.centre[0]
    length, head = 34, 12
    if dx:
        x_tip = cx + dx * length
        d.line((cx - dx * length, y, x_tip - dx * 4, y), fill=(214, 36, 40), width=8)
        d.polygon(
            [(x_tip, y), (x_tip - dx * head * 1.6, y - head), (x_tip - dx * head * 1.6, y + head)], fill=(214, 36, 40)
        )
    else:
        y_tip = y + dy * 14
        d.line((cx, y - dy * 14, cx, y_tip - dy * 4), fill=(214, 36, 40), width=8)
        d.polygon(
            [(cx, y_tip + dy * 4), (cx - head, y_tip - dy * 10), (cx + head, y_tip - dy * 10)], fill=(214, 36, 40)
        )


def jail_box(cell: Cell) -> tuple[int, int, int, int]:
    """The cell within the jail corner where jailed tokens sit: the quarter nearest the centre of the board."""
    x0, y0, x1, y1 = cell.box
    size = 84
    bx0, bx1 = (x1 - size, x1) if x0 < CENTRE_BOX[0] else (x0, x0 + size)
    by0, by1 = (y1 - size, y1) if y0 < CENTRE_BOX[1] else (y0, y0 + size)
    return bx0, by0, bx1, by1
