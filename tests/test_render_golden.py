"""Golden pictures: each edition's board early and late, deeds and a summary, compared with a tolerance.

The positions are set up by hand (not played), so a change to the rules or to the computer players does not
move a token here: only a change to the pictures, the edition data or the texts does.

The references in tests/golden/ are stored at half size. A picture passes when its half-size version
stays close to the reference both overall and in every small block of the picture: font rasterising or
resampling details of another Pillow release move edges by a pixel and shift shades a little, which stays
under both limits, while a moved token, a missing house or a wrong colour changes some block a lot.
Regenerate after an intended change with `UPDATE_GOLDEN=1 pytest tests/test_render_golden.py`, then look
at the new pictures before committing them.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from engine import State, load, new_game
from engine.edition import TITLE_KINDS
from engine.state import Auction
from render import History, board, deed, profile_card, summary
from render.sample import sample_profile

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
# Mean absolute difference (0-255) allowed over the whole picture, and within any BLOCK x BLOCK square.
TOLERANCE = 1.0
BLOCK = 8
BLOCK_TOLERANCE = 24


NAMES = ["Ana", "Beto", "Carmen", "Diego", "Elena", "Fer"]


def early(edition: str) -> State:
    """A few turns in: four seats spread out, two of them on one square, one title bought, dice on the table."""
    st, _ = new_game(edition, NAMES[:4], seed=11, computers=["", "normal", "", ""])
    titles = [sq.index for sq in load(edition).squares if sq.kind == "country"]
    st.owner[titles[0]] = 1
    st.seats[1].cash -= load(edition).squares[titles[0]].price
    for seat, pos in enumerate((0, titles[0], 7, 7)):
        st.seats[seat].pos = pos
    st.dice = [3, 4]
    st.turn, st.current = 4, st.order[3]
    return st


def late(edition: str) -> State:
    """Late in a game of six: full blocks with restaurants and hotels, mortgages, one seat bankrupt, one in
    jail, three tokens on one square and an auction under way."""
    ed = load(edition)
    st, _ = new_game(edition, NAMES, seed=12, computers=["", "normal", "", "normal", "", ""])
    for k, block in enumerate(ed.blocks.values()):
        for j, i in enumerate(block):
            st.owner[i] = k % 5
            st.level[i] = (5, 3, 2, 0, 4, 1, 0, 0)[k % 8] if k % 5 != 4 else 0
            st.mortgaged[i] = k % 5 == 4 and j == 0
    airlines = [sq.index for sq in ed.squares if sq.kind in ("airline", "utility")]
    for k, i in enumerate(airlines):
        st.owner[i] = k % 4
    st.mortgaged[airlines[-1]] = True
    for seat, cash in enumerate((412_000, 38_500, 5_000, 97_250, 1_000, 0)):
        st.seats[seat].cash = cash if edition != "mundial" else cash // 100
    st.seats[5].out = True
    st.seats[2].jailed = True
    st.seats[2].pos = ed.rules.jail_square
    st.seats[3].jail_cards = [ed.decks[0].cards[0].id]
    for seat, pos in ((0, 24), (1, 24), (3, 24), (4, ed.rules.jail_square)):
        st.seats[seat].pos = pos
    st.dice = [6, 6]
    st.turn, st.current = 143, 1
    unowned = [sq.index for sq in ed.squares if sq.kind in TITLE_KINDS and st.owner[sq.index] < 0]
    if unowned:
        square = unowned[0]
        st.auction = Auction(item="title", square=square, active=[0, 1, 3], bid=ed.squares[square].price, bidder=3)
    return st


def history() -> History:
    """A finished game of four told by hand: net worth by turn, a few rents and one big payment."""
    st = late("turismundo")
    st.auction = None
    st.phase, st.winner = "over", 0
    turns = tuple(range(1, 121))
    worth = tuple(
        (
            150_000 + t * 2_500,
            150_000 + (t * 1_200 if t < 90 else 108_000 - (t - 90) * 3_000),
            max(0, 150_000 - t * 1_300),
            150_000 + (t % 30) * 1_000,
            150_000 - t * 400,
            0 if t > 60 else 150_000 - t * 2_400,
        )
        for t in turns
    )
    events = (
        {"code": "transfer", "from": 1, "to": 0, "amount": 25_000, "reason": "rent"},
        {"code": "transfer", "from": 2, "to": 0, "amount": 72_500, "reason": "rent"},
        {"code": "transfer", "from": 0, "to": 3, "amount": 8_500, "reason": "rent"},
        {"code": "transfer", "from": 4, "to": -1, "amount": 30_000, "reason": "buy"},
    )
    return History(final=st, turns=turns, worth=worth, events=events)


def half(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return img.resize((img.width // 2, img.height // 2), Image.Resampling.LANCZOS)


def check(name: str, png: bytes) -> None:
    picture = half(png)
    path = GOLDEN / f"{name}.png"
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"no golden picture {path.name}: run with UPDATE_GOLDEN=1 and look at it")
        GOLDEN.mkdir(exist_ok=True)
        colours = picture.quantize(256, method=Image.Quantize.MEDIANCUT)
        picture.quantize(palette=colours, dither=Image.Dither.NONE).save(path, optimize=True)
        return
    stored = Image.open(path)
    stored.load()
    # The references are kept small as 256-colour pictures; mapping the new picture to the same colours
    # first makes the comparison about content, not about the reduction to 256 colours.
    picture = picture.quantize(palette=stored, dither=Image.Dither.NONE).convert("RGB")
    reference = stored.convert("RGB")
    assert picture.size == reference.size, f"{name}: size {picture.size} != {reference.size}"
    diff = ImageChops.difference(picture, reference).convert("L")
    overall = ImageStat.Stat(diff).mean[0]
    assert overall <= TOLERANCE, f"{name}: mean difference {overall:.2f} above {TOLERANCE} (UPDATE_GOLDEN=1 to accept)"
    blocks = diff.resize((diff.width // BLOCK, diff.height // BLOCK), Image.Resampling.BOX)
    worst = max(blocks.getextrema())
    if worst > BLOCK_TOLERANCE:
        x, y = max(((x, y) for y in range(blocks.height) for x in range(blocks.width)), key=blocks.getpixel)
        pytest.fail(
            f"{name}: the area near ({2 * BLOCK * x}, {2 * BLOCK * y}) differs by {worst} (UPDATE_GOLDEN=1 to accept)"
        )


@pytest.mark.parametrize("edition", ["turismundo", "mundial", "monopolio"])
@pytest.mark.parametrize("stage", ["early", "late"])
def test_board(edition: str, stage: str) -> None:
    lang = "en" if edition == "monopolio" else "es"
    if stage == "early":
        state = early(edition)
        png = board(state, lang, events=[{"code": "rolled", "seat": state.current, "dice": [3, 4]}])
    else:
        # What the bot adds: the last events, a seat whose person is away, the clock of a time-limited game.
        state = late(edition)
        events = [
            {"code": "rolled", "seat": 1, "dice": [6, 6]},
            {"code": "transfer", "from": 1, "to": 0, "amount": 2_000, "reason": "rent", "square": 24},
        ]
        png = board(state, lang, events=events, absent=[4], minutes_left=35)
    check(f"board-{edition}-{stage}", png)


def test_deed_printed() -> None:
    check("deed-turismundo-7", deed("turismundo", 7))


def test_deed_in_a_game() -> None:
    st = late("turismundo")
    built = next(i for i in range(40) if st.level[i] == 5)
    check("deed-turismundo-game", deed("turismundo", built, st))


def test_deed_for_sale_keeps_the_group_below_the_miniature_board() -> None:
    st = early("turismundo")
    for_sale = next(i for i in range(40) if st.owner[i] == -1 and load("turismundo").squares[i].kind == "country")
    check("deed-turismundo-for-sale-en", deed("turismundo", for_sale, st, lang="en"))


def test_deed_in_an_auction_shows_nothing_the_bids_change() -> None:
    """The deed goes out with the auction's message and stays while the message's text follows the bids: it
    said "No bids yet" through the whole auction. It shows no bid and no bidder, so it never disagrees."""
    st = early("turismundo")
    for_sale = next(i for i in range(40) if st.owner[i] == -1 and load("turismundo").squares[i].kind == "country")
    st.auction = Auction(item="title", square=for_sale, active=[0, 1, 2, 3], bid=0, bidder=-1)
    opened = deed("turismundo", for_sale, st)
    st.auction = Auction(item="title", square=for_sale, active=[0, 2], bid=26_000, bidder=2)
    assert deed("turismundo", for_sale, st) == opened
    check("deed-turismundo-auction", opened)


def test_deed_estimated_english() -> None:
    check("deed-mundial-12-en", deed("mundial", 12, lang="en"))


def test_summary() -> None:
    check("summary-turismundo", summary(history()))


@pytest.mark.parametrize(("kind", "lang"), [("full", "es"), ("long", "en")])
def test_profile_card(kind: str, lang: str) -> None:
    check(f"profile-{kind}-{lang}", profile_card(sample_profile(kind), lang))
