"""Title deeds: the printed card of a square (price, rents, building costs, mortgage) and, when a state is
given, who owns it, what stands on it and what it charges now."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine import HOTEL, Edition, Square, State, interest, load, rent
from render import draw as dr
from render.fonts import font
from render.layout import BOARD, MARGIN, cells
from render.png import encode, register_sample
from render.style import (
    AIRLINE_BAND,
    CELL,
    INK,
    MONEY_GREEN,
    MORTGAGE_RED,
    MUTED,
    RGB,
    UTILITY_BAND,
    WHITE,
    block_colour,
    seat_colour,
    text_on,
    theme,
)
from render.texts import cash, edition_name, house_word, label, language, phrase, seat_letters, square_name
from words import seat_name

WIDTH, HEIGHT = 1000, 700
CARD = (30, 30, 430, 670)  # the deed card on the left
INFO_X = 470  # the right-hand column: the title in this game
MINI = 180  # the board in miniature, top right of that column
TITLE_KINDS = ("country", "airline", "utility")


def deed(edition: str, square: int, state: State | None = None, lang: str = "es") -> bytes:
    """The deed of `square` of `edition` as PNG bytes; with `state`, its owner, buildings and current rent."""
    lang = language(lang)
    return encode(deed_image(edition, square, state, lang), edition, lang, kind="deed")


def deed_image(edition: str, square: int, state: State | None = None, lang: str = "es") -> Image.Image:
    lang = language(lang)
    ed = load(edition)
    if not 0 <= square < len(ed.squares):
        raise ValueError(f"square {square} is not on the {edition} board")
    if state is not None and state.edition != edition:
        raise ValueError(f"the state is a {state.edition} game, not {edition}")
    sq = ed.squares[square]
    th = theme(edition)
    img = Image.new("RGB", (WIDTH, HEIGHT), th.background)
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = CARD
    d.rounded_rectangle((x0 + 6, y0 + 8, x1 + 6, y1 + 8), 18, fill=(0, 0, 0))
    d.rounded_rectangle(CARD, 18, fill=CELL, outline=INK, width=3)
    header = _header_colour(ed, sq, th.card)
    d.rounded_rectangle((x0 + 14, y0 + 14, x1 - 14, y0 + 150), 10, fill=header, outline=INK, width=2)
    ink = text_on(header)
    cx = (x0 + x1) / 2
    if sq.kind in TITLE_KINDS:
        d.text((cx, y0 + 32), label(lang, "deed.title"), font=font(17, "bold"), fill=ink, anchor="mt")
    name = square_name(edition, square, lang)
    f, lines, step = dr.fit(name.upper(), x1 - x0 - 60, 80, (38, 34, 30, 26, 22), "heavy")
    dr.lines_centred(
        d, cx, y0 + (60 if sq.kind in TITLE_KINDS else 45) + (2 - len(lines)) * step / 2, lines, f, step, ink
    )
    if sq.kind == "airline":
        dr.plane(d, x1 - 52, y0 + 40, 30, ink)
    elif sq.kind == "utility":
        dr.building(d, x1 - 50, y0 + 44, 34, ink, header)
    if sq.kind in TITLE_KINDS:
        _rents(d, ed, sq, lang, y0 + 172)
    else:
        _rule(d, ed, sq, lang, y0 + 190)
    _info(img, d, ed, sq, state, lang)
    return img


def _header_colour(ed: Edition, sq: Square, fallback: RGB) -> RGB:
    if sq.kind == "country":
        return block_colour(ed.id, sq.block)
    return {"airline": AIRLINE_BAND, "utility": UTILITY_BAND}.get(sq.kind, fallback)


def _rents(d: ImageDraw.ImageDraw, ed: Edition, sq: Square, lang: str, y: float) -> None:
    """The printed table: rents by buildings (or airlines owned, or dice), then prices and the mortgage."""
    x0, _, x1, y1 = CARD
    left, right = x0 + 34, x1 - 34
    star = "*" if sq.estimated else ""
    rows: list[tuple[str, str, bool]] = []  # (what, amount, emphasised)
    if sq.kind == "country":
        rows.append((label(lang, "deed.rent"), cash(ed.id, sq.rents[0]) + star, True))
        rows.append((label(lang, "deed.rent_block"), cash(ed.id, sq.rents[0] * 2) + star, False))
        for n in range(1, HOTEL):
            word = house_word(ed.id, lang, n)
            rows.append(
                (label(lang, "deed.rent_with", count=n, house_word=word), cash(ed.id, sq.rents[n]) + star, False)
            )
        rows.append((label(lang, "deed.rent_hotel"), cash(ed.id, sq.rents[HOTEL]) + star, False))
    elif sq.kind == "airline":
        for n, amount in enumerate(sq.rents, start=1):
            what = label(lang, "deed.airline_rent_one") if n == 1 else label(lang, "deed.airline_rent", count=n)
            rows.append((what, cash(ed.id, amount) + star, n == 1))
    else:
        mult = ed.economy.utility_multipliers
        for n, m in enumerate(mult, start=1):
            key = "deed.utility_rent_one" if n == 1 else "deed.utility_rent_all"
            rows.append((label(lang, key, count=n, multiplier=f"{m:,}") + star, "", n == 1))
    f = font(21, "regular")
    fb = font(21, "bold")
    for what, amount, strong in rows:
        wf = fb if strong else f
        if amount:
            d.text((left, y), dr.ellipsize(what, wf, right - left - 110), font=wf, fill=INK)
            d.text((right, y), amount, font=fb, fill=INK, anchor="ra")
        else:
            d.text((left, y), dr.ellipsize(what, wf, right - left), font=wf, fill=INK)
        y += 33
    y += 6
    d.line((left, y, right, y), fill=MUTED, width=2)
    y += 14
    costs: list[tuple[str, str]] = [(label(lang, "deed.price"), cash(ed.id, sq.price))]
    if sq.kind == "country":
        one = house_word(ed.id, lang, 1)
        costs.append((label(lang, "deed.house_cost", house_one=one), cash(ed.id, sq.house_cost) + star))
        costs.append((label(lang, "deed.hotel_cost"), cash(ed.id, sq.hotel_cost) + star))
    costs.append((label(lang, "deed.mortgage"), cash(ed.id, sq.mortgage) + star))
    # The card as the edition prints it: the 10 % only where its rules charge it (not in `mundial`).
    lift = sq.mortgage + (interest(ed, sq) if ed.rules.mortgage_interest else 0)
    costs.append((label(lang, "deed.unmortgage"), cash(ed.id, lift) + star))
    for what, amount in costs:
        d.text((left, y), what, font=f, fill=INK)
        d.text((right, y), amount, font=fb, fill=MONEY_GREEN if what == costs[0][0] else INK, anchor="ra")
        y += 31
    if sq.estimated:
        note = font(15, "regular")
        wrapped = dr.wrap(label(lang, "deed.estimated_note"), note, right - left) or []
        dr.lines_centred(d, (left + right) / 2, max(y + 4, y1 - 20 - 18 * len(wrapped)), wrapped, note, 18, MUTED)


def _rule(d: ImageDraw.ImageDraw, ed: Edition, sq: Square, lang: str, y: float) -> None:
    """What a square that is not a title does, in a sentence."""
    x0, _, x1, _ = CARD
    params: dict[str, object] = {}
    if sq.kind == "go":
        params["amount"] = cash(ed.id, ed.economy.salary)
    elif sq.kind in ("tax", "customs", "club"):
        params["amount"] = cash(ed.id, sq.amount)
        params["fee"] = cash(ed.id, sq.amount2)
    elif sq.kind == "card":
        params["deck"] = label(lang, f"deck.{ed.id}.{sq.deck}")
    elif sq.kind == "jail":
        params["amount"] = cash(ed.id, ed.economy.jail_fine)
    elif sq.kind == "go_to_jail":
        params["square"] = square_name(ed.id, ed.rules.jail_square, lang)
    elif sq.kind == "lose_turns":
        params["turns"] = sq.turns
    text = phrase(lang, f"deed.square_kind_{sq.kind}", **params)
    f, lines, step = dr.fit(text, x1 - x0 - 70, 380, (30, 28, 26, 24, 22), "regular", 1.3)
    dr.lines_centred(d, (x0 + x1) / 2, y, lines, f, step, INK)


# -- the right-hand column: this title in the game -------------------------------------------------------------
def _info(img: Image.Image, d: ImageDraw.ImageDraw, ed: Edition, sq: Square, state: State | None, lang: str) -> None:
    th = theme(ed.id)
    x, right = INFO_X, WIDTH - 30
    d.rounded_rectangle((x, 30, right, HEIGHT - 30), 18, fill=th.panel)
    x += 26
    y = 52
    d.text(
        (x, y),
        dr.ellipsize(edition_name(ed.id, lang), font(24, "heavy"), right - x - 20),
        font=font(24, "heavy"),
        fill=th.panel_text,
    )
    y += 48
    if sq.kind in TITLE_KINDS and state is not None:
        y = _ownership(img, d, ed, sq, state, lang, x, y, right)
    elif state is not None:
        y = _visitors(img, d, sq, state, x, y)
    if sq.kind in TITLE_KINDS:
        # Below the miniature board, whatever the ownership part above took.
        y = _group(d, ed, sq, state, lang, x, max(y + 10, 104 + MINI + 20), right)
    _mini_board(d, ed, sq, state, right - 20 - MINI, 104, MINI)


def _mini_board(
    d: ImageDraw.ImageDraw, ed: Edition, sq: Square, state: State | None, x: int, y: int, size: int
) -> None:
    """Where the square lies: the board in miniature, the square outlined, titles in their owners' colours."""
    scale = size / (BOARD + 2 * MARGIN)
    for i, cell in enumerate(cells(ed.id)):
        other = ed.squares[i]
        box = tuple(v * scale for v in cell.box)
        bx0, by0, bx1, by1 = x + box[0], y + box[1], x + box[2], y + box[3]
        if other.kind == "country":
            fill = block_colour(ed.id, other.block)
        elif other.kind in ("airline", "utility"):
            fill = AIRLINE_BAND if other.kind == "airline" else UTILITY_BAND
        else:
            fill = CELL
        d.rectangle((bx0, by0, bx1, by1), fill=fill, outline=INK)
        if state is not None and state.owner[i] >= 0:
            r = min(bx1 - bx0, by1 - by0) / 3
            mx, my = (bx0 + bx1) / 2, (by0 + by1) / 2
            d.ellipse((mx - r, my - r, mx + r, my + r), fill=seat_colour(state.owner[i]), outline=WHITE)
    cell = cells(ed.id)[sq.index]
    bx0, by0, bx1, by1 = (x + cell.x0 * scale, y + cell.y0 * scale, x + cell.x1 * scale, y + cell.y1 * scale)
    d.rectangle((bx0 - 3, by0 - 3, bx1 + 3, by1 + 3), outline=(255, 236, 120), width=4)


