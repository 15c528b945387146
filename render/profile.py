"""A person's card for `/turista profile`: name and token colour, rating and its history, games and wins, the
favourite edition, the best game, the titles they buy most and whom they play with most.

    png = profile_card(ProfileCard(name="Ana", colour=0, rating=31.4, ...), lang="es")

The bot fills a `ProfileCard` from the store; this module draws it (pure, thread-safe). Drawn at 1100 x 700,
twice what Discord shows on a desktop (550 x 350, the largest preview box), so the biggest things (the name,
the rating, games and wins) stay readable at 350 px on a phone, and the rest when the picture is opened.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from PIL import Image, ImageDraw

from engine import load
from render import draw as dr
from render.flags import flag, has_flag
from render.fonts import drawable, font
from render.png import to_png
from render.static import band_colour
from render.style import INK, RGB, TURISTA, contrast, seat_colour
from render.texts import cash, edition_name, language, phrase, rating_text, short_edition, short_name, square_name

WIDTH, HEIGHT = 1100, 700
PAD = 30
GAP = 20
TH = TURISTA  # the card is the same whatever the editions played: the Turista colours
MONEY_LIGHT = (140, 230, 160)
PROVISIONAL = (250, 170, 70)
GOLD = (255, 200, 40)
RATING_BOX = (700, 20, WIDTH - PAD, 140)  # wide enough for "Puntuación" and the provisional mark side by side
NAME_SPAN = (PAD + 130, RATING_BOX[0] - 20)


@dataclass(frozen=True)
class BestGame:
    game: int  # the game's number, as `/turista replay game:N` takes it
    worth: int  # net worth at the end
    edition: str


@dataclass(frozen=True)
class ProfileCard:
    """What the card shows, filled by the bot from the store. Names are already made safe (`bot.names`)."""

    name: str
    colour: int  # the person's token colour: an index into `render.style.SEAT_COLOURS`
    rating: float | None  # the displayed rating (None: no rated game yet)
    provisional: bool = True  # too few games for the rating to say much
    history: tuple[tuple[date | int, float], ...] = ()  # (the day or the game's number, rating after it), oldest first
    games: int = 0
    wins: int = 0
    favourite_edition: str | None = None  # edition id
    best_game: BestGame | None = None
    top_titles: tuple[tuple[str, int], ...] = ()  # (edition id, square index), most bought first; three are shown
    opponents: tuple[tuple[str, int], ...] = ()  # (name, games together), most first; three are shown


def profile_card(card: ProfileCard, lang: str = "es") -> bytes:
    """The card as PNG bytes, 1100 x 700."""
    return to_png(profile_image(card, lang), None)


def profile_image(card: ProfileCard, lang: str = "es") -> Image.Image:
    lang = language(lang)
    img = Image.new("RGB", (WIDTH, HEIGHT), TH.panel)
    d = ImageDraw.Draw(img)
    _header(img, d, card, lang)
    left, mid, right = PAD, 545, WIDTH - PAD
    _chart(img, d, card, lang, (left, 160, mid, 430))
    _stats(d, card, lang, (mid + GAP, 160, right, 430))
    _titles(img, d, card, lang, (left, 450, mid, HEIGHT - PAD))
    _opponents(d, card, lang, (mid + GAP, 450, right, HEIGHT - PAD))
    return img


# -- texts --------------------------------------------------------------------------------------------------
def when_text(when: date | int, lang: str, with_year: bool = False) -> str:
    """A point of the history: "12 mar" (with the year when the history spans several), or "#12"."""
    if isinstance(when, date):
        month = phrase(lang, "profile.months").split()[when.month - 1]
        return f"{when.day} {month} {when.year}" if with_year else f"{when.day} {month}"
    return f"#{when}"


def letter_of(name: str) -> str:
    return next((ch.upper() for ch in drawable(name) if ch.isalnum()), "?")


# -- pieces -------------------------------------------------------------------------------------------------
def _fitted(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, sizes: range | tuple[int, ...],
            weight: str, width: float, fill: RGB, anchor: str) -> None:
    """`text` at the largest of `sizes` that fits `width`, else at the smallest, cut with an ellipsis."""
    size = next((s for s in sizes if font(s, weight).getlength(text) <= width), sizes[-1])
    d.text(xy, dr.ellipsize(text, font(size, weight), width), font=font(size, weight), fill=fill, anchor=anchor)


def _box(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], title: str = "") -> None:
    d.rounded_rectangle(box, 18, fill=TH.panel_row)
    if title:
        d.text((box[0] + 20, box[1] + 16), dr.ellipsize(title, font(28, "bold"), box[2] - box[0] - 40),
               font=font(28, "bold"), fill=TH.panel_muted)


def name_lines(name: str) -> tuple[int, list[str]]:
    """The name's size and lines in the header: one line at 60 to 44 px, else two at 40 to 36 px (where the
    longest names fit when they have a space), else cut with an ellipsis."""
    name = drawable(name) or "?"
    x, right = NAME_SPAN
    width = right - x
    for size in range(60, 43, -2):
        if font(size, "heavy").getlength(name) <= width:
            return size, [name]
    found = dr.try_fit(name, width, 96, (40, 38, 36), "heavy", 1.1, max_lines=2)
    if found is not None:
        return found[0].size, found[1]
    f = font(36, "heavy")
    lines = dr.wrap(name, f, width) or [name]
    if len(lines) == 1:
        return 44, [dr.ellipsize(name, font(44, "heavy"), width)]
    return 36, [dr.ellipsize(lines[0], f, width), dr.ellipsize(" ".join(lines[1:]), f, width)]


def _header(img: Image.Image, d: ImageDraw.ImageDraw, card: ProfileCard, lang: str) -> None:
    dr.paste_centred(img, dr.token(seat_colour(card.colour), letter_of(card.name), 104), PAD + 56, 80)
    x, right = NAME_SPAN
    size, lines = name_lines(card.name)
    edition = phrase(lang, "profile.favourite", edition=edition_name(card.favourite_edition, lang)) \
        if card.favourite_edition else ""
    if len(lines) == 1:
        d.text((x, 62), lines[0], font=font(size, "heavy"), fill=TH.panel_text, anchor="lm")
        if edition:
            _fitted(d, (x, 118), edition, (28, 26, 24), "regular", right - x, TH.panel_muted, "lm")
    else:
        for k, line in enumerate(lines):
            d.text((x, 22 + k * int(size * 1.1)), line, font=font(size, "heavy"), fill=TH.panel_text)
        if edition:
            _fitted(d, (x, 128), edition, (24, 22), "regular", right - x, TH.panel_muted, "lm")
    box = RATING_BOX
    d.rounded_rectangle(box, 18, fill=TH.panel_current)
    caption = phrase(lang, "profile.rating")
    d.text((box[0] + 20, box[1] + 30), caption, font=font(28, "bold"), fill=TH.panel_muted, anchor="lm")
    if card.provisional:
        # Beside the word, above the number: a rating of a few games is a guess, and says so.
        chip = dr.chip_sprite(phrase(lang, "profile.provisional"), 22, PROVISIONAL, INK)
        x = box[0] + 32 + int(font(28, "bold").getlength(caption))
        img.paste(chip, (min(x, box[2] - 16 - chip.width), box[1] + 30 - chip.height // 2), chip)
    value = rating_text(card.rating) if card.rating is not None else "—"
    d.text((box[2] - 22, box[3] - 14), value, font=font(72, "heavy"),
           fill=TH.panel_muted if card.provisional or card.rating is None else GOLD, anchor="rs")


def _chart(img: Image.Image, d: ImageDraw.ImageDraw, card: ProfileCard, lang: str,
           box: tuple[int, int, int, int]) -> None:
    _box(d, box, phrase(lang, "profile.history"))
    x0, y0, x1, y1 = box[0] + 100, box[1] + 72, box[2] - 36, box[3] - 52
    points = card.history
    if not points:
        d.text(((box[0] + box[2]) / 2, (y0 + y1) / 2 + 10), phrase(lang, "profile.no_history"),
               font=font(30, "regular"), fill=TH.panel_muted, anchor="mm")
        return
    values = [v for _, v in points]
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    margin = (high - low) * 0.08
    low, high = low - margin, high + margin

    def px(k: int) -> float:
        return x0 + (x1 - x0) * (k / (len(points) - 1) if len(points) > 1 else 0.5)

    def py(v: float) -> float:
        return y1 - (v - low) / (high - low) * (y1 - y0)

    small = font(24, "regular")
    for v in (max(values), min(values)):
        d.line((x0, py(v), x1, py(v)), fill=TH.panel_current, width=2)
        d.text((x0 - 12, py(v)), rating_text(v), font=small, fill=TH.panel_muted, anchor="rm")
    colour = _line_colour(card.colour)
    xy = [(px(k), py(v)) for k, v in enumerate(values)]
    if len(xy) > 1:
        d.line(xy, fill=colour, width=6, joint="curve")
    r = 9
    ex, ey = xy[-1]
    d.ellipse((ex - r, ey - r, ex + r, ey + r), fill=colour, outline=TH.panel_text, width=3)
    whens = [w for w, _ in points]
    years = {w.year for w in whens if isinstance(w, date)}
    first = when_text(whens[0], lang, len(years) > 1)
    last = when_text(whens[-1], lang, len(years) > 1)
    label_y = y1 + 24
    if len(points) > 1:
        d.text((x0, label_y), first, font=small, fill=TH.panel_muted, anchor="lm")
        d.text((x1, label_y), last, font=small, fill=TH.panel_muted, anchor="rm")
    else:
        d.text((ex, label_y), last, font=small, fill=TH.panel_muted, anchor="mm")


def _line_colour(index: int) -> RGB:
    """The seat colour, mixed with white until it stands out on the card (WCAG contrast 3: teal, wine and
    near-black would vanish on the dark blue)."""
    colour = seat_colour(index)
    for k in range(11):
        mixed = tuple(int(c + (255 - c) * k / 10) for c in colour)
        if contrast(mixed, TH.panel_row) >= 3:  # type: ignore[arg-type]
            return mixed  # type: ignore[return-value]
    return colour


def _stats(d: ImageDraw.ImageDraw, card: ProfileCard, lang: str, box: tuple[int, int, int, int]) -> None:
    """Games, wins and the share won as big numbers; under them the best game."""
    _box(d, box)
    share = f"{round(100 * card.wins / card.games)}%" if card.games else "—"
    columns = (
        (f"{card.games:,}", phrase(lang, "profile.games", games=card.games), TH.panel_text),
        (f"{card.wins:,}", phrase(lang, "profile.wins", wins=card.wins), GOLD if card.wins else TH.panel_text),
        (share, phrase(lang, "profile.won"), TH.panel_text),
    )
    width = (box[2] - box[0]) / len(columns)
    for k, (number, caption, colour) in enumerate(columns):
        cx = box[0] + width * (k + 0.5)
        _fitted(d, (cx, box[1] + 64), number, range(64, 39, -4), "heavy", width - 24, colour, "mm")
        d.text((cx, box[1] + 122), dr.ellipsize(caption, font(28, "bold"), width - 16), font=font(28, "bold"),
               fill=TH.panel_muted, anchor="mm")
    top = box[1] + 158
    d.line((box[0] + 20, top, box[2] - 20, top), fill=TH.panel_current, width=2)
    x, right = box[0] + 20, box[2] - 20
    best = card.best_game
    d.text((x, top + 30), phrase(lang, "profile.best"), font=font(28, "bold"), fill=TH.panel_muted, anchor="lm")
    if best is None:
        d.text((x, top + 78), phrase(lang, "profile.none"), font=font(30, "regular"), fill=TH.panel_muted,
               anchor="lm")
        return
    number = phrase(lang, "profile.best_game", id=best.game)
    d.text((right, top + 30), number, font=font(26, "regular"), fill=TH.panel_muted, anchor="rm")
    money = cash(best.edition, best.worth)
    d.text((x, top + 80), money, font=font(44, "heavy"), fill=MONEY_LIGHT, anchor="lm")
    money_w = font(44, "heavy").getlength(money)
    _fitted(d, (right, top + 84), short_edition(best.edition, lang), (26, 24, 22), "regular",
            right - x - money_w - 20, TH.panel_muted, "rm")


def _titles(img: Image.Image, d: ImageDraw.ImageDraw, card: ProfileCard, lang: str,
            box: tuple[int, int, int, int]) -> None:
    _box(d, box, phrase(lang, "profile.titles"))
    shown = card.top_titles[:3]
    if not shown:
        d.text((box[0] + 20, box[1] + 100), phrase(lang, "profile.none"), font=font(30, "regular"),
               fill=TH.panel_muted, anchor="lm")
        return
    gap = 12
    x0, top, bottom = box[0] + 20, box[1] + 62, box[3] - 18
    width = (box[2] - box[0] - 40 - gap * 2) / 3
    for k, (edition, square) in enumerate(shown):
        cx0 = x0 + k * (width + gap)
        _title_chip(img, d, edition, square, lang, (int(cx0), top, int(cx0 + width), bottom))


def _title_chip(img: Image.Image, d: ImageDraw.ImageDraw, edition: str, square: int, lang: str,
                box: tuple[int, int, int, int]) -> None:
    """A title as on its deed: the group's colour band, the flag, the name."""
    sq = load(edition).squares[square]
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, 10, fill=(252, 248, 238))
    d.rounded_rectangle((x0, y0, x1, y0 + 16), 10, fill=band_colour(load(edition), sq) or TH.panel_current)
    d.rectangle((x0, y0 + 8, x1, y0 + 16), fill=band_colour(load(edition), sq) or TH.panel_current)
    cx = (x0 + x1) / 2
    y = y0 + 24
    if has_flag(sq.id):
        img.paste(flag(sq.id, 54, 36), (int(cx - 27), y + 6))
        y += 46
    name = square_name(edition, square, lang)
    if font(22, "bold").getlength(name) > x1 - x0 - 12:
        name = short_name(edition, square, lang)
    _fitted(d, (cx, (y + y1) / 2), name, (26, 24, 22), "bold", x1 - x0 - 12, INK, "mm")


def _opponents(d: ImageDraw.ImageDraw, card: ProfileCard, lang: str, box: tuple[int, int, int, int]) -> None:
    _box(d, box, phrase(lang, "profile.opponents"))
    x, right = box[0] + 20, box[2] - 20
    shown = card.opponents[:3]
    if not shown:
        d.text((x, box[1] + 100), phrase(lang, "profile.none"), font=font(30, "regular"), fill=TH.panel_muted,
               anchor="lm")
        return
    step = (box[3] - box[1] - 72) / 3
    for k, (name, games) in enumerate(shown):
        y = box[1] + 72 + step * (k + 0.5)
        count = phrase(lang, "profile.together", games=games)
        count_w = font(26, "regular").getlength(count)
        d.text((right, y), count, font=font(26, "regular"), fill=TH.panel_muted, anchor="rm")
        _fitted(d, (x, y), name, (32, 30, 28), "bold", right - x - count_w - 16, TH.panel_text, "lm")
