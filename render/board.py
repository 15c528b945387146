"""The board picture: the printed board (cached) plus what changes: owners, mortgages, buildings, tokens,
dice and the side panel of seats."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine import HOTEL, State, load
from engine.board import net_worth
from engine.edition import Edition
from render import draw as dr
from render.fonts import font
from render.layout import BAND, CENTRE_BOX, HEIGHT, MARGIN, PANEL_X, WIDTH, Cell, cells
from render.png import encode, palette, register_sample
from render.static import Zone, jail_box, printed_board
from render.style import INK, MORTGAGE_RED, RGB, UTILITY_BAND, WHITE, Theme, block_colour, seat_colour, text_on, theme
from render.texts import cash, edition_name, house_word, label, language, square_name

TOKEN = 28  # token diameter on an edge square
CORNER_TOKEN = 32
HALO = (255, 236, 120)  # the ring around the token whose turn it is


def board(state: State, lang: str = "es") -> bytes:
    """The board of `state` as PNG bytes (pure: `state` is only read; safe to call from worker threads)."""
    lang = language(lang)
    return encode(board_image(state, lang), state.edition, lang)


def prepare(edition: str, lang: str = "es") -> None:
    """Draw the printed board of `edition` and learn its palette now (about a second, once per edition and
    language), so that the first board of a game comes as fast as the others. Optional: `board` does it
    on first use."""
    lang = language(lang)
    printed_board(edition, lang)
    palette("board", edition, lang)


def board_image(state: State, lang: str = "es") -> Image.Image:
    """The board of `state` as an RGB picture, `layout.WIDTH` x `layout.HEIGHT`."""
    lang = language(lang)
    ed = load(state.edition)
    printed, zones = printed_board(ed.id, lang)
    img = printed.copy()
    d = ImageDraw.Draw(img)
    grid = cells(ed.id)
    for i in range(len(ed.squares)):
        owner = state.owner[i]
        if owner < 0:
            continue
        if state.mortgaged[i]:
            ov = _mortgage_overlay(grid[i].width, grid[i].height, lang)
            img.paste(ov, (grid[i].x0, grid[i].y0), ov)
        # Drawn over the veil of a mortgage: who owns it stays as clear as on any other title.
        _owner_strip(d, grid[i], owner)
        if state.level[i]:
            _buildings(d, grid[i], state.level[i])
    _tokens(img, state, ed, zones)
    _dice(img, state)
    _panel(img, d, state, ed, lang)
    return img


# -- squares ----------------------------------------------------------------------------------------------
def _owner_strip(d: ImageDraw.ImageDraw, cell: Cell, owner: int) -> None:
    box = cell.outer_strip()
    d.rectangle(box, fill=seat_colour(owner), outline=INK, width=1)


def _buildings(d: ImageDraw.ImageDraw, cell: Cell, level: int) -> None:
    x0, y0, x1, y1 = cell.band()
    horizontal = (x1 - x0) > (y1 - y0)
    length = (x1 - x0) if horizontal else (y1 - y0)
    if level == HOTEL:
        pad_long, pad_short = length * 0.22, 4
        box = (
            (x0 + pad_long, y0 + pad_short, x1 - pad_long, y1 - pad_short)
            if horizontal
            else (x0 + pad_short, y0 + pad_long, x1 - pad_short, y1 - pad_long)
        )
        dr.hotel(d, box)
        return
    size = BAND - 9
    step = length / 4
    for k in range(level):
        along = step * (k + 0.5)
        cx, cy = (x0 + along, (y0 + y1) / 2) if horizontal else ((x0 + x1) / 2, y0 + along)
        dr.house(d, cx, cy, size)


@lru_cache(maxsize=32)
def _mortgage_overlay(w: int, h: int, lang: str) -> Image.Image:
    """A translucent grey veil with diagonal hatching and a red MORTGAGED tag (cached, never modified)."""
    ov = Image.new("RGBA", (w, h), (70, 74, 84, 120))
    d = ImageDraw.Draw(ov)
    for k in range(-h, w, 12):
        d.line((k, h, k + h, 0), fill=(40, 40, 48, 90), width=3)
    text = label(lang, "board.mortgaged")
    size = 12
    while size > 8 and font(size, "heavy").getlength(text) > w - 10:
        size -= 1
    f = font(size, "heavy")
    tw = f.getlength(text)
    cx, cy = w / 2, h / 2
    d.rectangle((cx - tw / 2 - 4, cy - size / 2 - 4, cx + tw / 2 + 4, cy + size / 2 + 4), fill=(*MORTGAGE_RED, 255))
    d.text((cx, cy), text, font=f, fill=(*WHITE, 255), anchor="mm")
    return ov


# -- tokens -----------------------------------------------------------------------------------------------
def _slots(cx: float, cy: float, n: int, room_w: float, room_h: float, size: int) -> list[tuple[float, float]]:
    """Centres for `n` tokens around (cx, cy) within room_w x room_h: one row up to three, then two rows."""
    rows = 1 if n <= 3 else 2
    per_row = -(-n // rows)
    dx = min(size + 2, (room_w - size) / max(1, per_row - 1)) if per_row > 1 else 0
    dy = min(size + 2, room_h - size) if rows > 1 else 0
    out = []
    for k in range(n):
        r, c = divmod(k, per_row)
        in_row = min(per_row, n - r * per_row)
        x = cx + (c - (in_row - 1) / 2) * dx
        y = cy + (r - (rows - 1) / 2) * dy
        out.append((x, y))
    return out


def _tokens(img: Image.Image, state: State, ed: Edition, zones: tuple[Zone, ...]) -> None:
    grid = cells(ed.id)
    jail = ed.rules.jail_square
    by_square: dict[tuple[int, bool], list[int]] = {}
    for seat in state.order:
        s = state.seats[seat]
        if s.out:
            continue
        by_square.setdefault((s.pos, s.jailed and s.pos == jail), []).append(seat)
    halo_seat = state.current if state.phase != "over" else -1
    placed: list[tuple[int, float, float, int]] = []
    for (pos, jailed), seats in by_square.items():
        cell = grid[pos]
        if cell.side == "corner":
            size = CORNER_TOKEN
            if pos == jail:
                jx0, jy0, jx1, jy1 = jail_box(cell)
                if jailed:
                    centres = _slots((jx0 + jx1) / 2, (jy0 + jy1) / 2 + 6, len(seats), jx1 - jx0, jy1 - jy0, size)
                else:
                    # Visitors stand in the free strip beside the cell.
                    sx0, sx1 = (cell.x0, jx0) if jx0 > cell.x0 else (jx1, cell.x1)
                    centres = _column((sx0 + sx1) / 2, (jy0 + jy1) / 2, len(seats), jy1 - jy0, 26)
            else:
                cx, cy = cell.centre
                centres = _slots(cx, cy + 8, len(seats), cell.width - 10, cell.height - 40, size)
        else:
            # Between the name and the price when there is room, else over the middle of the square.
            size = TOKEN
            bx0, by0, bx1, by1 = cell.body()
            zx0, zy0, zx1, zy1 = zones[pos]
            cy = (zy0 + zy1) / 2 if zy1 - zy0 >= size - 6 else (by0 + by1) / 2
            centres = _slots((bx0 + bx1) / 2, cy, len(seats), bx1 - bx0 - 4, by1 - by0, size)
        for seat, (x, y) in zip(seats, centres, strict=True):
            placed.append((seat, x, y, size))
    # The seat whose turn it is goes on top, with a halo.
    placed.sort(key=lambda p: p[0] == halo_seat)
    for seat, x, y, size in placed:
        sprite = dr.token(
            seat_colour(seat), dr.initial(state.seats[seat].name, seat), size, HALO if seat == halo_seat else None
        )
        dr.paste_centred(img, sprite, x, y)


def _column(cx: float, cy: float, n: int, room_h: float, size: int) -> list[tuple[float, float]]:
    dy = min(size, (room_h - size) / max(1, n - 1)) if n > 1 else 0
    return [(cx, cy + (k - (n - 1) / 2) * dy) for k in range(n)]


# -- dice ---------------------------------------------------------------------------------------------------
DIE = 74


def _dice(img: Image.Image, state: State) -> None:
    if len(state.dice) != 2:
        return
    x0, y0, x1, y1 = CENTRE_BOX
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + 150
    for k, value in enumerate(state.dice):
        if 1 <= value <= 6:
            dr.paste_centred(img, dr.die(value, DIE), cx + (k - 0.5) * (DIE + 26), cy)


# -- the side panel ---------------------------------------------------------------------------------------
def _panel(img: Image.Image, d: ImageDraw.ImageDraw, state: State, ed: Edition, lang: str) -> None:
    th = theme(ed.id)
    x0 = PANEL_X + 16
    x1 = WIDTH - MARGIN - 4
    title = edition_name(ed.id, lang)
    size = 30
    while size > 20 and font(size, "heavy").getlength(title) > x1 - x0:
        size -= 1
    dr.text(img, (x0, 22), dr.ellipsize(title, font(size, "heavy"), x1 - x0), size, "heavy", th.panel_text)
    dr.text(img, (x0, 64), _headline(state, lang), 22, "regular", th.panel_muted)
    seats = list(state.order)
    top, bottom = 100, HEIGHT - 70
    row_h = min(150, (bottom - top) // max(1, len(seats)))
    for k, seat in enumerate(seats):
        _seat_row(d, img, state, ed, seat, x0, top + k * row_h, x1, row_h - 10, th, lang)
    _footer(img, state, ed, x0, x1, HEIGHT - 64, th, lang)


def _headline(state: State, lang: str) -> str:
    if state.phase == "over":
        if state.winner >= 0:
            winner = label(lang, "summary.winner", name=state.seats[state.winner].name)
            return f"{label(lang, 'board.game_over')} · {winner}"
        return label(lang, "board.game_over")
    name = state.seats[state.current].name
    if state.debts:
        phase, name = "debt", state.seats[state.debts[0].debtor].name
    elif state.auction is not None:
        phase = "auction"
    else:
        phase = state.phase
    text = label(lang, "board.turn", turn=state.turn)
    doing = label(lang, f"board.phase_{phase}")
    if phase == "auction":
        return f"{text} · {doing}"
    return f"{text} · {name} {doing}"


def _seat_row(
    d: ImageDraw.ImageDraw,
    img: Image.Image,
    state: State,
    ed: Edition,
    seat: int,
    x0: int,
    y0: int,
    x1: int,
    h: int,
    th: Theme,
    lang: str,
) -> None:
    """One seat: token, name and cash; titles, buildings and net worth; its titles as small cards; status."""
    s = state.seats[seat]
    current = seat == state.current and state.phase != "over"
    colour = seat_colour(seat)
    img.paste(_row_background(x1 - x0, h, th.panel_current if current else th.panel_row, colour, th.panel), (x0, y0))
    tok = dr.token(colour, dr.initial(s.name, seat), 44, HALO if current else None)
    dr.paste_centred(img, tok, x0 + 46, y0 + 32)
    text_colour = th.panel_muted if s.out else th.panel_text
    money = cash(ed.id, s.cash)
    money_font = font(30, "heavy")
    name_w = int(x1 - x0 - 110 - money_font.getlength(money))
    dr.text(img, (x0 + 80, y0 + 32), dr.ellipsized(s.name, 28, "bold", name_w), 28, "bold", text_colour, "lm")
    dr.text(img, (x1 - 14, y0 + 32), money, 30, "heavy", th.panel_muted if s.out else MONEY_LIGHT, "rm")
    dr.text(img, (x0 + 80, y0 + 54), _stats(state, ed, seat, lang), 18, "regular", th.panel_muted)
    _title_cards(img, d, state, ed, seat, x0 + 80, y0 + 75, x1 - 12)
    x = x0 + 80
    for text, fill in _chips(state, ed, seat, lang):
        sprite = dr.chip_sprite(text, 16, fill, text_on(fill))
        if x + sprite.width > x1 - 8:
            break
        img.paste(sprite, (int(x), y0 + h - 29), sprite)
        x += sprite.width + 6


def _stats(state: State, ed: Edition, seat: int, lang: str) -> str:
    titles = sum(1 for o in state.owner if o == seat)
    houses = sum(lv for i, lv in enumerate(state.level) if state.owner[i] == seat and lv < HOTEL)
    hotels = sum(1 for i, lv in enumerate(state.level) if state.owner[i] == seat and lv == HOTEL)
    parts = [label(lang, "board.title_one") if titles == 1 else label(lang, "board.titles", count=titles)]
    if houses:
        parts.append(f"{houses} {house_word(ed.id, lang, houses)}")
    if hotels:
        parts.append(f"{hotels} {label(lang, 'building.hotel' if hotels == 1 else 'building.hotels')}")
    parts.append(label(lang, "board.worth", amount=cash(ed.id, net_worth(state, ed, seat)[0])))
    return " · ".join(parts)


CARD_W, CARD_H = 11, 18


def _title_cards(
    img: Image.Image, d: ImageDraw.ImageDraw, state: State, ed: Edition, seat: int, x: float, y: float, right: float
) -> None:
    """The seat's titles as a row of tiny deeds in their block colours, a gap between blocks; mortgaged ones
    are drawn hollow."""
    previous = None
    owned = [i for i, o in enumerate(state.owner) if o == seat]
    for k, i in enumerate(owned):
        sq = ed.squares[i]
        group = sq.block or sq.kind
        if previous is not None and group != previous:
            x += 6
        previous = group
        if x + CARD_W > right - 30:
            dr.text(img, (x, y + CARD_H / 2), f"+{len(owned) - k}", 15, "bold", WHITE, "lm")
            return
        colour = {"airline": AIRLINE_CARD, "utility": UTILITY_BAND}.get(sq.kind) or block_colour(ed.id, sq.block)
        box = (x, y, x + CARD_W, y + CARD_H)
        if state.mortgaged[i]:
            d.rectangle(box, outline=colour, width=2)
        else:
            d.rectangle(box, fill=colour, outline=WHITE if state.level[i] else None, width=1)
        x += CARD_W + 3


MONEY_LIGHT = (140, 230, 160)


@lru_cache(maxsize=64)
def _row_background(w: int, h: int, fill: RGB, accent: RGB, panel: RGB) -> Image.Image:
    """A seat row's rounded card with its colour stripe on the panel's colour (cached, never modified): an
    opaque tile pastes as a plain copy."""
    tile = Image.new("RGB", (w + 1, h + 1), panel)
    d = ImageDraw.Draw(tile)
    d.rounded_rectangle((0, 0, w, h), 14, fill=fill)
    d.rounded_rectangle((0, 0, 10, h), 5, fill=accent)
    return tile


AIRLINE_CARD = (200, 210, 225)


CHIP_JAIL = (120, 196, 250)
CHIP_OUT = (210, 60, 60)
CHIP_COMPUTER = (150, 160, 176)
CHIP_WINNER = (255, 200, 40)
CHIP_OTHER = (190, 150, 230)
CHIP_DEBT = (250, 140, 60)
CHIP_TURN = HALO


def _chips(state: State, ed: Edition, seat: int, lang: str) -> list[tuple[str, tuple[int, int, int]]]:
    s = state.seats[seat]
    out: list[tuple[str, tuple[int, int, int]]] = []
    if state.winner == seat:
        out.append((label(lang, "board.status_winner"), CHIP_WINNER))
    if s.out:
        out.append((label(lang, "board.status_out"), CHIP_OUT))
        return out
    debt = sum(db.amount for db in state.debts if db.debtor == seat)
    if debt:
        out.append((label(lang, "board.debt", amount=cash(ed.id, debt)), CHIP_DEBT))
    if s.jailed:
        out.append((label(lang, "board.status_jail", square=square_name(ed.id, ed.rules.jail_square, lang)), CHIP_JAIL))
    if s.lost_turns:
        out.append((label(lang, "board.status_resting", turns=s.lost_turns), CHIP_JAIL))
    if s.computer:
        out.append((label(lang, "board.status_computer"), CHIP_COMPUTER))
    if s.club:
        out.append((label(lang, "board.status_club"), CHIP_OTHER))
    if s.jail_cards:
        out.append((label(lang, "board.status_card"), CHIP_OTHER))
    return out


def _footer(img: Image.Image, state: State, ed: Edition, x0: int, x1: int, y: int, th: Theme, lang: str) -> None:
    lines = []
    if state.auction is not None:
        au = state.auction
        where = square_name(ed.id, au.square, lang)
        if au.bidder >= 0:
            lines.append(
                label(
                    lang, "board.auction", square=where, amount=cash(ed.id, au.bid), bidder=state.seats[au.bidder].name
                )
            )
        else:
            lines.append(label(lang, "board.auction_open", square=where))
    bank = label(
        lang,
        "board.bank",
        houses=state.bank_houses,
        house_word=house_word(ed.id, lang, state.bank_houses),
        hotels=state.bank_hotels,
    )
    if state.pot:
        bank += " · " + label(lang, "board.pot", amount=cash(ed.id, state.pot))
    lines.append(bank)
    f = font(19, "regular")
    for k, line in enumerate(lines):
        # An auction under way is news; the bank's supply is background.
        colour = th.panel_text if k < len(lines) - 1 else th.panel_muted
        dr.text(img, (x0, y + k * 26), dr.ellipsize(line, f, x1 - x0), 19, "regular", colour)


def _busy_board(edition: str, lang: str) -> Image.Image:
    """A board with every kind of mark on it, the sample the palette is learnt from."""
    from render.sample import busy_state

    return board_image(busy_state(edition), lang)


register_sample("board", _busy_board, kmeans=1)