def _ownership(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    ed: Edition,
    sq: Square,
    state: State,
    lang: str,
    x: int,
    y: int,
    right: int,
) -> int:
    th = theme(ed.id)
    owner = state.owner[sq.index]
    muted, text = th.panel_muted, th.panel_text
    d.text((x, y), label(lang, "deed.owner"), font=font(20, "regular"), fill=muted)
    y += 30
    if owner >= 0:
        dr.paste_centred(img, dr.token(seat_colour(owner), seat_letters(state)[owner], 40), x + 20, y + 20)
        d.text(
            (x + 52, y + 20),
            dr.ellipsize(seat_name(state, owner, lang), font(30, "bold"), right - MINI - 40 - x - 52),
            font=font(30, "bold"),
            fill=text,
            anchor="lm",
        )
    else:
        d.text((x, y + 20), label(lang, "deed.bank_owner"), font=font(28, "bold"), fill=text, anchor="lm")
    y += 60
    # In an auction the deed goes out once, with the auction's message, which is edited at every bid while
    # its picture stays: the picture shows nothing the bids change (the message's text has the bid).
    if sq.kind == "country" and owner >= 0:
        level = state.level[sq.index]
        d.text((x, y), label(lang, "deed.buildings"), font=font(20, "regular"), fill=muted)
        y += 30
        if level == HOTEL:
            dr.hotel(d, (x, y + 2, x + 60, y + 30))
            d.text(
                (x + 74, y + 16), f"1 {label(lang, 'building.hotel')}", font=font(24, "bold"), fill=text, anchor="lm"
            )
        elif level:
            for k in range(level):
                dr.house(d, x + 14 + k * 34, y + 16, 26)
            d.text(
                (x + 14 + level * 34, y + 16),
                f"{level} {house_word(ed.id, lang, level)}",
                font=font(24, "bold"),
                fill=text,
                anchor="lm",
            )
        else:
            d.text((x, y + 16), label(lang, "deed.no_buildings"), font=font(24, "bold"), fill=text, anchor="lm")
        y += 50
    if owner >= 0:
        d.text((x, y), label(lang, "deed.current_rent"), font=font(20, "regular"), fill=muted)
        y += 30
        if state.mortgaged[sq.index]:
            dr.chip(d, x, y, label(lang, "deed.mortgaged").upper(), 22, MORTGAGE_RED, WHITE)
        elif sq.kind == "utility":
            per_pip = rent(state, sq.index, 1)
            d.text(
                (x, y),
                label(lang, "deed.utility_rent_one", multiplier=f"{per_pip:,}").split(":")[-1].strip(),
                font=font(26, "bold"),
                fill=(140, 230, 160),
            )
        else:
            d.text((x, y), cash(ed.id, rent(state, sq.index, 7)), font=font(32, "heavy"), fill=(140, 230, 160))
        y += 52
    return y


