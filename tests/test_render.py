"""The pictures: shape and size limits, purity, thread safety, every token visible, texts and the CLI."""

from __future__ import annotations

import io
import itertools
import math
import re
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image

from engine import SYSTEM, Action, apply_inplace, clone, load, new_game, to_json
from engine.state import Auction, Debt
from render import board, deed, history_from_log, summary
from render import draw as render_draw
from render.__main__ import main as cli
from render.board import Table, board_image, caption, clear_caches
from render.centre import (
    JAIL_CLEAR,
    TOKEN,
    BankView,
    NewsView,
    _bank_width,
    centre_views,
    token_sprite,
    token_views,
)
from render.fonts import drawable
from render.layout import CENTRE_BOX, cells
from render.png import palette
from render.sample import final_state, play, simple_choice
from render.style import (
    AIRLINE_BAND,
    CELL,
    MIN_GROUP_DISTANCE,
    MIN_SEAT_DISTANCE,
    SEAT_COLOURS,
    UTILITY_BAND,
    block_colour,
    contrast,
    seat_colour,
    theme,
)
from render.summary import numbers, ranking
from render.texts import seat_letters

EDITIONS = ("turismundo", "mundial", "monopolio")
RENDER_DIR = Path(__file__).resolve().parent.parent / "render"


def picture(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


@pytest.fixture(scope="module")
def game() -> tuple:
    first, steps = play("turismundo", seed=5, turns=120, choose=simple_choice)
    return first, steps, final_state(first, steps)


@pytest.mark.parametrize("edition", EDITIONS)
def test_board_is_twice_the_desktop_preview_and_light(edition: str) -> None:
    first, steps = play(edition, seed=3, turns=60, choose=simple_choice)
    png = board(final_state(first, steps))
    img = picture(png)
    # Discord shows it 550 px wide on a desktop: every detail is drawn twice the size it is read at. Wide
    # enough that a preview no taller than 350 px still gets the full 550 px width.
    assert img.width == 1100
    assert img.width / img.height >= 550 / 350
    assert len(png) < 250_000


def test_board_leaves_the_state_untouched(game: tuple) -> None:
    st = game[2]
    before = to_json(st)
    board(st)
    board(st, "en")
    assert to_json(st) == before


def test_board_is_the_same_from_several_threads(game: tuple) -> None:
    first, steps, st = game
    states = [st, final_state(first, steps[:200]), first]
    expected = [board(s) for s in states]
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda k: board(states[k % 3]), range(12)))
    assert got == [expected[k % 3] for k in range(12)]


def test_languages_differ(game: tuple) -> None:
    st = game[2]
    assert board(st, "es") != board(st, "en")
    # A language the bot does not speak reads English, as Discord shows its commands (words.language_of); no
    # language at all, Spanish.
    assert board(st, "xx") == board(st, "fr") == board(st, "en")
    assert board(st, "") == board(st, "es")
    assert board(st, "en-US") == board(st, "en")  # Discord locales are understood


@pytest.mark.parametrize("square", [11, 0, 30])
def test_six_tokens_on_one_square_all_show(square: int) -> None:
    st, _ = new_game("turismundo", ["Ana", "Beto", "Carmen", "Diego", "Elena", "Fer"], seed=1)
    for s in st.seats:
        s.pos = square
    img = picture(board(st))
    x, y = cells("turismundo")[square].lane_anchor()
    crop = img.crop((int(x) - 130, int(y) - 130, int(x) + 130, int(y) + 130))
    colours = {colour for _, colour in crop.getcolors(maxcolors=1 << 16) or []}
    for seat in range(6):
        target = seat_colour(seat)
        assert any(sum(abs(a - b) for a, b in zip(c, target, strict=True)) < 30 for c in colours), seat


