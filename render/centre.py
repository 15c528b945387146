"""What changes inside the ring: the tokens in their lane and the centre (last roll, auction, news, bank and
clock). Each piece is described by a small hashable view (everything its pixels depend on, with where it
stands), built from the state once, then drawn from the view alone: the same view always draws the same
pixels, which is what lets `render.board` reuse pictures and compressed rows."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine import Edition, State
from render import draw as dr
from render.flags import flag, has_flag
from render.fonts import font
from render.layout import CENTRE_BOX, RING_INNER, cells
from render.style import INK, RGB, WHITE, seat_colour
from render.texts import cash, label, square_name
from words import describe, in_order, seat_name

TOKEN = 32  # token diameter in the lane (16 px on a desktop channel, 10 on a phone)
HALO = (255, 222, 60)  # the ring around the tokens of the seats the game waits for
HALO_RADIUS = TOKEN // 2 + 7  # a token with its halo and shadow
# The tokens on a corner, in token widths along its diagonal and across it: touching, never overlapping
# (a triangular packing), the first four within reach of the corner. The board has six seats.
CORNER_CLUSTER = ((0.0, 0.0), (0.866, -0.5), (0.866, 0.5), (1.732, 0.0), (2.598, -0.5), (2.598, 0.5))
# The bank's lines at the foot of the centre (see `_bank_lines`).
BANK_SIZE, BANK_GAP, BANK_PAD, BANK_STEP = 20, 22, 14, 40
DIE = 46
NEWS_BOX = (24, 24, 24)
NEWS_SIZE, NEWS_STEP = 19, 23


class TokenView(NamedTuple):
    seat: int
    letter: str
    x: int
    y: int
    glowing: bool
    jailed: bool

    def rows(self) -> tuple[int, int]:
        # The rows of its sprite as `draw_token` pastes it, no more: a token that moves then touches only the
        # rows (and the ring strips) it is drawn in.
        h = token_sprite(self.seat, self.letter, TOKEN, self.glowing, self.jailed).height
        top = int(self.y - h / 2)  # as `draw.paste_centred` places it
        return top, top + h - 1


class DiceView(NamedTuple):
    values: tuple[int, int]
    y: int

    def rows(self) -> tuple[int, int]:
        return self.y - 4, self.y + DIE + 8


class AuctionView(NamedTuple):
    flag_id: str  # "" for none
    title: str
    bidder: int  # -1: no bid yet
    letter: str
    bid: str  # the bid line, or "no bids yet"
    y: int

    HEIGHT = 74

    def rows(self) -> tuple[int, int]:
        return self.y - 2, self.y + self.HEIGHT + 2


class NewsView(NamedTuple):
    lines: tuple[str, ...]  # already wrapped
    y: int

    def rows(self) -> tuple[int, int]:
        return self.y - 2, self.y + len(self.lines) * NEWS_STEP + 16


class BankView(NamedTuple):
    parts: tuple[tuple[str, str], ...]  # ("house" | "hotel" | "text", text)
    y: int

    def rows(self) -> tuple[int, int]:
        return self.y - 20, self.y + 20


CentrePiece = DiceView | AuctionView | NewsView | BankView


def waiting_for(state: State) -> list[int]:
    """The seats the game waits for now: the debtor, the bidders, the target of an offer, or the seat whose
    turn it is."""
    if state.phase == "over":
        return []
    if state.trade is not None and not state.debts:
        return [state.trade.target]
    return state.seat_to_act()


# -- views --------------------------------------------------------------------------------------------------
def token_views(state: State, ed: Edition, letters: list[str]) -> tuple[TokenView, ...]:
    """Every token in play, where it stands, in drawing order (the seats the game waits for on top)."""
    grid = cells(ed.id)
    jail = ed.rules.jail_square
    by_square: dict[int, list[int]] = {}
    for seat in state.order:
        s = state.seats[seat]
        if not s.out:
            by_square.setdefault(s.pos, []).append(seat)
    glowing = set(waiting_for(state))
    placed: list[tuple[int, float, float]] = []
    for pos, seats in by_square.items():
        cell = grid[pos]
        ix, iy = cell.inward
        ax, ay = cell.lane_anchor()
        if cell.side == "corner":
            # Into the board along the diagonal, clear of the lanes of the squares beside the corner, packed a
            # token's width apart (two in jail both show their letters) and close to the corner, short of
            # the board's title above and of the bank's line below.
            along, across = (ix / 2**0.5, iy / 2**0.5), (-iy / 2**0.5, ix / 2**0.5)
            for (d, p), seat in zip(CORNER_CLUSTER, seats, strict=False):
                placed.append((seat, ax + (along[0] * d + across[0] * p) * TOKEN,
                               ay + (along[1] * d + across[1] * p) * TOKEN))
            continue
        px, py = -iy, ix  # along the edge
        step = TOKEN - 4
        for k, seat in enumerate(seats):
            row, col = divmod(k, 2)
            in_row = min(2, len(seats) - row * 2)
            along = (col - (in_row - 1) / 2) * step
            placed.append((seat, ax + ix * row * (step + 2) + px * along, ay + iy * row * (step + 2) + py * along))
    # Beside a corner the spread along the edge would reach the next row of squares: keep every token (and its
    # halo) inside the ring.
    lo, hi = RING_INNER[0] + HALO_RADIUS, RING_INNER[2] - HALO_RADIUS
    placed.sort(key=lambda p: p[0] in glowing)
    return tuple(
        TokenView(
            seat,
            letters[seat],
            int(min(hi, max(lo, x))),
            int(min(hi, max(lo, y))),
            seat in glowing,
            state.seats[seat].jailed and state.seats[seat].pos == jail,
        )
        for seat, x, y in placed
    )


def centre_views(
    state: State, ed: Edition, lang: str, letters: list[str], events: Sequence[dict], minutes_left: int | None
) -> tuple[CentrePiece, ...]:
    x0, y0, x1, y1 = CENTRE_BOX
    pieces: list[CentrePiece] = []
    y = y0 + 96
    if len(state.dice) == 2 and all(1 <= v <= 6 for v in state.dice):
        pieces.append(DiceView((state.dice[0], state.dice[1]), y))
        y += DIE + 14
    else:
        y += 8
    au = state.auction
    if au is not None:
        sq = ed.squares[au.square]
        title = label(lang, "board.auction_title", square=square_name(ed.id, au.square, lang))
        if au.bidder >= 0:
            bid = label(lang, "board.auction_bid", amount=cash(ed.id, au.bid), bidder=seat_name(state, au.bidder, lang))
            letter = letters[au.bidder]
        else:
            bid, letter = label(lang, "board.auction_no_bid"), ""
        flag_id = sq.id if au.item == "title" and has_flag(sq.id) else ""
        pieces.append(AuctionView(flag_id, title, au.bidder, letter, bid, y))
        y += AuctionView.HEIGHT + 10
    # The last two events that tell something, narrated from the end: a turn's list grows with every action.
    # In the order a player lives them: an auction's winner, then the price paid (the engine records the
    # payment first).
    news: list[str] = []
    for event in reversed(in_order(list(events))):
        line = describe(event, state, lang)
        if line:
            news.insert(0, line)
            if len(news) == 2:
                break
    parts: list[tuple[str, str]] = [("house", str(state.bank_houses)), ("hotel", str(state.bank_hotels))]
    if state.pot:
        parts.append(("text", label(lang, "board.pot", amount=cash(ed.id, state.pot))))
    if minutes_left is not None:
        parts.append(("text", label(lang, "board.minutes_left", minutes=max(0, minutes_left))))
    bank = _bank_lines(parts, token_views(state, ed, letters))
    if news:
        lines = [wrapped for line in news for wrapped in _wrap_news(line, x1 - x0 - 60 - 24)]
        # Above the bank's lines: the older sentence gives way first.
        room = max(0, int(bank[-1].y - 18 - 8 - y - 14) // NEWS_STEP)
        if room:
            pieces.append(NewsView(tuple(lines[-room:]), y))
    pieces += bank
    return tuple(pieces)


def _bank_lines(parts: list[tuple[str, str]], tokens: Sequence[TokenView]) -> list[BankView]:
    """The bank's parts in lines at the foot of the centre, buildings first, from the bottom line up. A line is
    no wider than the tokens beside it leave free (three in jail reach towards the middle): a part that does
    not fit goes to the line above, and a line with no room at all (three rows of tokens on a square below
    it) moves up."""
    y = CENTRE_BOX[3] - 20
    highest = y - 3 * BANK_STEP
    lines: list[BankView] = []
    line: list[tuple[str, str]] = []
    for part in parts:
        while _bank_width((*line, part)) > _bank_room(y, tokens) and y > highest:
            if line:
                lines.append(BankView(tuple(line), y))
                line = []
            y -= BANK_STEP
        line.append(part)
    lines.append(BankView(tuple(line), y))
    return lines


def _bank_room(y: float, tokens: Sequence[TokenView]) -> float:
    """The widest bank box centred in the centre box at height `y` that no token beside it touches, halo
    included (the tokens in the lane below the centre only meet its lower edge)."""
    x0, _, x1, _ = CENTRE_BOX
    cx = (x0 + x1) / 2
    half = cx - x0
    for t in tokens:
        if abs(t.y - y) < 18 + TOKEN / 2:
            half = min(half, abs(t.x - cx) - HALO_RADIUS - 2)
    return 2 * max(0.0, half)


@lru_cache(maxsize=256)
def _bank_width(parts: tuple[tuple[str, str], ...]) -> float:
    """The width of a bank line's box (cached: the views are built for every board, and text layout is what
    costs)."""
    f = font(BANK_SIZE, "bold")
    widths = [(24 if kind != "text" else 0) + f.getlength(text) for kind, text in parts]
    return sum(widths) + BANK_GAP * (len(parts) - 1) + 2 * BANK_PAD


@lru_cache(maxsize=1024)
def _wrap_news(line: str, width: int) -> tuple[str, ...]:
    """A sentence in at most two lines of the news box."""
    f = font(NEWS_SIZE, "regular")
    parts = dr.wrap(line, f, width) or [line]
    if len(parts) > 2:
        parts = [parts[0], dr.ellipsize(" ".join(parts[1:]), f, width)]
    return tuple(parts)


# -- drawing (ox, oy: where the picture drawn on starts on the board) -------------------------------------
def draw_piece(img: Image.Image, piece: CentrePiece, ox: int, oy: int) -> None:
    x0, _, x1, _ = CENTRE_BOX
    cx = (x0 + x1) / 2 - ox
    if isinstance(piece, DiceView):
        for k, value in enumerate(piece.values):
            dr.paste_centred(img, dr.die(value, DIE), cx + (k - 0.5) * (DIE + 14), piece.y - oy + DIE / 2)
    elif isinstance(piece, AuctionView):
        _auction_box(img, piece, x0 + 40 - ox, piece.y - oy, x1 - 40 - ox)
    elif isinstance(piece, NewsView):
        _news_box(img, piece.lines, x0 + 30 - ox, piece.y - oy, x1 - 30 - ox)
    else:
        _bank_line(img, piece.parts, cx, piece.y - oy)


def draw_token(img: Image.Image, t: TokenView, ox: int, oy: int) -> None:
    dr.paste_centred(img, token_sprite(t.seat, t.letter, TOKEN, t.glowing, t.jailed), t.x - ox, t.y - oy)


@lru_cache(maxsize=128)
def token_sprite(seat: int, letter: str, size: int, glowing: bool, jailed: bool) -> Image.Image:
    """A seat's token; glowing when the game waits for it; in jail behind bars that cross its rim and leave
    the letter clear (bars across the whole token hid it). Cached, never modified."""
    sprite = dr.token(seat_colour(seat), letter, size, HALO if glowing else None)
    if not jailed:
        return sprite
    return Image.alpha_composite(sprite, _rim_bars(sprite.width, size))


@lru_cache(maxsize=8)
def _rim_bars(side: int, size: int) -> Image.Image:
    """Bars over a token's rim: light bars edged in ink (seen on a dark token as on a light one), drawn across
    the token and kept only in the ring outside the letter."""
    scale = 4
    s, c = side * scale, side * scale / 2
    bars = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(bars)
    step = size * scale * 0.25
    for k in range(-2, 3):
        x = c + k * step
        d.line((x, 0, x, s), fill=(*INK, 255), width=round(size * scale * 0.14))
        d.line((x, 0, x, s), fill=(225, 228, 235, 255), width=round(size * scale * 0.07))
    ring = Image.new("L", (s, s), 0)
    outer, inner = size * scale / 2, size * scale * JAIL_CLEAR
    ImageDraw.Draw(ring).ellipse((c - outer, c - outer, c + outer, c + outer), fill=255)
    ImageDraw.Draw(ring).ellipse((c - inner, c - inner, c + inner, c + inner), fill=0)
    bars.putalpha(Image.composite(bars.getchannel("A"), ring, ring))
    return bars.resize((side, side), Image.Resampling.LANCZOS)


JAIL_CLEAR = 0.33  # the radius, as a share of the token's diameter, inside which the bars leave the letter


def _news_box(img: Image.Image, lines: tuple[str, ...], x0: float, y: float, x1: float) -> None:
    h = len(lines) * NEWS_STEP + 14
    _translucent_box(img, (x0, y, x1, y + h), NEWS_BOX, 150, 10)
    for k, line in enumerate(lines):
        dr.text(img, (x0 + 12, y + 8 + k * NEWS_STEP), line, NEWS_SIZE, "regular", WHITE)


def _translucent_box(img: Image.Image, box: tuple[float, float, float, float], colour: RGB, alpha: int, r: int) -> None:
    """`colour` laid over `img` at `alpha` in a rounded box. The box's mask is `alpha` inside and 0 outside,
    so every pixel inside becomes a function of its own colour: a look-up table of Pillow's blend, applied
    to the pixels under the box and copied back through the box's shape, gives the same pixels as pasting
    the colour through the mask, at a third of the cost (the news box is drawn at nearly every action)."""
    x0, y0, x1, y1 = (int(v) for v in box)
    shape = _box_shape(x1 - x0, y1 - y0, r)
    # Only the part of the box inside the picture (a ring strip holds a slice of it).
    left, top = max(0, x0), max(0, y0)
    right, bottom = min(img.width, x1), min(img.height, y1)
    if left >= right or top >= bottom:
        return
    under = img.crop((left, top, right, bottom))
    shape = shape.crop((left - x0, top - y0, right - x0, bottom - y0))
    # The core's point (Image.point rounds the 768 entries of the table again at every call: twice the time).
    img.paste(under._new(under.im.point(_blend_table(colour, alpha), None)), (left, top), shape)


@lru_cache(maxsize=64)
def _box_shape(w: int, h: int, r: int) -> Image.Image:
    """The rounded box as a "1" mask (drawn without anti-aliasing: inside or outside)."""
    mask = Image.new("1", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), r, fill=1)
    return mask


@lru_cache(maxsize=16)
def _blend_table(colour: RGB, alpha: int) -> list[int]:
    """For each channel and value, what Pillow's paste of `colour` through a mask of `alpha` makes of it."""
    ramp = Image.merge("RGB", [Image.frombytes("L", (1, 256), bytes(range(256)))] * 3)
    ramp.paste(colour, (0, 0), Image.new("L", ramp.size, alpha))
    return [v for band in ramp.split() for v in band.tobytes()]


