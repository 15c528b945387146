"""The board picture: the printed board, the squares that are owned (tiles in the owner's colour, with
mortgages and buildings), the tokens in the lane inside the ring, the centre (last roll, auction, news, bank,
clock) and the side panel of seats.

Drawing only what changed. A board is first described as a `Picture`: hashable views of every piece that can
change (`render.centre`, `render.panel`, the owned tiles). The 256-colour picture is then put together from
pieces kept already reduced to the palette (the printed board with a game's tiles, each tile, the middle of
the ring in strips, each panel row), so a piece is drawn and mapped to the palette once however many boards
show it; and the PNG is put together from bands of rows kept already compressed (`render.bands`), each named
by the pieces drawn in it, so only rows that changed are deflated. `board_image` draws the same picture from
scratch in full colour; `tests/test_render.py` checks that both give the same pixels.
"""

from __future__ import annotations

import itertools
from collections.abc import Container, Hashable, Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import NamedTuple

from PIL import Image

from engine import State, load, new_game
from render import bands
from render.centre import CentrePiece, TokenView, centre_views, draw_token, token_views, waiting_for
from render.centre import draw_piece as draw_centre_piece
from render.layout import HEIGHT, RING_INNER, WIDTH, cells
from render.panel import PanelPiece, caption, panel_views
from render.panel import draw_piece as draw_panel_piece
from render.png import palette, register_sample
from render.static import printed_board, tile
from render.texts import language, seat_letters

__all__ = ["Table", "board", "board_image", "caption", "clear_caches", "prepare", "warm_up", "waiting_for"]


@dataclass(frozen=True)
class Table:
    """What the bot knows beside the state and the board shows: the events of the last action (the centre
    tells the last one or two), the seats whose person is away (played for by the clock) and the minutes left
    of a game with a time limit."""

    events: tuple[dict, ...] = ()
    absent: frozenset[int] = field(default_factory=frozenset)
    minutes_left: int | None = None


class TileView(NamedTuple):
    square: int
    owner: int
    mortgaged: bool
    level: int
    letter: str


class Picture(NamedTuple):
    """Everything a board picture shows beyond the printed board: equal pictures are equal tuples."""

    edition: str
    lang: str
    tiles: tuple[TileView, ...]
    centre: tuple[CentrePiece, ...]
    tokens: tuple[TokenView, ...]
    panel: tuple[PanelPiece, ...]


def board(
    state: State,
    lang: str = "es",
    *,
    events: Iterable[dict] = (),
    absent: Iterable[int] = (),
    minutes_left: int | None = None,
) -> bytes:
    """The board of `state` as PNG bytes, 1100 x 688 (pure: only reads its arguments; thread-safe)."""
    pic = picture(state, language(lang), Table(tuple(events), frozenset(absent), minutes_left))
    pal = _palette_bytes(pic.edition, pic.lang)
    return bands.png(WIDTH, HEIGHT, pal, band_keys(pic), BANDS, lambda missing: compose(pic, missing))


BANDS = bands.BandCache()


def picture(state: State, lang: str, table: Table | None = None) -> Picture:
    table = table or Table()
    ed = load(state.edition)
    letters = seat_letters(state)
    tiles = tuple(
        TileView(i, owner, state.mortgaged[i], state.level[i], letters[owner])
        for i, owner in enumerate(state.owner)
        if owner >= 0
    )
    return Picture(
        ed.id,
        lang,
        tiles,
        centre_views(state, ed, lang, letters, table.events, table.minutes_left),
        token_views(state, ed, letters),
        panel_views(state, ed, lang, letters, table.absent),
    )


def board_image(state: State, lang: str = "es", table: Table | None = None) -> Image.Image:
    """The board of `state` as an RGB picture, `layout.WIDTH` x `layout.HEIGHT`, drawn from scratch."""
    return draw_rgb(picture(state, language(lang), table))


def draw_rgb(pic: Picture) -> Image.Image:
    img = printed_board(pic.edition, pic.lang).copy()
    grid = cells(pic.edition)
    for t in pic.tiles:
        img.paste(tile(pic.edition, pic.lang, *t), grid[t.square].box[:2])
    for piece in pic.centre:
        draw_centre_piece(img, piece, 0, 0)
    for token in pic.tokens:
        draw_token(img, token, 0, 0)
    for panel_piece in pic.panel:
        draw_panel_piece(img, panel_piece, 0, 0)
    return img