@pytest.mark.parametrize("edition", EDITIONS)
def test_tokens_never_cover_a_square(edition: str) -> None:
    """Tokens wait in the lane inside the ring: every square looks the same with or without them, so no
    token hides a name, a price, a building or a mortgage."""
    st, _ = new_game(edition, ["Ana", "Beto", "Carmen", "Diego", "Elena", "Fer"], seed=1)
    ed = load(edition)
    for i in (1, 3, 6, 9, 12):
        st.owner[i] = i % 6
    st.level[1], st.mortgaged[3] = 5, True
    st.seats[2].jailed = True
    st.seats[2].pos = ed.rules.jail_square
    without = picture(board(st))
    for square in range(40):
        for seat in (0, 1, 3, 4, 5):
            st.seats[seat].pos = square
        with_tokens = picture(board(st))
        for cell in cells(edition):
            assert with_tokens.crop(cell.box).tobytes() == without.crop(cell.box).tobytes(), (square, cell)


def test_seat_letters_are_unique() -> None:
    st, _ = new_game("turismundo", ["Ana", "Alberto", "ana", "🎲", "Beto", "Al"], seed=1)
    letters = seat_letters(st)
    assert len(set(letters)) == 6
    assert letters[:2] == ["A", "L"]
    assert letters[4] == "B"


def test_caption_names_the_seat_to_act() -> None:
    st, _ = new_game("turismundo", ["Ana", "Beto"], seed=1)
    st.current, st.phase = 1, "end"
    who, what = caption(st)
    assert who == "Beto" and "termina" in what
    st.debts = [Debt(debtor=0, creditor=1, amount=5_000, reason="rent")]
    assert caption(st)[0] == "Ana"
    st.debts = []
    st.auction = Auction(item="title", square=1, active=[0, 1], bid=1_000, bidder=0)
    assert caption(st, "en") == ("Auction", "Ana, Beto")
    st.phase, st.auction, st.winner = "over", None, 0
    assert caption(st, "en")[1] == "Winner: Ana"


def test_the_end_of_a_turn_names_building_only_where_the_seat_may_build() -> None:
    st, _ = new_game("turismundo", ["Ana", "Beto"], seed=1)
    st.current, st.phase = 1, "end"
    # No block in anyone's hands: nothing to build (the table's prompt says the same).
    assert caption(st, "en")[1] == "trades or ends the turn" and caption(st)[1] == "negocia o termina su turno"
    ed = load("turismundo")
    block = ed.squares[next(sq.index for sq in ed.squares if sq.kind == "country")].block
    for sq in ed.squares:
        if sq.kind == "country" and sq.block == block:
            st.owner[sq.index] = 1
    assert caption(st, "en")[1] == "builds, trades or ends the turn"


def test_seat_colours_are_far_from_every_group_colour() -> None:
    """CIEDE2000 (computed by coloraide): at least MIN_GROUP_DISTANCE from every block colour of every edition,
    from the airline and utility bands and from a free square's cream; at least MIN_SEAT_DISTANCE apart."""
    from coloraide import Color

    def colour(rgb: tuple[int, int, int]) -> Color:
        return Color("srgb", [v / 255 for v in rgb])

    groups = [colour(block_colour(e, b)) for e in EDITIONS for b in load(e).colors]
    groups += [colour(c) for c in (AIRLINE_BAND, UTILITY_BAND, CELL)]
    seats = [colour(c) for c in SEAT_COLOURS]
    assert len(seats) == 6
    for k, seat in enumerate(seats):
        nearest = min(seat.delta_e(g, method="2000") for g in groups)
        assert nearest >= MIN_GROUP_DISTANCE, (SEAT_COLOURS[k], nearest)
        for other in seats[k + 1 :]:
            assert seat.delta_e(other, method="2000") >= MIN_SEAT_DISTANCE, (SEAT_COLOURS[k], other)


def test_the_second_seat_stands_out_on_monopolio_s_pale_green_and_on_a_free_square() -> None:
    """Its lime owned squares and token melted into Monopolio's light green board (1.06:1) and the cream of the
    free squares beside them (1.38:1)."""
    assert contrast(SEAT_COLOURS[1], theme("monopolio").background) >= 2.3
    assert contrast(SEAT_COLOURS[1], CELL) >= 3


def test_marks_change_the_square() -> None:
    st, _ = new_game("turismundo", ["Ana", "Beto"], seed=1)
    cell = cells("turismundo")[39]
    plain = picture(board(st)).crop(cell.box)
    st.owner[39] = 1
    owned = picture(board(st)).crop(cell.box)
    st.mortgaged[39] = True
    mortgaged = picture(board(st)).crop(cell.box)
    assert plain.tobytes() != owned.tobytes() != mortgaged.tobytes()


