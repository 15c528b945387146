"""The board picture: the printed board (cached) plus what changes: owned squares (tiles in the owner's colour,
with mortgages and buildings), the tokens in the lane inside the ring, the centre (last roll, auction, news,
bank, clock) and the side panel of seats."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import HOTEL, State, load
from engine.board import net_worth
from engine.edition import Edition
from engine.narrate import describe
from render import draw as dr
from render.flags import flag, has_flag
from render.fonts import font
from render.layout import CENTRE_BOX, HEIGHT, PANEL_X, RING_INNER, WIDTH, cells
from render.png import encode, palette, register_sample
from render.static import printed_board, tile
from render.style import INK, RGB, WHITE, Theme, seat_colour, text_on, theme
from render.texts import cash, edition_name, label, language, seat_letters, square_name

TOKEN = 32  # token diameter in the lane (16 px on a desktop channel, 10 on a phone)
HALO = (255, 222, 60)  # the ring around the tokens of the seats the game waits for
HALO_RADIUS = TOKEN // 2 + 7  # a token with its halo and shadow


@dataclass(frozen=True)
class Table:
    """What the bot knows beside the state and the board shows: the events of the last action (the centre
    tells the last one or two), the seats whose person is away (played for by the clock) and the minutes left
    of a game with a time limit."""

    events: tuple[dict, ...] = ()
    absent: frozenset[int] = field(default_factory=frozenset)
    minutes_left: int | None = None


def board(
    state: State,
    lang: str = "es",
    *,
    events: Iterable[dict] = (),
    absent: Iterable[int] = (),
    minutes_left: int | None = None,
) -> bytes:
    """The board of `state` as PNG bytes, 1100 x 688 (pure: only reads its arguments; thread-safe)."""
    lang = language(lang)
    table = Table(tuple(events), frozenset(absent), minutes_left)
    return encode(board_image(state, lang, table), state.edition, lang)


def prepare(edition: str, lang: str = "es") -> None:
    """Draw the printed board of `edition` and learn its palette now (about a second, once per edition and
    language), so that the first board of a game comes as fast as the others. Optional: `board` does it
    on first use."""
    lang = language(lang)
    printed_board(edition, lang)
    palette("board", edition, lang)


def board_image(state: State, lang: str = "es", table: Table | None = None) -> Image.Image:
    """The board of `state` as an RGB picture, `layout.WIDTH` x `layout.HEIGHT`."""
    lang = language(lang)
    table = table or Table()
    ed = load(state.edition)
    img = printed_board(ed.id, lang).copy()
    grid = cells(ed.id)
    letters = seat_letters(state)
    for i in range(len(ed.squares)):
        owner = state.owner[i]
        if owner >= 0:
            img.paste(tile(ed.id, lang, i, owner, state.mortgaged[i], state.level[i], letters[owner]), grid[i].box[:2])
    _tokens(img, state, ed, letters)
    _centre(img, state, ed, lang, table, letters)
    _panel(img, state, ed, lang, table, letters)
    return img


def waiting_for(state: State) -> list[int]:
    """The seats the game waits for now: the debtor, the bidders, the target of an offer, or the seat whose
    turn it is."""
    if state.phase == "over":
        return []
    if state.trade is not None and not state.debts:
        return [state.trade.target]
    return state.seat_to_act()


# -- tokens -----------------------------------------------------------------------------------------------
def _tokens(img: Image.Image, state: State, ed: Edition, letters: list[str]) -> None:
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
            # Into the board along the diagonal, clear of the lanes of the squares beside the corner.
            step = TOKEN * 0.62
            for k, seat in enumerate(seats):
                placed.append((seat, ax + ix * k * step, ay + iy * k * step))
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
    placed = [(seat, min(hi, max(lo, x)), min(hi, max(lo, y))) for seat, x, y in placed]
    # The seats the game waits for go on top.
    placed.sort(key=lambda p: p[0] in glowing)
    for seat, x, y in placed:
        s = state.seats[seat]
        sprite = token_sprite(seat, letters[seat], TOKEN, seat in glowing, s.jailed and s.pos == jail)
        dr.paste_centred(img, sprite, x, y)


@lru_cache(maxsize=128)
def token_sprite(seat: int, letter: str, size: int, glowing: bool, jailed: bool) -> Image.Image:
    """A seat's token; glowing when the game waits for it, behind bars in jail (cached, never modified)."""
    sprite = dr.token(seat_colour(seat), letter, size, HALO if glowing else None)
    if not jailed:
        return sprite
    barred = sprite.copy()
    d = ImageDraw.Draw(barred)
    w, h = barred.size
    for k in (-1, 0, 1):
        # Light bars edged in ink: seen on a dark token as on a light one.
        x = w / 2 + k * size * 0.3
        d.line((x, h * 0.1, x, h * 0.9), fill=(*INK, 255), width=5)
        d.line((x, h * 0.1 + 1, x, h * 0.9 - 1), fill=(225, 228, 235, 255), width=2)
    return barred


