"""Colour-blind players: owners are told apart by more than hue (`render.patterns`).

The three kinds of dichromacy are simulated with Machado, Oliveira and Fernandes (2009) at full severity
(coloraide's `filter(..., method="machado")`) on the owner colours each edition's tiles are drawn in. The rule:
two owners whose colours come closer than `SAME_AT_A_GLANCE` (CIEDE2000) under a simulation must carry different
patterns, and every pattern's strokes stay at least `VISIBLE` from their ground under every simulation, on the
tile as drawn and in the 550 px preview.
"""

from __future__ import annotations

import itertools

import pytest
from coloraide import Color
from PIL import Image, ImageStat

from engine import available, load
from render.layout import cells
from render.patterns import PATTERNS, paint, pattern_of, tone
from render.static import tile
from render.style import SEAT_COLOURS

SIMULATIONS = ("protan", "deutan", "tritan")
SAME_AT_A_GLANCE = 15.0  # ΔE2000 below which two flat colours are taken for one by a glance at a small picture
VISIBLE = 12.0  # ΔE2000 a pattern's strokes keep from their ground


def _seen(rgb: tuple[int, int, int], simulation: str) -> Color:
    return Color("srgb", [c / 255 for c in rgb]).filter(simulation, method="machado").convert("lab-d65")


def _country(edition: str) -> int:
    return next(sq.index for sq in load(edition).squares if sq.kind == "country")


def _ground(edition: str, seat: int) -> tuple[int, int, int]:
    """The colour an owned title of `seat` is filled with, read off the tile as drawn (its body's commonest)."""
    square = _country(edition)
    cell = cells(edition)[square]
    x0, y0, x1, y1 = cell.body()
    img = tile(edition, "es", square, owner=seat, letter="").crop(
        (x0 - cell.box[0], y0 - cell.box[1], x1 - cell.box[0], y1 - cell.box[1]))
    return max(img.getcolors(1 << 16) or [], key=lambda found: found[0])[1]


def test_every_seat_has_a_pattern_of_its_own() -> None:
    assert len(set(PATTERNS)) == len(PATTERNS) == len(SEAT_COLOURS)


@pytest.mark.parametrize("edition", available())
@pytest.mark.parametrize("simulation", SIMULATIONS)
def test_owners_stay_apart_under_colour_blindness(edition: str, simulation: str) -> None:
    grounds = [_ground(edition, seat) for seat in range(len(SEAT_COLOURS))]
    assert grounds == list(SEAT_COLOURS), "the tiles are filled with the seat colours"
    seen = [_seen(c, simulation) for c in grounds]
    alike = []
    for a, b in itertools.combinations(range(len(grounds)), 2):
        distance = seen[a].delta_e(seen[b], method="2000")
        if distance < SAME_AT_A_GLANCE:
            alike.append((a, b))
            assert pattern_of(a) != pattern_of(b), f"seats {a} and {b}: ΔE {distance:.1f} and the same pattern"
    for seat, colour in enumerate(grounds):
        if pattern_of(seat) != "plain":
            strokes = seen[seat].delta_e(_seen(tone(colour), simulation), method="2000")
            assert strokes >= VISIBLE, f"seat {seat}: its pattern is ΔE {strokes:.1f} from its ground"
    # The simulation is doing something: it moves some owner's colour far from how full colour vision sees it.
    moved = max(seen[seat].delta_e(Color("srgb", [c / 255 for c in colour]).convert("lab-d65"), method="2000")
                for seat, colour in enumerate(grounds))
    assert moved > SAME_AT_A_GLANCE, f"the simulation moves no colour by more than ΔE {moved:.1f}: is it applied?"


@pytest.mark.parametrize("edition", available())
def test_patterns_show_on_the_tile_and_in_the_preview(edition: str) -> None:
    """Each pattern is drawn on the owner's tiles, and still varies a tile's lightness at 550 px (half size)."""
    square = _country(edition)
    cell = cells(edition)[square]
    x0, y0, x1, y1 = cell.body()
    for seat, colour in enumerate(SEAT_COLOURS):
        drawn = {c for _, c in tile(edition, "es", square, owner=seat, letter="A").getcolors(1 << 16) or []}
        ground = Image.new("RGB", (x1 - x0 + 1, y1 - y0 + 1), colour)
        paint(ground, (0, 0, ground.width - 1, ground.height - 1), seat)
        small = ground.resize((ground.width // 2, ground.height // 2), Image.Resampling.LANCZOS)
        spread = ImageStat.Stat(small.convert("L")).stddev[0]
        if pattern_of(seat) == "plain":
            assert spread == 0
        else:
            assert tone(colour) in drawn, f"seat {seat}: no pattern on its tile"
            assert spread >= 6.0, f"seat {seat} ({pattern_of(seat)}): lightness spread {spread:.1f} at 550 px"