def test_names_the_font_cannot_draw_are_cleaned() -> None:
    assert drawable("Ana 🎲 María") == "Ana María"
    assert drawable("Ñandú ÉÁ") == "Ñandú ÉÁ"
    st, _ = new_game("turismundo", ["🎲🎲", "Un nombre larguísimo que no cabe en ningún panel"], seed=1)
    assert picture(board(st)).width == 1100


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_square_has_a_deed(edition: str) -> None:
    for sq in load(edition).squares:
        img = picture(deed(edition, sq.index))
        assert img.width > img.height


def test_deed_with_a_game(game: tuple) -> None:
    st = game[2]
    owned = next(i for i, o in enumerate(st.owner) if o >= 0)
    assert deed("turismundo", owned, st) != deed("turismundo", owned)


def test_deed_refuses_what_is_not_on_the_board(game: tuple) -> None:
    with pytest.raises(ValueError):
        deed("turismundo", 40)
    with pytest.raises(ValueError):
        deed("mundial", 1, game[2])


def test_history_replays_the_log(game: tuple) -> None:
    first, steps, st = game
    history = history_from_log(first, steps)
    assert to_json(history.final) == to_json(st)
    assert len(history.turns) == len(history.worth)
    assert history.worth[0] == tuple(s.cash for s in first.seats)
    assert list(history.turns) == sorted(history.turns)
    assert to_json(first) == to_json(play("turismundo", seed=5, turns=120, choose=simple_choice)[0])
    rents = sum(ev["amount"] for _, evs in steps for ev in evs if ev["code"] == "transfer" and ev["reason"] == "rent")
    assert sum(numbers(history).rent) == rents
    assert sorted(seat for _, seat, _ in ranking(history)) == list(range(len(st.seats)))


def test_summary_picture(game: tuple) -> None:
    first, steps, _ = game
    img = picture(summary(history_from_log(first, steps), "en"))
    assert img.width > img.height


def test_cli_writes_pictures(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    assert cli(["board", "--edition", "mundial", "--seed", "3", "--turns", "5", "--out", str(out)]) == 0
    assert picture(out.read_bytes()).width == 1100
    assert cli(["board", "--turns", "5", "--width", "350", "--out", str(out)]) == 0
    assert picture(out.read_bytes()).width == 350
    out = tmp_path / "deed.png"
    assert cli(["deed", "--edition", "turismundo", "--square", "7", "--out", str(out)]) == 0
    assert picture(out.read_bytes()).width > 0


def test_render_imports_the_engine_only() -> None:
    for path in RENDER_DIR.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import)\s+(discord|bot)\b", source, re.M), path.name


