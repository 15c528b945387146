"""The league's pictures for the documentation: a replay, profile cards and the ranking embed, in docs/images/.

    python bench/league_images.py [--out docs/images]

- replay.gif: the replay of a sample game of Turismundo that ends in a win (four computer seats, seed 3), in
  Spanish, as `render.replay` draws it (550 px wide, as a desktop channel shows it).
- profile[-en].png, and -550 / -350: the sample profile card at full size and as Discord shows it on a
  desktop and on a phone, in Spanish and English.
- ranking-550.png and ranking-350.png: a sample season's table as the embed lines of `render.ranking`, in an
  embed drawn by `fakediscord.screenshot` (Discord's dark theme) laid out in a message 550 px wide (a desktop
  channel) and 350 px wide (a phone), with its text at Discord's own size: an embed's text is not scaled down
  like a picture. The embed's title and the heading of the provisional part are examples: the bot writes
  its own.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Iterator
from pathlib import Path

# This folder holds bench/render.py, named like the package: take the folder off the import path so that
# `import render` finds the package, and put the repository root on it.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from PIL import Image  # noqa: E402

import fakediscord.screenshot as shot  # noqa: E402
from fakediscord import FakeChannel, FakeGuild, FakeMessage, FakeUser  # noqa: E402
from render import preview, profile_card, ranking_lines, replay  # noqa: E402
from render.sample import play, sample_profile, sample_ranking  # noqa: E402

EMBED_COLOUR = 0x2C4E86
PHONE_GUTTER = 56  # a phone's avatar column


@contextlib.contextmanager
def message_width(width: int) -> Iterator[None]:
    """`fakediscord.screenshot` lays out a message `width` px wide (its embed as wide as the message allows)."""
    saved = shot.WIDTH, shot.EMBED_WIDTH
    shot.WIDTH, shot.EMBED_WIDTH = width, min(saved[1], width - 72 - 12)
    try:
        yield
    finally:
        shot.WIDTH, shot.EMBED_WIDTH = saved


def ranking_message(lang: str) -> FakeMessage:
    lines = ranking_lines(sample_ranking(), lang)
    title, waiting = {"es": ("Clasificación · temporada 3", "Provisionales (menos de 5 partidas)"),
                      "en": ("Ranking · season 3", "Provisional (fewer than 5 games)")}[lang]
    embed = {"title": title, "description": "\n".join(lines.ranked), "color": EMBED_COLOUR,
             "fields": [{"name": waiting, "value": "\n".join(lines.provisional)}]}
    guild = FakeGuild(id=1, name="Turista", owner_id=3)
    return FakeMessage(id=1, channel=FakeChannel(id=1, guild=guild, name="turista"),
                       author=FakeUser(id=2, name="Turista", bot=True), embeds=[embed])


def save(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    print(f"{path}: {len(data):,} bytes")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=_HERE.parent / "docs" / "images")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    first, steps = play("turismundo", seed=3, turns=300)
    save(args.out / "replay.gif", replay(first, steps, "es"))

    for lang in ("es", "en"):
        stem = "profile" if lang == "es" else "profile-en"
        png = profile_card(sample_profile("full"), lang)
        save(args.out / f"{stem}.png", png)
        for width in (550, 350):
            save(args.out / f"{stem}-{width}.png", preview(png, width))

    for width in (550, 350):
        with message_width(width):
            png = shot.screenshot(ranking_message("es"))
        img = Image.open(io.BytesIO(png))
        out = io.BytesIO()
        img.save(out, "PNG", optimize=True)
        save(args.out / f"ranking-{width}.png", out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