def compose(pic: Picture, only: Container[int] | None = None) -> Image.Image:
    """The 256-colour picture from pieces already mapped to the palette, laid out as PNG scanlines (see
    `bands.scanlines`: the picture starts at x = 1). With `only` (band numbers), just the pieces reaching
    those bands are pasted: the other rows may then show the printed board without them."""

    def needed(first_row: int, last_row: int) -> bool:
        first, last = first_row // bands.BAND_ROWS, last_row // bands.BAND_ROWS
        return only is None or any(b in only for b in range(first, last + 1))

    img = _tiled_p(pic.edition, pic.lang, pic.tiles).copy()
    x0, y0, _, y1 = RING_INNER
    for top in range(y0, y1, RING_STRIP):
        bottom = min(y1, top + RING_STRIP)
        if needed(top, bottom - 1):
            centre = tuple(p for p in pic.centre if _overlaps(p.rows(), top, bottom))
            tokens = tuple(t for t in pic.tokens if _overlaps(t.rows(), top, bottom))
            img.paste(_ring_strip_p(pic.edition, pic.lang, top, bottom, centre, tokens), (1 + x0, top))
    for piece in pic.panel:
        box = piece.box()
        if needed(box[1], box[3] - 1):
            img.paste(_panel_p(pic.edition, pic.lang, piece), (1 + box[0], box[1]))
    return img


def _to_palette(img: Image.Image, edition: str, lang: str) -> Image.Image:
    return img.quantize(palette=palette("board", edition, lang), dither=Image.Dither.NONE)


@cache
def _static_p(edition: str, lang: str) -> Image.Image:
    """The printed board mapped to the palette, as PNG scanlines."""
    return bands.scanlines(_to_palette(printed_board(edition, lang), edition, lang))


# The printed board with a game's owned tiles, kept by the tiles: they change a few times a turn at most, and
# pasting twenty-odd tiles again for every board cost more than the copy of the whole picture. Each is
# 1101 x 688 bytes (32 are 24 MB): the games of the last tables a worker drew.
@lru_cache(maxsize=32)
def _tiled_p(edition: str, lang: str, tiles: tuple[TileView, ...]) -> Image.Image:
    img = _static_p(edition, lang).copy()
    grid = cells(edition)
    for t in tiles:
        x, y = grid[t.square].box[:2]
        img.paste(_tile_p(edition, lang, t), (1 + x, y))
    return img


@lru_cache(maxsize=2048)
def _tile_p(edition: str, lang: str, t: TileView) -> Image.Image:
    return _to_palette(tile(edition, lang, *t), edition, lang)


def _overlaps(rows: tuple[int, int], top: int, bottom: int) -> bool:
    return rows[0] < bottom and rows[1] >= top


# The inside of the ring (lanes and centre) is kept in strips of rows, each named by the pieces reaching it:
# a token that moves or a news line that changes draws and maps to the palette only its own strips. A strip
# starts on an even row, like every piece (see `_ring_strip_p`); 504 rows make nine strips of 56.
RING_STRIP = 56
assert RING_STRIP % 2 == 0


# A strip is 504 x 56 bytes (1,024 are 29 MB): the recent positions of a few dozen open tables. Measured with
# `bench/render.py`'s 25 tables interleaved: half as many strips and panel pieces kept cost 3 % more CPU per
# board, for 35 MB less.
@lru_cache(maxsize=1024)
def _ring_strip_p(edition: str, lang: str, top: int, bottom: int, centre: tuple[CentrePiece, ...],
                  tokens: tuple[TokenView, ...]) -> Image.Image:
    """Rows top..bottom-1 of the inside of the ring with the pieces reaching them, mapped to the palette."""
    # Drawn on a piece of the printed board that starts on even pixels, like every other piece: text placed
    # at half pixels rounds the same way here as on the whole picture.
    x0, _, x1, _ = RING_INNER
    assert x0 % 2 == 0 and top % 2 == 0
    img = printed_board(edition, lang).crop((x0, top, x1, bottom))
    for piece in centre:
        draw_centre_piece(img, piece, x0, top)
    for token in tokens:
        draw_token(img, token, x0, top)
    return _to_palette(img, edition, lang)


