"""The side panel of the board picture: the edition and turn, the banner naming the seat the game waits for,
and one row per seat. Like the centre, each piece is a hashable view (its box and everything its pixels
depend on) drawn from the view alone."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine import HOTEL, KINDS, Edition, State, legal_kinds, load, net_worth
from render import draw as dr
from render.centre import HALO, token_sprite, waiting_for
from render.fonts import font
from render.layout import HEIGHT, PANEL_X, WIDTH
from render.style import INK, RGB, seat_colour, text_on, theme
from render.texts import cash, edition_name, label, language, short_edition, square_name
from words import seat_name

PANEL_PAD = 12
MONEY_LIGHT = (140, 230, 160)
HEADER_BOX = (PANEL_X, 0, WIDTH, 46)
BANNER_BOX = (PANEL_X, 46, WIDTH, 120)
ROWS_TOP = 126


class HeaderView(NamedTuple):
    edition: str
    title: str
    turn: str
    short: str = ""  # the edition in a word or two, where `title` does not fit beside `turn`

    def box(self) -> tuple[int, int, int, int]:
        return HEADER_BOX


class BannerView(NamedTuple):
    who: str
    what: str
    tokens: tuple[tuple[int, str], ...]  # (seat, letter), at most three

    def box(self) -> tuple[int, int, int, int]:
        return BANNER_BOX


class RowView(NamedTuple):
    edition: str
    y0: int
    h: int
    seat: int
    letter: str
    name: str
    money: str
    faded: bool
    stats: str
    houses: int
    hotels: int
    chips: tuple[tuple[str, RGB], ...]
    glowing: bool
    rank: int  # 0: the game is not over
    gold: bool

    def box(self) -> tuple[int, int, int, int]:
        return PANEL_X, self.y0, WIDTH, self.y0 + self.h + 8


PanelPiece = HeaderView | BannerView | RowView


# -- views --------------------------------------------------------------------------------------------------
def panel_views(
    state: State, ed: Edition, lang: str, letters: list[str], absent: frozenset[int]
) -> tuple[PanelPiece, ...]:
    pieces: list[PanelPiece] = [
        HeaderView(ed.id, edition_name(ed.id, lang), label(lang, "board.turn", turn=state.turn),
                   short_edition(ed.id, lang))
    ]
    who, what = caption(state, lang)
    waiting = [state.winner] if state.phase == "over" and state.winner >= 0 else waiting_for(state)
    pieces.append(BannerView(who, what, tuple((seat, letters[seat]) for seat in waiting[:3])))
    over = state.phase == "over"
    ranked = _final_order(state) if over else [(0, seat) for seat in state.order]
    row_h = min(112, (HEIGHT - 8 - ROWS_TOP) // max(1, len(ranked)))
    row_h -= row_h % 2  # rows start on even pixels: drawn alone or together, text rounds the same way
    glowing = set(waiting_for(state))
    for k, (rank, seat) in enumerate(ranked):
        s = state.seats[seat]
        stats, houses, hotels = _stats(state, ed, seat, lang)
        pieces.append(
            RowView(
                ed.id,
                ROWS_TOP + k * row_h,
                row_h - 8,
                seat,
                letters[seat],
                seat_name(state, seat, lang),
                cash(ed.id, s.cash),
                s.out,
                stats,
                houses,
                hotels,
                tuple(_chips(state, ed, seat, lang, absent)),
                seat in glowing,
                rank,
                rank == 1 and not s.out,
            )
        )
    return tuple(pieces)


def caption(state: State, lang: str = "es") -> tuple[str, str]:
    """(who, what): the seat or seats the game waits for now, and what it waits for. After the game: the end
    and the winner."""
    lang = language(lang)
    ed = load(state.edition)
    names = [seat_name(state, s, lang) for s in waiting_for(state)]
    if state.phase == "over":
        what = label(lang, "board.winner", name=seat_name(state, state.winner, lang)) if state.winner >= 0 else ""
        return label(lang, "board.game_over"), what
    if state.debts:
        debt = state.debts[0]
        return names[0], label(lang, "board.to_pay", amount=cash(ed.id, debt.amount))
    if state.auction is not None:
        return label(lang, "board.bidding"), ", ".join(names)
    if state.trade is not None:
        return names[0], label(lang, "board.to_answer", name=seat_name(state, state.trade.proposer, lang))
    if state.phase == "buy":
        square = square_name(ed.id, state.seats[state.current].pos, lang)
        return names[0], label(lang, "board.to_buy", square=square)
    if state.phase == "end":
        return names[0], label(lang, _END_CAPTIONS[frozenset(legal_kinds(state, state.current, _NOT_NAMED))])
    return names[0], label(lang, f"board.to_{state.phase}")


# The end of a turn names only what the seat may still do (no block: no building; mundial's trading window
# closed: no trade), as the table's prompt does.
_NAMED = frozenset({"build", "propose_trade"})
_NOT_NAMED = frozenset(KINDS) - _NAMED
_END_CAPTIONS = {_NAMED: "board.to_end", frozenset({"build"}): "board.to_end_build",
                 frozenset({"propose_trade"}): "board.to_end_trade", frozenset(): "board.to_end_only"}


def _final_order(state: State) -> list[tuple[int, int]]:
    """(rank, seat) best first: the engine's standings, else by net worth with bankrupt seats last."""
    if state.standings:
        return [(s.rank, s.seat) for s in sorted(state.standings, key=lambda s: s.rank)]
    order = sorted(range(len(state.seats)), key=lambda s: (state.seats[s].out, -net_worth(state, s)[0]))
    return [(k + 1, seat) for k, seat in enumerate(order)]


