"""A table message as Discord shows it, from a real game: docs/images/table-message*.png (the layout) and, with
--classic, docs/images/table-classic*.png (the classic embed table).

    python bench/screenshot.py [--classic] [--lang en|es] [--turns 6] [--seed 7] [--width 1000] [--out docs/images]

Starts `python -m bot` against the bundled fake Discord, opens a table with two people and a computer seat
(with --classic, under the house rule `classic_table`), and plays cautiously (buy what can be bought, then end
the turn) until, from the given turn on, a person may buy the title they landed on. Then the live table
message, as the fake recorded it (its embed or its layout, the board it carries and its buttons), is drawn in
Discord's dark theme by `fakediscord.screenshot` for a channel --width pixels wide (a desktop window's) and saved
at full size and scaled to 550 and 350 pixels wide. It prints the paths and the message's text.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import re
import sys
import tempfile
from pathlib import Path

# This script's folder is not a package: make the repository importable when it is run by path.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from bench.harness import keep_classic_table, launch_bot  # noqa: E402
from bot.face import ids  # noqa: E402
from devkit.world import bot_environment  # noqa: E402
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser  # noqa: E402
from fakediscord.screenshot import screenshot  # noqa: E402

LOCALES = {"es": "es-419", "en": "en-US"}


def verbs(message: FakeMessage) -> dict[str, str]:
    """The enabled buttons of a message: verb -> custom_id."""
    found = {}
    for component in message.all_components():
        parsed = ids.parse(component.get("custom_id") or "")
        if parsed and not component.get("disabled"):
            found.setdefault(parsed.verb, component["custom_id"])
    return found


def live_table(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage | None:
    for message in reversed(fake.messages(channel, include_ephemeral=False, threads=True)):
        if "status" in verbs(message):
            return message
    return None


async def play(fake: FakeDiscord, channel: FakeChannel, people: dict[int, FakeUser], turns: int) -> FakeMessage:
    """Press what a cautious person presses until a table from turn `turns` on asks a person to buy (so its
    account has something to tell)."""
    last = None
    for _ in range(400):
        table = await fake.wait_for(lambda: live_table(fake, channel), 20, "a table")
        shown = (table.id, len(table.history))
        mention = re.search(r"<@!?(\d+)>", table.text)
        if mention is None:  # the game waits for the computer
            await asyncio.sleep(0.1)
            continue
        pinged = int(mention[1])
        buttons = verbs(table)
        number = re.search(r"(?:Turno|Turn) (\d+)", table.text)
        if "buy" in buttons and number and int(number[1]) >= turns:
            return table
        verb = next((v for v in ("buy", "decline", "roll", "end_turn") if v in buttons), None)
        if verb is None or shown == last:
            await asyncio.sleep(0.1)
            continue
        last = shown
        await (await fake.click(people[pinged], table, buttons[verb]))

        def moved(table: FakeMessage = table, shown: tuple[int, int] = shown) -> bool:
            return (table.id, len(table.history)) != shown or live_table(fake, channel) is not table

        await fake.wait_for(moved, 10, f"the table after {verb}")
    raise SystemExit("the game never reached that turn")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=sorted(LOCALES), default="en")
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--classic", action="store_true", help="the classic embed table (house rule classic_table)")
    parser.add_argument("--width", type=int, default=1000, help="the channel's width in the picture at full size")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    opts = parser.parse_args()
    locale = LOCALES[opts.lang]
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord() as fake:
            guild = fake.add_guild("Turista", locale=locale, channels=("table",))
            channel = guild.channel("table")
            ana = fake.add_user("Ana", guild, locale=locale)
            beto = fake.add_user("Beto", guild, locale=locale)
            env = bot_environment(Path(folder) / "turista.db", {
                "TURISTA_SEED": str(opts.seed), "TURISTA_PACE": "0.05", "TURISTA_RENDER_WORKERS": "0"})
            process = await launch_bot(fake, env, Path(folder) / "bot.log")
            try:
                await fake.wait_for(lambda: fake.state.command_syncs > 0 and fake.connected, 30, "the bot")
                reply = await fake.slash(ana, channel, "turista new")
                await reply
                lobby = await reply.wait_message(lambda m: bool(m.custom_ids()), timeout=15)
                await (await fake.click(beto, lobby, verbs(lobby)["join"]))
                await fake.wait_for(lambda: "(2/6)" in lobby.text, 10, "Beto to sit down")
                await (await fake.click(ana, lobby, verbs(lobby)["addbot"]))
                await fake.wait_for(lambda: "(3/6)" in lobby.text, 10, "the computer to sit down")
                if opts.classic:
                    await keep_classic_table(fake, ana, channel, lobby)
                await (await fake.click(ana, lobby, verbs(lobby)["start"]))
                table = await play(fake, channel, {ana.id: ana, beto.id: beto}, opts.turns)
            finally:
                await process.stop(timeout=15)
            names = {ana.id: "Ana", beto.id: "Beto"}
            png = screenshot(table, lambda kind, ident: names.get(ident, str(ident)), width=opts.width)
    opts.out.mkdir(parents=True, exist_ok=True)
    picture = Image.open(io.BytesIO(png))
    stem = f"table-{'classic' if opts.classic else 'message'}{'' if opts.lang == 'en' else '-' + opts.lang}"
    paths = [opts.out / f"{stem}.png"]
    picture.save(paths[0], optimize=True)
    for width in (550, 350):
        small = picture.resize((width, round(picture.height * width / picture.width)), Image.Resampling.LANCZOS)
        paths.append(opts.out / f"{stem}-{width}.png")
        small.save(paths[-1], optimize=True)
    for path in paths:
        print(path)
    print(table.text)


if __name__ == "__main__":
    asyncio.run(main())
