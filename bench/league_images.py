"""The league's pictures for the documentation, as the bot sends them: docs/images/.

    python bench/league_images.py [--out docs/images] [--games 40]

Writes a server's league into a fresh database (`--games` finished games among six people and the computers,
played by `engine.ai` and stored as the bot stores them: `devkit.synthetic.stored_game`), starts `python -m bot`
against the bundled fake Discord, lets it play one more game to its end (three people, for whom computers stand
in, and a computer) and asks it for the league's messages. Each is drawn by `fakediscord.screenshot` (Discord's
dark theme) in a message as wide as a desktop channel (550 px) and a phone (350 px), its text at Discord's own
size (an embed's text is not scaled down like a picture):

- ranking-550.png, ranking-350.png: `/turista ranking`, the public embed;
- lobby-550.png, lobby-350.png: the bot's game's lobby with its seats (three people and a computer), its house
  rules and its buttons, before the start (a layout: Join, House rules and Start beside their lines);
- end-of-game-550.png, end-of-game-350.png: the end of the bot's game, with the rating changes, the end-of-game
  picture at the message's width and its buttons;
- history-550.png: `/turista history`, private, with its replay select;
- profile.png (the card as the bot attaches it, 1100 x 700), profile-550.png and profile-350.png (the card as
  Discord shows it on a desktop and on a phone), profile-en.png and its -550 / -350 (an English client's);
- replay.gif: `/turista replay` of the bot's game (550 px wide, as it is posted); replay-350.png: its frame of the
  middle of the game at 350 px, as a phone shows it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

# This folder holds bench/render.py, named like the package: take the folder off the import path so that
# `import render` finds the package, and put the repository root on it.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from PIL import Image  # noqa: E402

import fakediscord.screenshot as shot  # noqa: E402
from bench.harness import launch_bot  # noqa: E402
from bot.face import ids  # noqa: E402
from bot.store import Store  # noqa: E402
from devkit.synthetic import stored_game  # noqa: E402
from devkit.world import bot_environment  # noqa: E402
from fakediscord import FakeDiscord, FakeMessage, FakeUser  # noqa: E402
from render import preview  # noqa: E402

PEOPLE = ("Ana", "Beto", "Carmen", "Diego", "Elena Sofía Ñúñez", "Fer")
LEVELS = ("facil", "normal", "dificil")


@contextlib.contextmanager
def message_width(width: int) -> Iterator[None]:
    """`fakediscord.screenshot` lays out a message `width` px wide (its embed as wide as the message allows)."""
    saved = shot.WIDTH, shot.EMBED_WIDTH, shot.EMBED_IMAGE
    shot.WIDTH, shot.EMBED_WIDTH = width, min(saved[1], width - 72 - 12)
    # Discord fits an embed's picture in the embed: at most 400 x 300 on a desktop, the embed's width on a phone.
    shot.EMBED_IMAGE = (min(400, shot.EMBED_WIDTH - 32), 300)
    try:
        yield
    finally:
        shot.WIDTH, shot.EMBED_WIDTH, shot.EMBED_IMAGE = saved


def save(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    print(f"{path}: {len(data):,} bytes")


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def league(db: Path, guild: int, channel: int, people: list[FakeUser], games: int) -> None:
    """`games` finished games of 2 to 4 of the people and a computer or two, of every edition."""
    rng = random.Random(5)
    with Store(db) as store:
        for k in range(games):
            # The first three play most, the last ones a game or two: some of them are still provisional.
            seated = rng.sample(people[:4], rng.randint(2, 3)) if k < games - 3 else [people[4 + k % 2], people[0]]
            seats = [(p.id, p.name, "") for p in seated]
            seats += [(None, name, rng.choice(LEVELS)) for name in ("Lupita", "Chabelo")[: 4 - len(seats)]]
            rng.shuffle(seats)
            stored_game(store, guild, channel, seats, edition=rng.choice(("turismundo", "mundial", "monopolio")),
                        turns=rng.choice((40, 60, 90)), seed=k + 1)


def custom_id(message: FakeMessage, verb: str) -> str:
    return next(c for c in message.custom_ids() if (p := ids.parse(c)) and p.verb == verb)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=_HERE.parent / "docs" / "images")
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord() as fake:
            guild = fake.add_guild("Turista", channels=("mesa",))
            channel = guild.channel("mesa")
            people = [fake.add_user(name, guild) for name in PEOPLE]
            carl = fake.add_user("Carl", guild, locale="en-US")
            db = Path(folder) / "turista.db"
            league(db, guild.id, channel.id, people, args.games)
            env = bot_environment(db, {"TURISTA_SEED": "3", "TURISTA_PACE": "0", "TURISTA_TEST_FAST": "1",
                                       "TURISTA_TIME_SCALE": "0.002", "TURISTA_AUCTION_QUIET": "1",
                                       "TURISTA_RENDER_WORKERS": "0"})
            process = await launch_bot(fake, env, Path(folder) / "bot.log")
            try:
                await fake.wait_for(lambda: fake.state.command_syncs > 0 and fake.connected, 30, "the bot")
                pictures = await ask(fake, channel, people, carl, args.out)
            finally:
                await process.stop(timeout=15)
    draw(args.out, pictures, names_of(people, carl, channel))
    return 0


def names_of(people: list[FakeUser], carl: FakeUser, channel: object) -> Callable[[str, int], str]:
    names = {u.id: u.name for u in [*people, carl]} | {channel.id: channel.name}  # type: ignore[attr-defined]
    return lambda kind, ident: names.get(ident, str(ident))


async def ask(fake: FakeDiscord, channel: object, people: list[FakeUser], carl: FakeUser,
              out: Path) -> dict[str, FakeMessage]:
    """The bot's game to its end, then every message of the league the pictures show (the lobby is drawn as it
    is before the start, into `out`)."""
    ana, beto, carmen = people[:3]
    got: dict[str, FakeMessage] = {}
    reply = await fake.slash(ana, channel, "turista new", options={"edition": "turismundo"})  # type: ignore[arg-type]
    lobby = await (await reply).wait_message(lambda m: bool(m.custom_ids()), timeout=15)
    for guest, seats in ((beto, 2), (carmen, 3)):
        await (await fake.click(guest, lobby, custom_id(lobby, "join")))
        await fake.wait_for(lambda s=seats: f"({s}/6)" in lobby.text, 10, "a guest to sit down")
    await (await fake.click(ana, lobby, custom_id(lobby, "addbot")))
    await fake.wait_for(lambda: "(4/6)" in lobby.text, 10, "the computer to sit down")
    settings = await (await fake.click(ana, lobby, custom_id(lobby, "settings"))).wait()
    ending = next(c for c in settings.message.custom_ids() if c.endswith(":set:ending"))  # type: ignore[union-attr]
    await (await fake.select(ana, settings.message, ending, ["turns60"]))  # type: ignore[arg-type]
    await asyncio.sleep(0.5)
    for width in (550, 350):
        with message_width(width):
            save(out / f"lobby-{width}.png", shot.screenshot(lobby, names_of(people, carl, channel), width=width))
    await (await fake.click(ana, lobby, custom_id(lobby, "start")))
    # Nobody clicks: the clock plays for each person, then computers stand in for them to the end.

    def the_end() -> FakeMessage | None:
        for m in fake.state.messages.values():
            if not m.ephemeral and any((p := ids.parse(c)) and p.verb == "rematch" for c in m.custom_ids()):
                return m
        return None

    got["end"] = await fake.wait_for(the_end, 400, "the end of the game")
    game = ids.parse(custom_id(got["end"], "replay")).game  # type: ignore[union-attr]
    got["ranking"] = (await (await fake.slash(beto, channel, "turista ranking")).wait()).message  # type: ignore[arg-type,assignment]
    for who, key in ((ana, "profile"), (carl, "profile-en")):
        reply = await fake.slash(who, channel, "turista profile", options={"user": ana})  # type: ignore[arg-type]
        got[key] = await (await reply).wait_message(lambda m: bool(m.attachments), timeout=30)
    reply = await fake.slash(carmen, channel, "turista history")  # type: ignore[arg-type]
    got["history"] = await (await reply).wait_message(timeout=15)
    reply = await fake.slash(beto, channel, "turista replay", options={"game": game})  # type: ignore[arg-type]
    got["replay"] = await (await reply).wait_message(lambda m: bool(m.attachments), timeout=60)
    return got


def draw(out: Path, got: dict[str, FakeMessage], names: object) -> None:
    for key, stem, widths in (("ranking", "ranking", (550, 350)), ("end", "end-of-game", (550, 350)),
                              ("history", "history", (550,))):
        for width in widths:
            with message_width(width):
                save(out / f"{stem}-{width}.png", shot.screenshot(got[key], names, width=width))  # type: ignore[arg-type]
    for key in ("profile", "profile-en"):
        card = got[key].attachments[0].data
        save(out / f"{key}.png", card)
        for width in (550, 350):
            save(out / f"{key}-{width}.png", preview(card, width))
    gif = got["replay"].attachments[0].data
    save(out / "replay.gif", gif)
    replay = Image.open(io.BytesIO(gif))
    frames = replay.n_frames
    replay.seek(frames // 2)
    middle = replay.convert("RGB")
    save(out / "replay-350.png", png(middle.resize((350, round(middle.height * 350 / middle.width)),
                                                   Image.Resampling.LANCZOS)))
    print(f"replay: {frames} frames")
    for key, message in got.items():
        print(f"--- {key}\n{message.text}")


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