def _pixels(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.mode == "P"
    return img.convert("RGB")


def test_board_from_cached_pieces_equals_the_board_from_scratch() -> None:
    """`board` puts the picture together from pieces and compressed rows kept from earlier boards; drawing the
    same state from scratch in full colour and mapping it to the palette gives the same pixels, for every
    state of a game played in order (so pieces and rows are reused from one action to the next), after the
    caches are emptied too."""
    first, steps = play("turismundo", seed=8, turns=40, choose=simple_choice)
    st = clone(first)
    checked = 0
    for k, (action, events) in enumerate(steps):
        apply_inplace(st, action)
        if k % 3:
            continue
        absent = [k % 4] if k % 2 else []
        png = board(st, "es", events=events, absent=absent, minutes_left=60 - k // 10)
        scratch = board_image(st, "es", Table(tuple(events), frozenset(absent), 60 - k // 10))
        expected = scratch.quantize(palette=palette("board", "turismundo", "es"), dither=Image.Dither.NONE)
        assert _pixels(png).tobytes() == expected.convert("RGB").tobytes(), k
        checked += 1
    assert checked > 30
    again = board(st, "es")
    clear_caches()
    assert board(st, "es") == again


def test_the_png_is_a_valid_palette_png() -> None:
    st, _ = new_game("mundial", ["Ana", "Beto"], seed=1)
    png = board(st, "en")
    img = Image.open(io.BytesIO(png))
    img.load()
    assert (img.mode, img.size) == ("P", (1100, 688))
    # The zlib stream put together from bands is whole: its Adler-32 (combined from the bands') is right.
    start = png.index(b"IDAT") + 4
    length = int.from_bytes(png[start - 8 : start - 4], "big")
    rows = zlib.decompress(png[start : start + length])
    assert len(rows) == 688 * 1101
    assert rows[::1101] == bytes(688)  # every scanline unfiltered
    # Every chunk's CRC-32 is right (Pillow does not check the IDAT's).
    at, kinds = 8, []
    while at < len(png):
        size = int.from_bytes(png[at : at + 4], "big")
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + size]
        assert int.from_bytes(png[at + 8 + size : at + 12 + size], "big") == zlib.crc32(kind + data), kind
        kinds.append(kind)
        at += 12 + size
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]


def _board_bands(st, lang: str = "es"):  # type: ignore[no-untyped-def]
    """What `render.board` hands `bands.png` for `st`: the palette, the band keys and the drawing."""
    from render.board import _palette_bytes, band_keys, compose
    from render.board import picture as board_picture

    pic = board_picture(st, lang)
    return _palette_bytes(pic.edition, pic.lang), band_keys(pic), lambda missing: compose(pic, missing)


def _needs_isal(bands) -> None:  # type: ignore[no-untyped-def]
    if bands.ISAL is None:
        pytest.skip("isal is not installed (a dependency: pip install -e '.[dev]' installs it)")


def test_isal_and_zlib_bands_give_the_same_pixels() -> None:
    """The board's bands deflated by ISA-L (when installed, the default) or by the standard zlib: PNGs that
    decode to the same pixels, those of the picture put together."""
    from render import bands
    from render.layout import HEIGHT, WIDTH

    _needs_isal(bands)
    assert bands.DEFLATE == bands.ISAL
    first, steps = play("turismundo", seed=4, turns=30, choose=simple_choice)
    st = final_state(first, steps)
    pal, keys, draw = _board_bands(st)
    expected = draw(None).crop((1, 0, WIDTH + 1, HEIGHT)).tobytes()  # the palette indices of the picture
    pngs = [bands.png(WIDTH, HEIGHT, pal, keys, bands.BandCache(), draw, d) for d in (bands.ISAL, bands.ZLIB)]
    assert pngs[0] != pngs[1]
    for png in pngs:
        img = Image.open(io.BytesIO(png))
        assert img.mode == "P" and img.tobytes() == expected
        assert bytes(img.getpalette() or []) == pal


def test_bands_of_both_deflates_lay_end_to_end() -> None:
    """Bands cut by a sync flush follow one another in one zlib stream whatever compressed each: a cache
    filled by one and read by the other still gives a whole stream with the right Adler-32."""
    from render import bands

    _needs_isal(bands)
    raw = [bytes((k * 7 + i // 97) % 251 for i in range(8 * 1101)) for k in range(6)] + [b"\x00" * 3303]
    parts = [bands.compress_band(r, bands.ISAL if k % 2 else bands.ZLIB) for k, r in enumerate(raw)]
    adler = parts[0][1]
    for _, band_adler, size in parts[1:]:
        adler = bands._adler_combine(adler, band_adler, size)
    stream = b"\x78\x01" + b"".join(p[0] for p in parts) + b"\x03\x00" + adler.to_bytes(4, "big")
    assert zlib.decompress(stream) == b"".join(raw)  # zlib checks the Adler-32 too
    assert adler == zlib.adler32(b"".join(raw))


def test_without_isal_the_standard_zlib_draws_the_board() -> None:
    """A platform where isal cannot be imported: the bands are deflated by zlib and the board is the same
    picture."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['isal'] = None\n"
        "import io, zlib\n"
        "from PIL import Image\n"
        "from engine import new_game\n"
        "from render import bands, board\n"
        "assert bands.ISAL is None and bands.DEFLATE.module is zlib\n"
        "st, _ = new_game('mundial', ['Ana', 'Beto'], seed=1)\n"
        "sys.stdout.buffer.write(Image.open(io.BytesIO(board(st, 'en'))).convert('RGB').tobytes())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout
    st, _ = new_game("mundial", ["Ana", "Beto"], seed=1)
    assert out == picture(board(st, "en")).tobytes()



@pytest.mark.parametrize("where", ["inside", "cut above", "cut below", "cut left", "cut right", "outside"])
def test_a_translucent_box_is_the_colour_pasted_through_its_mask(where: str) -> None:
    """The news box and the bank line are drawn through a table of Pillow's blend: the same pixels as the
    colour pasted through the box's rounded mask at that alpha, on a busy piece of board, whole or cut by the
    edge of the picture (a ring strip holds a slice of the box)."""
    from PIL import ImageDraw

    from render.centre import NEWS_BOX, _translucent_box
    from render.static import printed_board

    base = printed_board("turismundo", "es").crop((0, 0, 300, 120))
    x, y = {"inside": (20, 10), "cut above": (20, -30), "cut below": (20, 70), "cut left": (-50, 10),
            "cut right": (200, 10), "outside": (20, 130)}[where]
    for w, h, r in ((250, 96, 10), (121, 37, 12), (30, 25, 12)):
        for colour, alpha in ((NEWS_BOX, 150), ((200, 40, 90), 77)):
            expected = base.copy()
            mask = Image.new("L", (w, h), 0)
            ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), r, fill=alpha)
            expected.paste(colour, (x, y), mask)
            got = base.copy()
            _translucent_box(got, (x + 0.5, y, x + w + 0.25, y + h), colour, alpha, r)
            assert got.tobytes() == expected.tobytes(), (w, h, r, colour)
            apart = x + w <= 0 or y + h <= 0 or x >= base.width or y >= base.height
            assert (got.tobytes() == base.tobytes()) == apart


def test_text_masks_are_what_imagedraw_draws() -> None:
    """A string is rasterised once into a mask (`draw._text_mask`); the mask is the one ImageDraw.text draws
    in white on black at the bounding box FreeType gives, for every weight, size and anchor the pictures
    use."""
    from PIL import ImageDraw

    from render.draw import _text_mask
    from render.fonts import font

    for text in ("Ana paga $12,000 de renta a Beto por", "Quíjpy, jr. ÑÁ", "8 títulos · vale $665,000", "W", "…", " "):
        for size, weight in ((15, "bold"), (18, "regular"), (19, "regular"), (25, "bold"), (26, "heavy"),
                             (28, "heavy")):
            for anchor in ("la", "lm", "rm", "mm"):
                f = font(size, weight)
                x0, y0, x1, y1 = f.getbbox(text, anchor=anchor)
                expected = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
                ImageDraw.Draw(expected).text((-x0, -y0), text, font=f, fill=255, anchor=anchor)
                mask, dx, dy = _text_mask(text, size, weight, anchor)
                assert (dx, dy) == (x0, y0) and mask.size == expected.size, (text, size, weight, anchor)
                assert mask.tobytes() == expected.tobytes(), (text, size, weight, anchor)


def test_wrap_is_the_greedy_word_wrap() -> None:
    """`draw.wrap` finds each line's words by halving; the lines are those of wrapping word by word (each
    word onto the line while the line fits), for every sentence the news box told in a game, in both
    languages and at several widths, and None when a word alone is too wide."""
    from render.draw import wrap
    from render.fonts import font
    from words import describe

    def word_by_word(text: str, f, width: int) -> list[str] | None:  # type: ignore[no-untyped-def]
        lines: list[str] = []
        current = ""
        for word in text.split():
            if f.getlength(word) > width:
                return None
            candidate = f"{current} {word}" if current else word
            if f.getlength(candidate) <= width:
                current = candidate
            else:
                lines.append(current)
                current = word
        return [*lines, current] if current else lines

    first, steps = play("mundial", seed=2, turns=25, choose=simple_choice)
    st = clone(first)
    texts = {"", "Supercalifragilisticoespialidoso " * 3}
    for action, events in steps:
        apply_inplace(st, action)
        texts |= {line for e in events for lang in ("es", "en") if (line := describe(e, st, lang))}
    assert len(texts) > 100
    f = font(19, "regular")
    for text in texts:
        for width in (120, 344):
            assert wrap(text, f, width) == word_by_word(text, f, width), (text, width)
    assert wrap("Supercalifragilisticoespialidoso", f, 120) is None


@pytest.mark.parametrize("edition", EDITIONS)
def test_tokens_on_the_jail_corner_show_their_letters_apart_and_clear_of_the_bank(edition: str) -> None:
    """Bars across a jailed token hid its letter, two jailed tokens overlapped, and a jailed token covered the
    house of the bank's counter: the bars cross the rim only, tokens on a corner are a token's width apart,
    and the bank's lines (the pot and the clock go above when they do not fit) keep clear of every token."""
    ed = load(edition)
    st, _ = new_game(edition, ["Ana", "Beto", "Carmen", "Diego", "Elena", "Fer"], seed=1)
    st.pot = 125_000
    letters = seat_letters(st)
    x0, _, x1, _ = CENTRE_BOX
    below = next(i for i, cell in enumerate(cells(edition)) if cell.inward == (0, -1) and cell.x0 < 344 < cell.x1)
    for count in range(1, 7):
        # Up to six on the jail corner, the others on the square below the bank (three rows of lane there).
        for seat, s in enumerate(st.seats):
            s.pos = ed.rules.jail_square if seat < count else below
            s.jailed = seat < count and seat % 2 == 0
        tokens = token_views(st, ed, letters)
        jailed = [t for t in tokens if t.seat < count]
        for a, b in itertools.combinations(jailed, 2):
            assert math.dist((a.x, a.y), (b.x, b.y)) >= TOKEN - 1, (count, a, b)
        for piece in centre_views(st, ed, "es", letters, (), minutes_left=120):
            if not isinstance(piece, BankView):
                continue
            half = _bank_width(piece.parts) / 2
            left, right = (x0 + x1) / 2 - half, (x0 + x1) / 2 + half
            for t in tokens:
                gap = math.dist((t.x, t.y), (min(max(t.x, left), right), min(max(t.y, piece.y - 18), piece.y + 18)))
                assert gap >= TOKEN / 2, (count, piece, t)
    free, barred = (token_sprite(0, "A", TOKEN, False, jailed) for jailed in (False, True))
    assert barred.size == free.size
    c, r = free.width / 2, TOKEN * JAIL_CLEAR - 2.5
    pixels = itertools.product(range(free.width), range(free.height))
    letter = [(x, y) for x, y in pixels if math.dist((x + 0.5, y + 0.5), (c, c)) < r]
    # Around the letter the two are the same, to the resampling's rounding.
    assert all(max(abs(a - b) for a, b in zip(barred.getpixel(xy), free.getpixel(xy), strict=True)) <= 2
               for xy in letter)
    assert barred.tobytes() != free.tobytes()


def test_the_news_tell_an_auctions_winner_before_the_price() -> None:
    """The engine records the price paid before the win; the centre listed "pays" above "wins the auction"."""
    st, _ = new_game("turismundo", ["Ana", "Beto"], seed=1)
    ed = load("turismundo")
    square = next(sq.index for sq in ed.squares if sq.kind == "country")
    st.auction = Auction(item="title", square=square, active=[0, 1], bid=5_000, bidder=1)
    events = apply_inplace(st, Action(kind="close_auction", seat=SYSTEM))
    assert [e["code"] for e in events] == ["transfer", "auction_won"]
    (news,) = [p for p in centre_views(st, ed, "es", seat_letters(st), events, None) if isinstance(p, NewsView)]
    assert news.lines[0].startswith("Beto gana la subasta") and news.lines[-1].startswith("Beto paga $5,000")


def test_the_banner_and_the_summary_say_their_lines_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The yellow banner cut "construye, negocia o termina s…" and the summary "Rentas c…"."""
    cut: list[str] = []

    def ellipsize(text: str, f: object, width: float) -> str:
        shown = original(text, f, width)  # type: ignore[arg-type]
        if shown != text:
            cut.append(text)
        return shown

    original = render_draw.ellipsize
    monkeypatch.setattr(render_draw, "ellipsize", ellipsize)
    render_draw.ellipsized.cache_clear()
    first, steps = play("turismundo", seed=3, turns=400, seats=6)
    for lang in ("es", "en"):
        st, _ = new_game("turismundo", ["Ana", "Beto", "Carmen", "Diego"], seed=1)
        for phase in ("roll", "end"):
            st.phase = phase
            board_image(st, lang)
        summary(history_from_log(first, steps), lang)
    assert cut == []