@lru_cache(maxsize=512)
def _panel_p(edition: str, lang: str, piece: PanelPiece) -> Image.Image:
    box = piece.box()
    assert box[0] % 2 == 0 and box[1] % 2 == 0
    img = printed_board(edition, lang).crop(box)
    draw_panel_piece(img, piece, box[0], box[1])
    return _to_palette(img, edition, lang)


@cache
def _square_bands(edition: str) -> tuple[tuple[int, int], ...]:
    """The bands each square's cell covers (first, last), by square."""
    return tuple((c.y0 // bands.BAND_ROWS, (c.y1 - 1) // bands.BAND_ROWS) for c in cells(edition))


def band_keys(pic: Picture) -> list[Hashable]:
    """For every band of rows, a key naming everything drawn in it: two bands with one key hold the same
    pixels. Every piece is listed (by its number, see `piece_number`) in each band its rows reach (the
    printed board is named by edition and language)."""
    n = bands.band_count(HEIGHT)
    parts: list[list[int]] = [[] for _ in range(n)]

    def add(first_row: int, last_row: int, piece: Hashable) -> None:
        number = piece_number(piece)
        for b in range(max(0, first_row // bands.BAND_ROWS), min(n - 1, last_row // bands.BAND_ROWS) + 1):
            parts[b].append(number)

    spans = _square_bands(pic.edition)
    for t in pic.tiles:
        first, last = spans[t.square]
        number = piece_number(t)
        for b in range(first, last + 1):
            parts[b].append(number)
    for piece in pic.centre:
        add(*piece.rows(), piece)
    for token in pic.tokens:
        add(*token.rows(), token)
    for panel_piece in pic.panel:
        box = panel_piece.box()
        add(box[1], box[3] - 1, panel_piece)
    return [(pic.edition, pic.lang, b, tuple(p)) for b, p in enumerate(parts)]


# Band keys name pieces by number: a band cache look-up then hashes a few small numbers, not every view of
# the band (a seat's row is in 15 bands). A number is never given to two pieces (the counter only grows), so
# forgetting the numbers costs only the bands that named them; two threads numbering one piece at once
# give it two numbers, each right.
_PIECE_NUMBERS: dict[Hashable, int] = {}
_NEXT_NUMBER = itertools.count()
PIECE_NUMBERS = 16_384  # pieces remembered: the views of a few thousand boards


def piece_number(piece: Hashable) -> int:
    number = _PIECE_NUMBERS.get(piece)
    if number is None:
        if len(_PIECE_NUMBERS) >= PIECE_NUMBERS:
            _PIECE_NUMBERS.clear()
        number = _PIECE_NUMBERS[piece] = next(_NEXT_NUMBER)
    return number


@cache
def _palette_bytes(edition: str, lang: str) -> bytes:
    return bytes((palette("board", edition, lang).getpalette() or [])[:768]).ljust(768, b"\0")


def clear_caches() -> None:
    """Forget every piece and compressed band (tests: the next board is drawn from nothing)."""
    BANDS.clear()
    _PIECE_NUMBERS.clear()
    for cached in (_tile_p, _tiled_p, _ring_strip_p, _panel_p, _static_p):
        cached.cache_clear()


def prepare(edition: str, lang: str = "es") -> None:
    """Everything the first board of `edition` in `lang` needs, done now: the printed board, the palette
    (about a second, once per edition and language), the fonts and token sprites of the calling thread. The
    first board of a game then comes as fast as any other."""
    lang = language(lang)
    from render.sample import busy_state

    st = busy_state(edition)
    board(st, lang, absent=[0], minutes_left=1)
    fresh, _ = new_game(edition, ["A", "B"], seed=1)
    board(fresh, lang)


def warm_up(editions: Iterable[str] | None = None, langs: Iterable[str] = ("es", "en")) -> None:
    """`prepare` every edition (all by default) in every language: for a process about to draw boards of any
    game, called once at start-up (off the event loop: it takes a few seconds)."""
    from engine import available

    for edition in editions or available():
        for lang in langs:
            prepare(edition, lang)


def _busy_board(edition: str, lang: str) -> Image.Image:
    """A board with every kind of mark on it, the sample the palette is learnt from."""
    from render.sample import busy_state

    return draw_rgb(picture(busy_state(edition), lang, Table(minutes_left=42)))


register_sample("board", _busy_board, kmeans=1)