def _auction_box(img: Image.Image, v: AuctionView, x0: float, y: float, x1: float) -> None:
    """The title under the hammer, the highest bid and who made it."""
    d = ImageDraw.Draw(img)
    h = AuctionView.HEIGHT
    d.rounded_rectangle((x0, y, x1, y + h), 10, fill=WHITE, outline=INK, width=2)
    x = x0 + 12
    if v.flag_id:
        img.paste(flag(v.flag_id, 36, 24), (int(x), int(y + 10)))
        x += 44
    dr.text(img, (x, y + 22), dr.ellipsize(v.title, font(20, "bold"), x1 - x - 10), 20, "bold", INK, "lm")
    if v.bidder >= 0:
        dr.paste_centred(img, token_sprite(v.bidder, v.letter, 26, False, False), x0 + 28, y + 52)
        dr.text(img, (x0 + 48, y + 53), dr.ellipsize(v.bid, font(19, "regular"), x1 - x0 - 58), 19, "regular", INK,
                "lm")
    else:
        dr.text(img, (x0 + 12, y + 53), v.bid, 19, "regular", INK, "lm")


def _bank_line(img: Image.Image, parts: tuple[tuple[str, str], ...], cx: float, y: float) -> None:
    """The bank's buildings left (a house and a hotel with their counts), the pot, the clock of the game."""
    d = ImageDraw.Draw(img)
    f = font(BANK_SIZE, "bold")
    widths = [(24 if kind != "text" else 0) + f.getlength(text) for kind, text in parts]
    gap = BANK_GAP
    total = sum(widths) + gap * (len(parts) - 1)
    x = cx - total / 2
    _translucent_box(img, (x - BANK_PAD, y - 18, x + total + BANK_PAD, y + 18), NEWS_BOX, 150, 12)
    for (kind, text), w in zip(parts, widths, strict=True):
        if kind == "house":
            dr.house(d, x + 9, y, 16)
        elif kind == "hotel":
            dr.hotel(d, (x, y - 8, x + 18, y + 8))
        dr.text(img, (x + (24 if kind != "text" else 0), y), text, BANK_SIZE, "bold", WHITE, "lm")
        x += w + gap

