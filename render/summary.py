"""The end-of-game picture: every seat's net worth turn by turn, the final ranking and a few numbers.

The bot keeps the first state of a game and its action log; `history_from_log` replays that log with the
engine into a `History`, which is all `summary` needs:

    history = history_from_log(first_state, [action for action, _events in log])
    png = summary(history, lang="es")
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine import POT, Action, State, clone, load, net_worth, replay_inplace
from render import draw as dr
from render.fonts import font
from render.png import to_png
from render.style import seat_colour, theme
from render.texts import cash, edition_name, label, language, phrase, seat_letters
from words import seat_name

Event = dict


@dataclass(frozen=True)
class History:
    """A game told for its final picture.

    `turns[k]` is a turn number and `worth[k]` the net worth of every seat (by seat index) when that turn
    began; the last sample is the final position. `events` are all the engine's events in order (transfers
    give the rents and payments), `final` is the last state."""

    final: State
    turns: tuple[int, ...]
    worth: tuple[tuple[int, ...], ...]
    events: tuple[Event, ...]


def _worths(st: State) -> tuple[int, ...]:
    return tuple(0 if s.out else net_worth(st, seat)[0] for seat, s in enumerate(st.seats))


def history_from_log(first: State, log: Iterable[Action | tuple[Action, object]]) -> History:
    """Replay `log` (actions, or (action, events) pairs as stored) from the game's first state.

    `first` is not changed. The events are those of the replay, which equal the stored ones: the engine is
    deterministic."""
    st = clone(first)
    turns, worth = [st.turn], [_worths(st)]
    events: list[Event] = []
    for item in log:
        action = item[0] if isinstance(item, tuple) else item
        turn = st.turn
        events.extend(replay_inplace(st, action))
        if st.turn != turn:
            turns.append(st.turn)
            worth.append(_worths(st))
    if worth[-1] != _worths(st) or turns[-1] != st.turn:
        turns.append(st.turn)
        worth.append(_worths(st))
    return History(final=st, turns=tuple(turns), worth=tuple(worth), events=tuple(events))


@dataclass(frozen=True)
class Numbers:
    rent: tuple[int, ...]  # rent collected, by seat
    titles: tuple[int, ...]  # titles held at the end, by seat
    biggest: tuple[int, int, int] | None  # (payer, payee, amount) of the largest payment by a seat


def numbers(history: History) -> Numbers:
    st = history.final
    n = len(st.seats)
    rent = [0] * n
    biggest: tuple[int, int, int] | None = None
    for ev in history.events:
        if ev.get("code") != "transfer":
            continue
        frm, to, amount = ev["from"], ev["to"], ev["amount"]
        if ev.get("reason") == "rent" and 0 <= to < n:
            rent[to] += amount
        if frm >= 0 and ev.get("reason") != "bankruptcy" and (biggest is None or amount > biggest[2]):
            biggest = (frm, to, amount)
    titles = tuple(sum(1 for o in st.owner if o == seat) for seat in range(n))
    return Numbers(rent=tuple(rent), titles=titles, biggest=biggest)


def ranking(history: History) -> list[tuple[int, int, int]]:
    """(rank, seat, net worth) best first: the engine's standings when the game is over, else the last net
    worth of the chart."""
    st = history.final
    if st.standings:
        return [(s.rank, s.seat, s.net_worth) for s in sorted(st.standings, key=lambda s: s.rank)]
    worth = history.worth[-1]
    order = sorted(range(len(st.seats)), key=lambda s: (st.seats[s].out, -worth[s]))
    return [(k + 1, seat, worth[seat]) for k, seat in enumerate(order)]


# Discord shows the picture about 550 px wide: every size here is twice what a reader sees.
WIDTH, HEIGHT = 1100, 660
CHART = (126, 150, 628, 560)  # plot area


def summary(history: History, lang: str = "es") -> bytes:
    """The end-of-game picture as PNG bytes."""
    return to_png(summary_image(history, lang), None)


def summary_image(history: History, lang: str = "es") -> Image.Image:
    lang = language(lang)
    st = history.final
    ed = load(st.edition)
    th = theme(ed.id)
    img = Image.new("RGB", (WIDTH, HEIGHT), th.panel)
    d = ImageDraw.Draw(img)
    d.text((26, 18), label(lang, "summary.title"), font=font(36, "heavy"), fill=th.panel_text)
    sub = f"{edition_name(ed.id, lang)} · {phrase(lang, 'summary.turns', turns=history.turns[-1])}"
    d.text((28, 62), sub, font=font(20, "regular"), fill=th.panel_muted)
    _chart(img, d, history, lang)
    _side(img, d, history, lang)
    return img


def _nice_step(span: float, ticks: int = 5) -> int:
    raw = max(1.0, span / ticks)
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * power >= raw:
            return max(1, int(m * power))
    return int(10 * power)


def _chart(img: Image.Image, d: ImageDraw.ImageDraw, history: History, lang: str) -> None:
    st = history.final
    ed = load(st.edition)
    th = theme(ed.id)
    x0, y0, x1, y1 = CHART
    d.rounded_rectangle((20, y0 - 50, x1 + 24, y1 + 80), 16, fill=th.panel_row)
    d.text((40, y0 - 28), label(lang, "summary.net_worth"), font=font(22, "bold"), fill=th.panel_text, anchor="lm")
    top = max((max(w) for w in history.worth), default=1)
    step = _nice_step(top)
    top = step * math.ceil(top / step) if top > 0 else step
    first, last = history.turns[0], max(history.turns[-1], history.turns[0] + 1)

    def px(turn: int) -> float:
        return x0 + (turn - first) / (last - first) * (x1 - x0)

    def py(value: int) -> float:
        return y1 - value / top * (y1 - y0)

    grid = th.panel_current
    f = font(18, "regular")
    for v in range(0, top + 1, step):
        d.line((x0, py(v), x1, py(v)), fill=grid, width=1)
        d.text((x0 - 10, py(v)), cash(ed.id, v), font=f, fill=th.panel_muted, anchor="rm")
    tstep = _nice_step(last - first, 8)
    for t in range((first // tstep + 1) * tstep, last + 1, tstep):
        d.line((px(t), y1, px(t), y1 + 6), fill=th.panel_muted, width=2)
        d.text((px(t), y1 + 10), str(t), font=f, fill=th.panel_muted, anchor="mt")
    d.line((x0, y1, x1, y1), fill=th.panel_muted, width=2)
    d.text(
        ((x0 + x1) / 2, y1 + 36),
        label(lang, "summary.turn_axis"),
        font=font(19, "bold"),
        fill=th.panel_muted,
        anchor="mt",
    )
    letters = seat_letters(st)
    # Winners last so that their line is on top.
    order = [seat for _, seat, _ in reversed(ranking(history))]
    for seat in order:
        points = []
        for turn, worth in zip(history.turns, history.worth, strict=True):
            points.append((px(turn), py(worth[seat])))
            if worth[seat] == 0 and st.seats[seat].out and len(points) > 1:
                break
        if len(points) > 1:
            d.line(points, fill=seat_colour(seat), width=5, joint="curve")
        end_x, end_y = points[-1]
        sprite = dr.token(seat_colour(seat), letters[seat], 32)
        dr.paste_centred(img, sprite, end_x, end_y)


def _titles(lang: str, count: int) -> str:
    return label(lang, "board.title_one") if count == 1 else label(lang, "board.titles", count=count)


def _side(img: Image.Image, d: ImageDraw.ImageDraw, history: History, lang: str) -> None:
    st = history.final
    ed = load(st.edition)
    th = theme(ed.id)
    nums = numbers(history)
    letters = seat_letters(st)
    x0, x1 = 672, WIDTH - 22
    y = 100
    d.text((x0, y), label(lang, "summary.ranking"), font=font(26, "heavy"), fill=th.panel_text)
    y += 42
    rows = ranking(history)
    row_h = min(82, 420 // max(1, len(rows)))
    for rank, seat, worth in rows:
        s = st.seats[seat]
        winner = rank == 1 and not s.out
        h = row_h - 8
        d.rounded_rectangle((x0, y, x1, y + h), 12, fill=th.panel_current if winner else th.panel_row)
        d.text(
            (x0 + 20, y + h / 2),
            str(rank),
            font=font(28, "heavy"),
            fill=(255, 200, 40) if winner else th.panel_muted,
            anchor="mm",
        )
        dr.paste_centred(img, dr.token(seat_colour(seat), letters[seat], 34), x0 + 60, y + h / 2)
        money = cash(ed.id, worth)
        money_font = font(24, "heavy")
        # Three lines: the name and worth, then what the seat was and held, then the rent it collected (on one
        # line the rent was cut: "Rentas c…").
        top_line = y + h * 0.27
        d.text((x1 - 12, top_line), money, font=money_font, fill=th.panel_text, anchor="rm")
        name_font = font(24, "bold")
        width = x1 - x0 - 110 - money_font.getlength(money)
        d.text(
            (x0 + 86, top_line),
            dr.ellipsize(seat_name(st, seat, lang), name_font, width),
            font=name_font,
            fill=th.panel_muted if s.out else th.panel_text,
            anchor="lm",
        )
        parts = [label(lang, "board.status_computer")] if s.computer else []
        parts.append(label(lang, "summary.out") if s.out else _titles(lang, nums.titles[seat]))
        rent = f"{label(lang, 'summary.rent')} {cash(ed.id, nums.rent[seat])}"
        detail_font = font(17 if h >= 70 else 15, "regular")
        for line, share in ((" · ".join(parts), 0.6), (rent, 0.85)):
            text = dr.ellipsize(line, detail_font, x1 - x0 - 100)
            d.text((x0 + 86, y + h * share), text, font=detail_font, fill=th.panel_muted, anchor="lm")
        y += row_h
    y += 8
    if nums.biggest is not None:
        payer, payee, amount = nums.biggest
        d.text((x0, y), label(lang, "summary.biggest"), font=font(22, "bold"), fill=th.panel_text)
        key = (
            "summary.biggest_line"
            if payee >= 0
            else "summary.biggest_line_pot"
            if payee == POT
            else "summary.biggest_line_bank"
        )
        payee_name = seat_name(st, payee, lang) if payee >= 0 else ""
        line = label(lang, key, payer=seat_name(st, payer, lang), amount=cash(ed.id, amount), payee=payee_name)
        f, lines, step = dr.fit(line, x1 - x0, HEIGHT - y - 40, (20, 19, 18), "regular")
        for k, text in enumerate(lines):
            d.text((x0, y + 32 + k * step), text, font=f, fill=th.panel_muted)