def _stats(state: State, ed: Edition, seat: int, lang: str) -> tuple[str, int, int]:
    """'8 titles · worth $665,000', and the seat's houses and hotels."""
    titles = sum(1 for o in state.owner if o == seat)
    houses = sum(lv for i, lv in enumerate(state.level) if state.owner[i] == seat and lv < HOTEL)
    hotels = sum(1 for i, lv in enumerate(state.level) if state.owner[i] == seat and lv == HOTEL)
    parts = [label(lang, "board.title_one") if titles == 1 else label(lang, "board.titles", count=titles)]
    parts.append(label(lang, "board.worth", amount=cash(ed.id, net_worth(state, seat)[0])))
    return " · ".join(parts), houses, hotels


CHIP_JAIL = (120, 196, 250)
CHIP_OUT = (210, 60, 60)
CHIP_COMPUTER = (150, 160, 176)
CHIP_AWAY = (250, 170, 70)
CHIP_WINNER = (255, 200, 40)
CHIP_OTHER = (190, 150, 230)
CHIP_DEBT = (250, 120, 80)


def _chips(state: State, ed: Edition, seat: int, lang: str, absent: frozenset[int]) -> list[tuple[str, RGB]]:
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
    elif seat in absent:
        out.append((label(lang, "board.status_away"), CHIP_AWAY))
    if s.club:
        out.append((label(lang, "board.status_club"), CHIP_OTHER))
    if s.jail_cards:
        out.append((label(lang, "board.status_card"), CHIP_OTHER))
    return out


# -- drawing (ox, oy: where the picture drawn on starts on the board) -------------------------------------
def draw_piece(img: Image.Image, piece: PanelPiece, ox: int, oy: int) -> None:
    x0, x1 = PANEL_X + PANEL_PAD - ox, WIDTH - PANEL_PAD - ox
    if isinstance(piece, HeaderView):
        th = theme(piece.edition)
        turn_w = font(20, "bold").getlength(piece.turn)
        size, title = _header_title(piece.title, piece.short, int(x1 - x0 - turn_w - 16))
        dr.text(img, (x0, 26 - oy), title, size, "regular", th.panel_muted, "lm")
        dr.text(img, (x1, 26 - oy), piece.turn, 20, "bold", th.panel_text, "rm")
    elif isinstance(piece, BannerView):
        _banner(img, piece, x0, BANNER_BOX[1] - oy, x1)
    else:
        _row(img, piece, x0, piece.y0 - oy, x1)


HEADER_SIZES = (18, 17, 16, 15)
STATS_SIZES = (18, 17, 16, 15)


@lru_cache(maxsize=256)
def _header_title(title: str, short: str, width: int) -> tuple[int, str]:
    """The edition's full name in the largest of HEADER_SIZES that fits `width` beside the turn, else its short
    name ("Turista Mundial (edición moder…" was cut where "Turista moderno" fits whole)."""
    for text in (title, short) if short else (title,):
        size = next((size for size in HEADER_SIZES if font(size, "regular").getlength(text) <= width), None)
        if size is not None:
            return size, text
    return HEADER_SIZES[-1], dr.ellipsize(short or title, font(HEADER_SIZES[-1], "regular"), width)