# -- the centre -------------------------------------------------------------------------------------------
DIE = 46
NEWS_BOX = (24, 24, 24)


def _centre(img: Image.Image, state: State, ed: Edition, lang: str, table: Table, letters: list[str]) -> None:
    x0, y0, x1, y1 = CENTRE_BOX
    cx = (x0 + x1) / 2
    y = y0 + 96
    if len(state.dice) == 2 and all(1 <= v <= 6 for v in state.dice):
        for k, value in enumerate(state.dice):
            dr.paste_centred(img, dr.die(value, DIE), cx + (k - 0.5) * (DIE + 14), y + DIE / 2)
        y += DIE + 14
    else:
        y += 8
    if state.auction is not None:
        y = _auction_box(img, state, ed, lang, letters, x0 + 40, y, x1 - 40) + 10
    news = _news(state, lang, table.events)
    if news:
        y = _news_box(img, news, x0 + 30, y, x1 - 30) + 10
    _bank_line(img, state, ed, lang, table, cx, y1 - 20)


def _news(state: State, lang: str, events: Sequence[dict]) -> list[str]:
    """The last two sentences worth telling of the last action."""
    lines = [describe(e, state, lang) for e in events]
    return [line for line in lines if line][-2:]


def _news_box(img: Image.Image, news: list[str], x0: float, y: float, x1: float) -> float:
    f = font(19, "regular")
    wrapped: list[str] = []
    for line in news:
        parts = dr.wrap(line, f, int(x1 - x0 - 24)) or [line]
        if len(parts) > 2:
            parts = [parts[0], dr.ellipsize(" ".join(parts[1:]), f, x1 - x0 - 24)]
        wrapped.extend(parts)
    h = len(wrapped) * 23 + 14
    _translucent_box(img, (x0, y, x1, y + h), NEWS_BOX, 150, 10)
    for k, line in enumerate(wrapped):
        dr.text(img, (x0 + 12, y + 8 + k * 23), line, 19, "regular", WHITE)
    return y + h


def _translucent_box(img: Image.Image, box: tuple[float, float, float, float], colour: RGB, alpha: int, r: int) -> None:
    x0, y0, x1, y1 = (int(v) for v in box)
    mask = _rounded_mask(x1 - x0, y1 - y0, r, alpha)
    img.paste(colour, (x0, y0), mask)


@lru_cache(maxsize=64)
def _rounded_mask(w: int, h: int, r: int, alpha: int) -> Image.Image:
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), r, fill=alpha)
    return mask


