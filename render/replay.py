"""A game's replay: an animated GIF of the board turn after turn, rebuilt from the first state and the action
log (the engine is deterministic), ending on the final standings.

    gif = replay(first_state, actions, lang="es", progress=lambda done, total: ...)

A frame is the board after a turn: a game of at most TURN_FRAMES turns gets one per turn, a longer one one per
round (every seat in play has had its turn), or one every few rounds beyond ROUND_FRAMES rounds, so that
the board frames take about BOARD_SECONDS whatever the game's length. Each shows the turn number (its
header) and the leader by net worth (the banner, with the leader's token; the seats' rows carry their
placing). The first frame is the board at the start, the last two the board at the end and the end-of-game
picture (`render.summary`), held longer.

Frames are drawn in full colour by `render.board`, scaled down to REPLAY_WIDTH (550 px: as wide as Discord
shows a picture on a desktop, so it is not scaled again there) and mapped to the board's own 256-colour
palette, the one its PNGs use: the frames lose nothing to the GIF format. Only the scaled-down palette frames
are kept until the file is written (about 190 KB each at 550 px).

Why GIF: Discord plays animated GIF and animated WebP inline, not APNG (it keeps an APNG's first frame). On
the same frames (bench/replay.py) the GIF was the smallest (lossless WebP 20-65 % larger, APNG 2.4-3 times)
and as quick to write as any; lossy WebP came out larger too in a trial, and blurs the panel's small text.
The frames are the board's own 256 colours, so GIF's palette costs nothing. WebP and APNG stay to compare.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine import Action, State, clone, load, net_worth, replay_inplace
from render.board import Picture, Table, draw_rgb, picture
from render.centre import HALO
from render.layout import HEIGHT, PANEL_X, WIDTH
from render.panel import HEADER_BOX, PANEL_PAD, BannerView, HeaderView, RowView
from render.png import palette
from render.style import theme
from render.summary import history_from_log, summary_image
from render.texts import cash, edition_name, language, phrase, seat_letters, short_edition
from words import seat_name

REPLAY_WIDTH = 550
TURN_FRAMES = 60  # games of at most this many turns: a frame per turn
ROUND_FRAMES = 90  # longer games: a frame per round, or every few rounds beyond this many
BOARD_SECONDS = 24  # the board frames' total time on screen, within FRAME_MS per frame
FRAME_MS = (250, 700)
START_MS = 1500  # the board before the first roll
END_MS = 3000  # the board at the end
SUMMARY_MS = 6000  # the end-of-game picture, the last frame
QUIET_EVENTS = frozenset({"turn_started"})  # the header already says whose turn it is

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Moment:
    """The board between two turns: `turn` turns played, the events since the previous moment."""

    state: State
    turn: int
    events: tuple[dict, ...]
    round_end: bool


def moments(first: State, log: Iterable[Action | tuple[Action, object]]) -> list[Moment]:
    """The game at the start, after every turn and at the end of the log (`first` is not changed)."""
    st = clone(first)
    found = [Moment(clone(st), 0, (), True)]
    events: list[dict] = []
    for item in log:
        action = item[0] if isinstance(item, tuple) else item
        turn = st.turn
        events.extend(e for e in replay_inplace(st, action) if e.get("code") not in QUIET_EVENTS)
        if st.turn != turn:
            lead = next((s for s in st.order if not st.seats[s].out), st.current)
            found.append(Moment(clone(st), turn, tuple(events), st.current == lead))
            events = []
    if events or (st.phase == "over" and found[-1].state.phase != "over"):
        found.append(Moment(st, st.turn, tuple(events), True))
    return found


def pick(all_moments: Sequence[Moment]) -> list[Moment]:
    """The moments drawn: every turn of a short game, every round (or every few rounds) of a long one. The
    first and the last are always drawn; each drawn moment carries the events since the one drawn before."""
    if len(all_moments) == 1:
        return [all_moments[0]]
    *middle, last = all_moments[1:]
    if last.turn <= TURN_FRAMES:
        chosen = [*middle]
    else:
        rounds = [m for m in middle if m.round_end]
        step = math.ceil(len(rounds) / ROUND_FRAMES) if rounds else 1
        chosen = rounds[step - 1 :: step]
    keep = {id(m) for m in chosen} | {id(last)}
    out = [all_moments[0]]
    events: list[dict] = []
    for m in all_moments[1:]:
        events.extend(m.events)
        if id(m) in keep:
            out.append(Moment(m.state, m.turn, tuple(events), m.round_end))
            events = []
    return out


def frame_ms(board_frames: int) -> int:
    """How long each board frame shows: BOARD_SECONDS shared out, within FRAME_MS, in GIF's 10 ms steps."""
    share = BOARD_SECONDS * 1000 / max(1, board_frames)
    return int(min(FRAME_MS[1], max(FRAME_MS[0], share)) // 10 * 10)


# -- one frame ----------------------------------------------------------------------------------------------
def placings(state: State) -> dict[int, int]:
    """Seat -> placing now: seats in play by net worth (equal worth, equal place), then the bankrupt seats,
    the last to leave first."""
    playing = [s for s in range(len(state.seats)) if not state.seats[s].out]
    worth = {s: net_worth(state, s)[0] for s in playing}
    out: dict[int, int] = {}
    for s in playing:
        out[s] = 1 + sum(1 for o in playing if worth[o] > worth[s])
    gone = [s for s in reversed(state.eliminated) if state.seats[s].out]
    gone += [s for s in range(len(state.seats)) if state.seats[s].out and s not in gone]
    for k, s in enumerate(gone):
        out[s] = len(playing) + k + 1
    return out


def replay_picture(m: Moment, last_turn: int, lang: str) -> Picture:
    """The board of moment `m` as the replay shows it: the turn out of the game's turns in the header, the
    leader in the banner, each seat's placing in its row and no seat singled out as the one to play."""
    st = m.state
    ed = load(st.edition)
    pic = picture(st, lang, Table(m.events))
    when = (phrase(lang, "replay.start", turns=last_turn) if m.turn == 0
            else phrase(lang, "replay.turn", turn=m.turn, turns=last_turn))
    header = HeaderView(ed.id, edition_name(ed.id, lang), when, short_edition(ed.id, lang))
    if st.phase == "over":
        # The engine's standings are in the rows already, the winner in the banner.
        panel = tuple(header if isinstance(p, HeaderView) else p for p in pic.panel)
        return pic._replace(panel=panel)
    places = placings(st)
    leaders = [s for s in st.order if places[s] == 1 and not st.seats[s].out]
    letters = seat_letters(st)
    worth = cash(ed.id, net_worth(st, leaders[0])[0])
    if len(leaders) == 1:
        banner = BannerView(seat_name(st, leaders[0], lang), phrase(lang, "replay.leader", worth=worth),
                            ((leaders[0], letters[leaders[0]]),))
    else:
        banner = BannerView(", ".join(seat_name(st, s, lang) for s in leaders),
                            phrase(lang, "replay.level", worth=worth),
                            tuple((s, letters[s]) for s in leaders[:3]))
    panel = [header, banner]
    for p in pic.panel:
        if isinstance(p, RowView):
            panel.append(p._replace(glowing=False, rank=places[p.seat], gold=p.seat in leaders))
    tokens = tuple(t._replace(glowing=False) for t in pic.tokens)
    return pic._replace(panel=tuple(panel), tokens=tokens)


def draw_frame(m: Moment, last_turn: int, lang: str) -> Image.Image:
    """A board frame in full colour, full size, with how far into the game it is as a bar under the header."""
    img = draw_rgb(replay_picture(m, last_turn, lang))
    x0, x1 = PANEL_X + PANEL_PAD, WIDTH - PANEL_PAD
    bottom = HEADER_BOX[3] - 2
    d = ImageDraw.Draw(img)
    d.rectangle((x0, bottom - 4, x1, bottom), fill=theme(m.state.edition).panel_row)
    if m.turn:
        d.rectangle((x0, bottom - 4, x0 + (x1 - x0) * min(1.0, m.turn / max(1, last_turn)), bottom), fill=HALO)
    return img


def _scaled(img: Image.Image, width: int, pal: Image.Image) -> Image.Image:
    if width != img.width:
        img = img.resize((width, round(img.height * width / img.width)), Image.Resampling.LANCZOS)
    return img.quantize(palette=pal, dither=Image.Dither.NONE)


def _summary_frame(first: State, log: Sequence, lang: str) -> Image.Image:
    """The end-of-game picture on a canvas the size of the board."""
    inner = summary_image(history_from_log(first, log), lang)
    canvas = Image.new("RGB", (WIDTH, HEIGHT), theme(first.edition).panel)
    canvas.paste(inner, (0, (HEIGHT - inner.height) // 2))
    return canvas


@dataclass(frozen=True)
class Plan:
    """The frames of a replay, before any is drawn."""

    moments: tuple[Moment, ...]  # the boards, the first and last included
    durations: tuple[int, ...]  # ms, one per frame: every board, then the end-of-game picture

    @property
    def frames(self) -> int:
        return len(self.durations)


def plan(first: State, log: Sequence[Action | tuple[Action, object]]) -> Plan:
    drawn = pick(moments(first, log))
    middle = max(0, len(drawn) - 2)
    each = frame_ms(middle)
    durations = [START_MS] + [each] * middle + ([END_MS] if len(drawn) > 1 else []) + [SUMMARY_MS]
    return Plan(tuple(drawn), tuple(durations))


def frames(first: State, log: Sequence[Action | tuple[Action, object]], lang: str = "es", *,
           width: int = REPLAY_WIDTH, progress: Progress | None = None,
           the_plan: Plan | None = None) -> Iterator[Image.Image]:
    """The replay's frames, drawn one at a time as they are asked for ("P" pictures `width` px wide, in the
    board's palette); `progress(done, total)` after each."""
    lang = language(lang)
    p = the_plan or plan(first, log)
    pal = palette("board", first.edition, lang)
    last_turn = p.moments[-1].turn
    for done, m in enumerate(p.moments, 1):
        yield _scaled(draw_frame(m, last_turn, lang), width, pal)
        if progress is not None:
            progress(done, p.frames)
    yield _scaled(_summary_frame(first, log, lang), width, pal)
    if progress is not None:
        progress(p.frames, p.frames)


# -- the file -----------------------------------------------------------------------------------------------
def _gif(first_frame: Image.Image, rest: Iterator[Image.Image], durations: Sequence[int]) -> bytes:
    out = io.BytesIO()
    # optimize: each frame is stored as the rectangle that changed, its unchanged pixels transparent.
    first_frame.save(out, "GIF", save_all=True, append_images=rest, duration=list(durations), loop=0,
                     optimize=True)
    return out.getvalue()


def _webp(first_frame: Image.Image, rest: Iterator[Image.Image], durations: Sequence[int]) -> bytes:
    out = io.BytesIO()
    # Lossless, from the same palette frames as the GIF (the same pixels); method 0 is the quickest and, on
    # flat pictures, hardly larger than the slower ones.
    first_frame.save(out, "WEBP", save_all=True, append_images=rest, duration=list(durations), loop=0,
                     lossless=True, method=0)
    return out.getvalue()


def _apng(first_frame: Image.Image, rest: Iterator[Image.Image], durations: Sequence[int]) -> bytes:
    out = io.BytesIO()
    # Pillow's APNG writer reads the frames twice: a list, not the iterator.
    first_frame.save(out, "PNG", save_all=True, append_images=list(rest), duration=list(durations), loop=0)
    return out.getvalue()


FORMATS: dict[str, Callable[[Image.Image, Iterator[Image.Image], Sequence[int]], bytes]] = {
    "gif": _gif,
    "webp": _webp,
    "apng": _apng,
}
MIME = {"gif": "image/gif", "webp": "image/webp", "apng": "image/apng"}


def replay(first: State, log: Iterable[Action | tuple[Action, object]], lang: str = "es", *,
           progress: Progress | None = None, fmt: str = "gif", width: int = REPLAY_WIDTH) -> bytes:
    """The replay of the game that starts at `first` and plays `log` (actions, or (action, events) pairs as
    stored), as an animated GIF (`fmt` "webp" or "apng" to compare formats). Pure: `first` is not changed.
    `progress(done, total)` is called after each frame is drawn (a few ms apart: throttle in the caller)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown replay format {fmt!r}; one of {', '.join(FORMATS)}")
    log = list(log)
    the_plan = plan(first, log)
    drawn = frames(first, log, lang, width=width, progress=progress, the_plan=the_plan)
    return FORMATS[fmt](next(drawn), drawn, the_plan.durations)