BANNER_SIZES = (19, 18, 17, 16)


def _banner(img: Image.Image, v: BannerView, x0: int, y: int, x1: int) -> None:
    """Who the game waits for now, and for what: the caption of the picture."""
    d = ImageDraw.Draw(img)
    h = 70
    d.rounded_rectangle((x0, y, x1, y + h), 12, fill=HALO)
    x = x0 + 14
    # The tokens beside the name; what the game waits for on the whole width below them, in the largest size
    # that fits ("construye, negocia o termina su turno" was cut to "termina s…").
    for k, (seat, letter) in enumerate(v.tokens):
        dr.paste_centred(img, token_sprite(seat, letter, 30, False, False), x + 16 + k * 22, y + 23)
    name_x = x + (40 + 22 * (len(v.tokens) - 1) if v.tokens else 0)
    dr.text(img, (name_x, y + 23), dr.ellipsized(v.who, 26, "heavy", x1 - name_x - 10), 26, "heavy", INK, "lm")
    size = _banner_size(v.what, x1 - x - 10)
    dr.text(img, (x, y + 53), dr.ellipsized(v.what, size, "bold", x1 - x - 10), size, "bold", INK, "lm")


@lru_cache(maxsize=256)
def _banner_size(what: str, width: int) -> int:
    """The largest of BANNER_SIZES in which `what` fits `width` (cached: the banner changes every turn)."""
    return next((size for size in BANNER_SIZES if font(size, "bold").getlength(what) <= width), BANNER_SIZES[-1])


def _row(img: Image.Image, v: RowView, x0: int, y0: int, x1: int) -> None:
    """One seat: token, name and cash; titles and net worth; marks (computer, away, jail, debt, out)."""
    th = theme(v.edition)
    h = v.h
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((x0, y0, x1, y0 + h), 12, fill=th.panel_current if v.glowing else th.panel_row,
                        outline=HALO if v.glowing else None, width=3)
    d.rounded_rectangle((x0, y0, x0 + 9, y0 + h), 4, fill=seat_colour(v.seat))
    x = x0 + 20
    if v.rank:
        dr.text(img, (x + 8, y0 + h / 2), str(v.rank), 28, "heavy", HALO if v.gold else th.panel_muted, "mm")
        x += 26
    dr.paste_centred(img, token_sprite(v.seat, v.letter, 36, False, False), x + 20, y0 + min(28, h / 2))
    x += 48
    text_colour = th.panel_muted if v.faded else th.panel_text
    money_w = font(25, "heavy").getlength(v.money)
    line1 = y0 + 22
    dr.text(img, (x, line1), dr.ellipsized(v.name, 25, "bold", int(x1 - x - money_w - 20)), 25, "bold", text_colour,
            "lm")
    dr.text(img, (x1 - 12, line1), v.money, 25, "heavy", th.panel_muted if v.faded else MONEY_LIGHT, "rm")
    right = x1 - 12
    line2 = y0 + 48
    for count, kind in ((v.hotels, "hotel"), (v.houses, "house")):
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
    # Titles and worth in the largest size that fits beside the buildings ("26 títulos · vale $739,…" was cut).
    width = int(right - x)
    size = next((size for size in STATS_SIZES if font(size, "regular").getlength(v.stats) <= width), STATS_SIZES[-1])
    dr.text(img, (x, line2), dr.ellipsized(v.stats, size, "regular", width), size, "regular", th.panel_muted, "lm")
    chip_y = y0 + 62 if h >= 84 else y0 + 34
    cx = x if h >= 84 else x1 - 12
    # Without a third line the most important mark goes on the name's line, right of it.
    chips = v.chips if h >= 84 else v.chips[:1]
    for text, fill in chips:
        sprite = dr.chip_sprite(text, 15, fill, text_on(fill))
        if h < 84:
            cx -= sprite.width
        elif cx + sprite.width > x1 - 8:
            break
        img.paste(sprite, (int(cx), int(chip_y)), sprite)
        cx += sprite.width + 5