def _auction_box(
    img: Image.Image, state: State, ed: Edition, lang: str, letters: list[str], x0: float, y: float, x1: float
) -> float:
    """The title under the hammer, the highest bid and who made it."""
    au = state.auction
    assert au is not None
    d = ImageDraw.Draw(img)
    h = 74
    d.rounded_rectangle((x0, y, x1, y + h), 10, fill=WHITE, outline=INK, width=2)
    sq = ed.squares[au.square]
    x = x0 + 12
    if au.item == "title" and has_flag(sq.id):
        img.paste(flag(sq.id, 36, 24), (int(x), int(y + 10)))
        x += 44
    what = label(lang, "board.auction_title", square=square_name(ed.id, au.square, lang))
    dr.text(img, (x, y + 22), dr.ellipsize(what, font(20, "bold"), x1 - x - 10), 20, "bold", INK, "lm")
    if au.bidder >= 0:
        tok = token_sprite(au.bidder, letters[au.bidder], 26, False, False)
        dr.paste_centred(img, tok, x0 + 28, y + 52)
        bid = label(lang, "board.auction_bid", amount=cash(ed.id, au.bid), bidder=state.seats[au.bidder].name)
        dr.text(img, (x0 + 48, y + 53), dr.ellipsize(bid, font(19, "regular"), x1 - x0 - 58), 19, "regular", INK, "lm")
    else:
        dr.text(img, (x0 + 12, y + 53), label(lang, "board.auction_no_bid"), 19, "regular", INK, "lm")
    return y + h


def _bank_line(img: Image.Image, state: State, ed: Edition, lang: str, table: Table, cx: float, y: float) -> None:
    """The bank's buildings left (a house and a hotel with their counts), the pot, the clock of the game."""
    d = ImageDraw.Draw(img)
    parts: list[tuple[str, str]] = [("house", str(state.bank_houses)), ("hotel", str(state.bank_hotels))]
    if state.pot:
        parts.append(("text", label(lang, "board.pot", amount=cash(ed.id, state.pot))))
    if table.minutes_left is not None:
        parts.append(("text", label(lang, "board.minutes_left", minutes=max(0, table.minutes_left))))
    f = font(20, "bold")
    widths = [(24 if kind != "text" else 0) + f.getlength(text) for kind, text in parts]
    gap = 22
    total = sum(widths) + gap * (len(parts) - 1)
    x = cx - total / 2
    _translucent_box(img, (x - 14, y - 18, x + total + 14, y + 18), NEWS_BOX, 150, 12)
    for (kind, text), w in zip(parts, widths, strict=True):
        if kind == "house":
            dr.house(d, x + 9, y, 16)
        elif kind == "hotel":
            dr.hotel(d, (x, y - 8, x + 18, y + 8))
        dr.text(img, (x + (24 if kind != "text" else 0), y), text, 20, "bold", WHITE, "lm")
        x += w + gap


# -- the side panel ---------------------------------------------------------------------------------------
PANEL_PAD = 12
MONEY_LIGHT = (140, 230, 160)