def _visitors(img: Image.Image, d: ImageDraw.ImageDraw, sq: Square, state: State, x: int, y: int) -> int:
    here = [s for s in state.order if not state.seats[s].out and state.seats[s].pos == sq.index]
    for k, seat in enumerate(here):
        dr.paste_centred(
            img, dr.token(seat_colour(seat), seat_letters(state)[seat], 40), x + 20 + k * 50, y + 20
        )
    return y + (60 if here else 0)


def _group(
    d: ImageDraw.ImageDraw, ed: Edition, sq: Square, state: State | None, lang: str, x: int, y: int, right: int
) -> int:
    """The titles of the block (or all airlines, all utilities) with their prices and, in a game, owners."""
    th = theme(ed.id)
    if sq.kind == "country":
        heading = label(lang, "deed.block", block=label(lang, f"block.{sq.block}"))
        members = ed.blocks[sq.block]
    else:
        heading = label(lang, f"deed.group_{sq.kind}")
        members = tuple(other.index for other in ed.squares if other.kind == sq.kind)
    d.text((x, y), heading, font=font(20, "regular"), fill=th.panel_muted)
    y += 34
    colour = _header_colour(ed, sq, th.card)
    for i in members:
        member = ed.squares[i]
        strong = i == sq.index
        d.rectangle((x, y + 2, x + 14, y + 26), fill=colour, outline=WHITE if strong else None)
        f = font(22, "bold" if strong else "regular")
        d.text(
            (x + 26, y + 14),
            dr.ellipsize(square_name(ed.id, i, lang), f, right - 160 - x - 26),
            font=f,
            fill=th.panel_text,
            anchor="lm",
        )
        d.text((right - 26, y + 14), cash(ed.id, member.price), font=f, fill=th.panel_text, anchor="rm")
        if state is not None and state.owner[i] >= 0:
            d.ellipse((right - 150, y + 6, right - 134, y + 22), fill=seat_colour(state.owner[i]), outline=WHITE)
        y += 36
    return y


def _deed_sample(edition: str, lang: str) -> Image.Image:
    """Deeds of every kind of square side by side, in a busy game: the sample the palette is learnt from."""
    from render.sample import busy_state

    ed = load(edition)
    state = busy_state(edition)
    kinds: dict[str, int] = {}
    for sq in ed.squares:
        kinds.setdefault(sq.kind, sq.index)
    blocks = list(ed.blocks.values())
    picks = [kinds[k] for k in ("country", "airline", "utility", "card", "go") if k in kinds]
    picks += [block[0] for block in blocks[2::3]]
    sheet = Image.new("RGB", (WIDTH * len(picks), HEIGHT))
    for k, square in enumerate(picks):
        sheet.paste(deed_image(edition, square, state if k % 2 == 0 else None, lang), (k * WIDTH, 0))
    return sheet


register_sample("deed", _deed_sample)