def _panel(img: Image.Image, state: State, ed: Edition, lang: str, table: Table, letters: list[str]) -> None:
    th = theme(ed.id)
    x0, x1 = PANEL_X + PANEL_PAD, WIDTH - PANEL_PAD
    title = edition_name(ed.id, lang)
    turn = label(lang, "board.turn", turn=state.turn)
    turn_w = font(20, "bold").getlength(turn)
    dr.text(img, (x0, 26), dr.ellipsize(title, font(18, "regular"), x1 - x0 - turn_w - 16), 18, "regular",
            th.panel_muted, "lm")
    dr.text(img, (x1, 26), turn, 20, "bold", th.panel_text, "rm")
    y = _banner(img, state, ed, lang, letters, x0, 46, x1)
    over = state.phase == "over"
    seats = [seat for _, seat in _final_order(state)] if over else list(state.order)
    ranks = dict((seat, rank) for rank, seat in _final_order(state)) if over else {}
    top, bottom = y + 10, HEIGHT - 8
    row_h = min(112, (bottom - top) // max(1, len(seats)))
    glowing = set(waiting_for(state))
    for k, seat in enumerate(seats):
        _seat_row(img, state, ed, lang, table, letters, seat, x0, top + k * row_h, x1, row_h - 8, th,
                  seat in glowing, ranks.get(seat))


def _final_order(state: State) -> list[tuple[int, int]]:
    """(rank, seat) best first: the engine's standings, else by net worth with bankrupt seats last."""
    if state.standings:
        return [(s.rank, s.seat) for s in sorted(state.standings, key=lambda s: s.rank)]
    ed = load(state.edition)
    order = sorted(range(len(state.seats)), key=lambda s: (state.seats[s].out, -net_worth(state, ed, s)[0]))
    return [(k + 1, seat) for k, seat in enumerate(order)]


def _banner(
    img: Image.Image, state: State, ed: Edition, lang: str, letters: list[str], x0: int, y: int, x1: int
) -> int:
    """Who the game waits for now, and for what: the caption of the picture."""
    d = ImageDraw.Draw(img)
    h = 70
    d.rounded_rectangle((x0, y, x1, y + h), 12, fill=HALO)
    who, what = caption(state, lang)
    waiting = waiting_for(state)
    x = x0 + 14
    if state.phase == "over" and state.winner >= 0:
        waiting = [state.winner]
    for k, seat in enumerate(waiting[:3]):
        dr.paste_centred(img, token_sprite(seat, letters[seat], 34, False, False), x + 18 + k * 24, y + h / 2)
    if waiting:
        x += 44 + 24 * (min(3, len(waiting)) - 1)
    dr.text(img, (x, y + 23), dr.ellipsize(who, font(26, "heavy"), x1 - x - 10), 26, "heavy", INK, "lm")
    dr.text(img, (x, y + 52), dr.ellipsize(what, font(19, "bold"), x1 - x - 10), 19, "bold", INK, "lm")
    return y + h


def caption(state: State, lang: str = "es") -> tuple[str, str]:
    """(who, what): the seat or seats the game waits for now, and what it waits for. After the game: the end
    and the winner."""
    lang = language(lang)
    ed = load(state.edition)
    names = [state.seats[s].name for s in waiting_for(state)]
    if state.phase == "over":
        what = label(lang, "board.winner", name=state.seats[state.winner].name) if state.winner >= 0 else ""
        return label(lang, "board.game_over"), what
    if state.debts:
        debt = state.debts[0]
        return names[0], label(lang, "board.to_pay", amount=cash(ed.id, debt.amount))
    if state.auction is not None:
        return label(lang, "board.bidding"), ", ".join(names)
    if state.trade is not None:
        return names[0], label(lang, "board.to_answer", name=state.seats[state.trade.proposer].name)
    if state.phase == "buy":
        square = square_name(ed.id, state.seats[state.current].pos, lang)
        return names[0], label(lang, "board.to_buy", square=square)
    return names[0], label(lang, f"board.to_{state.phase}")


def _seat_row(
    img: Image.Image,
    state: State,
    ed: Edition,
    lang: str,
    table: Table,
    letters: list[str],
    seat: int,
    x0: int,
    y0: int,
    x1: int,
    h: int,
    th: Theme,
    glowing: bool,
    rank: int | None,
) -> None:
    """One seat: token, name and cash; titles and net worth; marks (computer, away, jail, debt, out)."""
    s = state.seats[seat]
    colour = seat_colour(seat)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((x0, y0, x1, y0 + h), 12, fill=th.panel_current if glowing else th.panel_row,
                        outline=HALO if glowing else None, width=3)
    d.rounded_rectangle((x0, y0, x0 + 9, y0 + h), 4, fill=colour)
    x = x0 + 20
    if rank is not None:
        gold = rank == 1 and not s.out
        dr.text(img, (x + 8, y0 + h / 2), str(rank), 28, "heavy", HALO if gold else th.panel_muted, "mm")
        x += 26
    dr.paste_centred(img, token_sprite(seat, letters[seat], 36, False, False), x + 20, y0 + min(28, h / 2))
    x += 48
    faded = s.out
    text_colour = th.panel_muted if faded else th.panel_text
    money = cash(ed.id, s.cash)
    money_w = font(25, "heavy").getlength(money)
    line1 = y0 + 22
    dr.text(img, (x, line1), dr.ellipsized(s.name, 25, "bold", int(x1 - x - money_w - 20)), 25, "bold", text_colour,
            "lm")
    dr.text(img, (x1 - 12, line1), money, 25, "heavy", th.panel_muted if faded else MONEY_LIGHT, "rm")
    stats, houses, hotels = _stats(state, ed, seat, lang)
    right = x1 - 12
    line2 = y0 + 48
    for count, kind in ((hotels, "hotel"), (houses, "house")):
        # The seat's buildings as the icons of the board, counted, at the right of the line.
        if not count:
            continue
        dr.text(img, (right, line2), str(count), 18, "bold", th.panel_text, "rm")
        right -= font(18, "bold").getlength(str(count)) + 4
        if kind == "house":
            dr.house(d, right - 7, line2, 14)
        else:
            dr.hotel(d, (right - 16, line2 - 7, right, line2 + 7))
        right -= 26
    dr.text(img, (x, line2), dr.ellipsized(stats, 18, "regular", int(right - x)), 18, "regular", th.panel_muted, "lm")
    chips = _chips(state, ed, seat, lang, table)
    chip_y = y0 + 62 if h >= 84 else y0 + 34
    cx = x if h >= 84 else x1 - 12
    if h < 84:
        # No third line: the marks go on the name's line, right of it, the most important first.
        chips = chips[:1]
    for text, fill in chips:
        sprite = dr.chip_sprite(text, 15, fill, text_on(fill))
        if h < 84:
            cx -= sprite.width
            img.paste(sprite, (int(cx), int(chip_y)), sprite)
            break
        if cx + sprite.width > x1 - 8:
            break
        img.paste(sprite, (int(cx), int(chip_y)), sprite)
        cx += sprite.width + 5


def _stats(state: State, ed: Edition, seat: int, lang: str) -> tuple[str, int, int]:
    """'8 titles · worth $665,000', and the seat's houses and hotels."""
    titles = sum(1 for o in state.owner if o == seat)
    houses = sum(lv for i, lv in enumerate(state.level) if state.owner[i] == seat and lv < HOTEL)
    hotels = sum(1 for i, lv in enumerate(state.level) if state.owner[i] == seat and lv == HOTEL)
    parts = [label(lang, "board.title_one") if titles == 1 else label(lang, "board.titles", count=titles)]
    parts.append(label(lang, "board.worth", amount=cash(ed.id, net_worth(state, ed, seat)[0])))
    return " · ".join(parts), houses, hotels


CHIP_JAIL = (120, 196, 250)
CHIP_OUT = (210, 60, 60)
CHIP_COMPUTER = (150, 160, 176)
CHIP_AWAY = (250, 170, 70)
CHIP_WINNER = (255, 200, 40)
CHIP_OTHER = (190, 150, 230)
CHIP_DEBT = (250, 120, 80)


def _chips(state: State, ed: Edition, seat: int, lang: str, table: Table) -> list[tuple[str, RGB]]:
    s = state.seats[seat]
    out: list[tuple[str, RGB]] = []
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
    elif seat in table.absent:
        out.append((label(lang, "board.status_away"), CHIP_AWAY))
    if s.club:
        out.append((label(lang, "board.status_club"), CHIP_OTHER))
    if s.jail_cards:
        out.append((label(lang, "board.status_card"), CHIP_OTHER))
    return out


def _busy_board(edition: str, lang: str) -> Image.Image:
    """A board with every kind of mark on it, the sample the palette is learnt from."""
    from render.sample import busy_state

    state = busy_state(edition)
    return board_image(state, lang, Table(minutes_left=42))


register_sample("board", _busy_board, kmeans=1)
