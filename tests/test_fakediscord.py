"""The fake Discord against the real discord.py client: in-process and as a subprocess via the launcher.

The bot under test is defined here (not the project's bot) so these tests only prove the fake. Run as a
module (``python -m fakediscord.launch ... -- test_fakediscord TOKEN``) this file *is* that bot.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import sys
import zlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from fakediscord import (
    ADMINISTRATOR,
    DiscordErrors,
    FakeChannel,
    FakeDiscord,
    FakeUser,
    Pings,
    capture_discord_errors,
    limits,
    point_discord_py_at,
    restore_discord_py,
)

PROPERTIES = ["Argentina", "Argelia", "Australia", "Brasil", "Canadá", "Egipto"]
SLOW_SECONDS = 3.5  # just past Discord's 3 s acknowledgement deadline


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    """A valid PNG without Pillow, so the test depends on nothing but discord.py."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + b"\x08\x02\x00\x00\x00"
    pixels = zlib.compress(b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height)))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


# --- the bot under test ---------------------------------------------------------------------------------
class RollButton(discord.ui.DynamicItem[discord.ui.Button], template=r"roll:(?P<count>\d+)"):
    """A persistent button: its state lives in the custom_id, so it works on messages of earlier runs."""

    def __init__(self, count: int) -> None:
        super().__init__(discord.ui.Button(label="Roll", custom_id=f"roll:{count}"))
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: object
    ) -> RollButton:
        return cls(int(match["count"]))  # type: ignore[index]

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None).add_item(RollButton(self.count + 1))
        await interaction.response.edit_message(
            content=f"rolled {self.count + 1} times",
            attachments=[discord.File(io.BytesIO(tiny_png(5, 4)), "board.png")],
            view=view,
        )


class NameModal(discord.ui.Modal, title="Bautiza tu partida"):
    game_name: discord.ui.Label = discord.ui.Label(
        text="Nombre", component=discord.ui.TextInput(custom_id="game_name", max_length=30)
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        text_input = self.game_name.component
        assert isinstance(text_input, discord.ui.TextInput)
        await interaction.response.send_message(f"named {text_input.value}", ephemeral=True)


def build_bot() -> commands.Bot:
    """A small bot with a command group, top-level commands, a dynamic button, a select and a modal."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
    turista = app_commands.Group(name="turista", description="Turista Mundial")

    @turista.command(name="new", description="Start a game")
    async def new(interaction: discord.Interaction, seats: int) -> None:
        view = discord.ui.View(timeout=None).add_item(RollButton(0))
        speed = discord.ui.Select(custom_id="speed", options=[discord.SelectOption(label=s) for s in ("slow", "fast")])

        async def chose(select_interaction: discord.Interaction) -> None:
            await select_interaction.response.send_message(f"speed {speed.values[0]}", ephemeral=True)

        speed.callback = chose
        view.add_item(speed)
        file = discord.File(io.BytesIO(tiny_png()), "board.png")
        await interaction.response.send_message(f"game for {seats} in {interaction.channel}", file=file, view=view)

    @turista.command(name="mortgage", description="Mortgage a property")
    async def mortgage(interaction: discord.Interaction, property: str) -> None:
        await interaction.response.send_message(f"mortgaged {property}")

    @mortgage.autocomplete("property")
    async def property_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=p, value=p) for p in PROPERTIES if p.lower().startswith(current.lower())]

    bot.tree.add_command(turista)

    @bot.tree.command(name="roll", description="Roll the dice (deferred, then a followup)")
    async def roll(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content=f"dice for {interaction.user.name} ({interaction.locale})")
        await interaction.followup.send("your turn again", ephemeral=True)

    @bot.tree.command(name="name", description="Name the game")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @bot.tree.command(name="long", description="Try to send too much text")
    async def long(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("x" * 2001)
        except discord.HTTPException as error:
            await interaction.response.send_message(f"refused {error.status} {error.code}")

    @bot.tree.command(name="slow", description="Answer too late")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(SLOW_SECONDS)
        await interaction.response.send_message("too late")

    @bot.tree.command(name="reset", description="Moderators only")
    @app_commands.default_permissions(manage_guild=True)
    async def reset(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("reset", ephemeral=True)

    async def setup_hook() -> None:
        bot.add_dynamic_items(RollButton)
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


# --- fixtures --------------------------------------------------------------------------------------------
@pytest.fixture
def discord_errors() -> Iterator[DiscordErrors]:
    with capture_discord_errors() as errors:
        yield errors


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        point_discord_py_at(server.base_url, server.gateway_url)
        try:
            yield server
        finally:
            restore_discord_py()


@pytest.fixture
def channel(fake: FakeDiscord) -> FakeChannel:
    return fake.add_guild("Mesa de pruebas").channel("general")


@pytest.fixture
def ana(fake: FakeDiscord, channel: FakeChannel) -> FakeUser:
    return fake.add_user("ana", channel.guild, locale="es-419")


@pytest.fixture
async def bot(fake: FakeDiscord, channel: FakeChannel, discord_errors: DiscordErrors) -> AsyncIterator[commands.Bot]:
    client = build_bot()
    task = asyncio.create_task(client.start("fake-token"))
    await fake.wait_for_commands("turista", "roll")
    await asyncio.wait_for(client.wait_until_ready(), 5)
    yield client
    await client.close()
    await task


# --- in-process tests ------------------------------------------------------------------------------------
async def test_login_and_sync_registers_group_and_top_level_commands(fake: FakeDiscord, bot: commands.Bot) -> None:
    names = {c["name"]: c for c in fake.commands()}
    assert {"turista", "roll", "name", "long", "slow"} <= set(names)
    assert [o["name"] for o in names["turista"]["options"]] == ["new", "mortgage"]
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert len(bot.guilds) == 1 and bot.guilds[0].get_channel(fake.guilds[0].channels[0].id) is not None
    async with aiohttp.ClientSession() as session, session.get(f"{fake.base_url}/users/@me") as response:
        # discord.py only parses JSON when the header is exactly this.
        assert response.headers["Content-Type"] == "application/json"
    assert fake.errors == []


async def test_slash_png_button_and_select(
    fake: FakeDiscord, bot: commands.Bot, channel: FakeChannel, ana: FakeUser
) -> None:
    reply = await (await fake.slash(ana, channel, "turista new", options={"seats": 4}))
    assert reply.response_type == 4 and not reply.ephemeral
    assert reply.content == "game for 4 in general"
    assert reply.attachments[0].filename == "board.png"
    assert reply.message is not None and reply.message.attachment_bytes(0) == tiny_png()
    assert reply.attachments[0].to_payload()["width"] == 3
    assert fake.messages(channel) == [reply.message]
    choice = await (await fake.select(ana, reply.message, "speed", ["slow"]))
    assert choice.ephemeral and choice.content == "speed slow"
    assert fake.messages(channel, include_ephemeral=False) == [reply.message]

    click = await (await fake.click(ana, reply.message, label="Roll"))
    assert click.response_type == 7
    edited = fake.messages(channel, include_ephemeral=False)[-1]
    assert edited is reply.message and edited.content == "rolled 1 times"
    assert edited.custom_ids() == ["roll:1"] and edited.attachment_bytes(0) == tiny_png(5, 4)
    # A second click is matched from the custom_id alone (dynamic item), on the edited message.
    await (await fake.click(ana, edited, "roll:1"))
    assert reply.message.content == "rolled 2 times"
    assert fake.errors == []


async def test_attachment_url_is_served_to_discord_py(
    fake: FakeDiscord, bot: commands.Bot, channel: FakeChannel, ana: FakeUser
) -> None:
    reply = await (await fake.slash(ana, channel, "turista new", options={"seats": 2}))
    assert reply.message is not None
    fetched = await bot.get_channel(channel.id).fetch_message(reply.message.id)  # type: ignore[union-attr]
    assert await fetched.attachments[0].read() == tiny_png()


async def test_deferred_response_edit_and_followup(
    fake: FakeDiscord, bot: commands.Bot, channel: FakeChannel, ana: FakeUser
) -> None:
    reply = await (await fake.slash(ana, channel, "roll"))
    assert reply.response_type == 5
    message = await reply.wait_message(lambda m: m.content.startswith("dice"))
    assert message.content == "dice for ana (es-419)"
    [followup] = await reply.wait_followups(1)
    assert followup.ephemeral and followup.content == "your turn again"
    assert fake.errors == []


async def test_modal_opened_and_submitted(
    fake: FakeDiscord, bot: commands.Bot, channel: FakeChannel, ana: FakeUser
) -> None:
    opened = await (await fake.slash(ana, channel, "name"))
    assert opened.response_type == 9
    assert opened.modal is not None and opened.modal["title"] == "Bautiza tu partida"
    submitted = await (await fake.submit_modal(ana, channel, opened.modal["custom_id"], {"game_name": "Rápida"}))
    assert submitted.ephemeral and submitted.content == "named Rápida"
    assert fake.errors == []


async def test_autocomplete_returns_choices(
    fake: FakeDiscord, bot: commands.Bot, channel: FakeChannel, ana: FakeUser
) -> None:
    choices = await fake.autocomplete(ana, channel, "turista mortgage", focused="property", value="Arg")
    assert [c["value"] for c in choices] == ["Argentina", "Argelia"]


async def test_content_over_2000_chars_is_refused_with_400(
    fake: FakeDiscord, bot: commands.Bot, channel: FakeChannel, ana: FakeUser
) -> None:
    reply = await (await fake.slash(ana, channel, "long"))
    assert reply.content == "refused 400 50035"
    [error] = fake.errors
    assert reply.rejections == [error]
    # Discord's schema (the callback's `data.content`, 2,000 characters) refuses it before the fake's own rules.
    assert error.kind == "schema" and error.status == 400 and error.detail[0][0] == "data.content"


async def test_late_acknowledgement_is_recorded(
    fake: FakeDiscord, bot: commands.Bot, channel: FakeChannel, ana: FakeUser, discord_errors: DiscordErrors
) -> None:
    discord_errors.expect("Unknown interaction")
    reply = await fake.slash(ana, channel, "slow")
    with pytest.raises(AssertionError, match="not acknowledged in time"):
        await reply.wait(timeout=SLOW_SECONDS + 2)
    [error] = fake.errors
    assert error.kind == "late_ack" and error.code == 10062
    # The bot sees discord.NotFound, which discord.py only logs; wait for that log line.
    await discord_errors.wait_for_record()


async def test_resume_replays_and_keeps_session(
    fake: FakeDiscord, bot: commands.Bot, channel: FakeChannel, ana: FakeUser
) -> None:
    await fake.disconnect(resume=True)
    await fake.wait_for(lambda: fake.gateway.resumes == 1 and fake.connected, what="a RESUME")
    reply = await (await fake.slash(ana, channel, "turista new", options={"seats": 3}))
    assert reply.content == "game for 3 in general"
    assert fake.gateway.identifies == 1


async def test_driver_refuses_what_discord_clients_cannot_send(
    fake: FakeDiscord, bot: commands.Bot, channel: FakeChannel, ana: FakeUser
) -> None:
    with pytest.raises(ValueError, match="required"):
        await fake.slash(ana, channel, "turista new")
    with pytest.raises(LookupError, match="needs a subcommand"):
        await fake.slash(ana, channel, "turista")
    with pytest.raises(LookupError, match="registered"):
        await fake.slash(ana, channel, "nope")
    with pytest.raises(PermissionError, match="would not offer"):
        await fake.slash(ana, channel, "reset")
    boss = fake.add_user("boss", channel.guild, permissions=ADMINISTRATOR)
    assert (await (await fake.slash(boss, channel, "reset"))).content == "reset"


async def test_rate_limited_callback_is_retried(
    fake: FakeDiscord, bot: commands.Bot, channel: FakeChannel, ana: FakeUser
) -> None:
    fake.fail_next("POST", "/callback", status=429, retry_after=0.05)
    reply = await (await fake.slash(ana, channel, "turista new", options={"seats": 2}))
    assert reply.content == "game for 2 in general"
    assert [status for _, _, status in fake.faults.injected] == [429]
    assert fake.errors == []


async def test_wrong_token_is_a_login_failure() -> None:
    async with FakeDiscord(token="right-token") as server:
        point_discord_py_at(server.base_url, server.gateway_url)
        client = discord.Client(intents=discord.Intents.default())
        try:
            with pytest.raises(discord.LoginFailure):
                await client.login("wrong-token")
        finally:
            await client.close()
            restore_discord_py()


# --- REST without a bot: limits, multipart, allowed mentions ----------------------------------------------
async def test_limits_multipart_and_mentions_over_raw_rest(
    fake: FakeDiscord, channel: FakeChannel, ana: FakeUser
) -> None:
    url = f"{fake.base_url}/channels/{channel.id}/messages"
    button = {"type": 2, "style": 1, "label": "b"}
    too_much = {
        "content": "ok",
        "components": [{"type": 1, "components": [{**button, "custom_id": f"b{i}"}]} for i in range(6)],
    }
    too_wide = {"components": [{"type": 1, "components": [{**button, "custom_id": f"w{i}"} for i in range(6)]}]}
    long_id = {"components": [{"type": 1, "components": [{**button, "custom_id": "x" * 101}]}]}
    options = [{"label": str(i), "value": str(i)} for i in range(26)]
    big_select = {"components": [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": options}]}]}
    headers = {"Authorization": "Bot fake-token"}
    async with aiohttp.ClientSession(headers=headers) as session:
        for body in (too_much, too_wide, long_id, big_select):
            async with session.post(url, json=body) as response:
                assert response.status == 400
                assert (await response.json())["code"] == 50035
        # Refused by Discord's schema ("schema") or, where the schema allows it (six action rows: it takes the 40
        # components of a v2 message), by the fake's own rules ("limit").
        assert [e.kind for e in fake.errors] == ["limit", "schema", "schema", "schema"]
        assert "components" in fake.errors[0].detail[0][0]

        form = aiohttp.FormData()
        payload = {
            "content": f"{ana.mention} @everyone",
            "allowed_mentions": {"parse": ["users"]},
            "attachments": [{"id": 0, "filename": "board.png", "description": "tablero"}],
        }
        form.add_field("payload_json", json.dumps(payload))
        form.add_field("files[0]", tiny_png(), filename="board.png", content_type="application/octet-stream")
        async with session.post(url, data=form) as response:
            assert response.status == 200
            attachment_url = (await response.json())["attachments"][0]["url"]
        async with session.get(attachment_url) as response:
            assert await response.read() == tiny_png()
    message = await fake.wait_for_message(channel, lambda m: bool(m.attachments))
    assert message.attachments[0].description == "tablero"
    assert message.pings() == Pings(users=frozenset({ana.id}), roles=frozenset(), everyone=False)


def test_modal_and_choice_limits() -> None:
    text_input = {"type": 4, "custom_id": "name", "label": "Nombre", "style": 1}
    modal = {"custom_id": "m", "title": "t" * 46, "components": [{"type": 1, "components": [text_input]}] * 6}
    problems = dict(limits.check_modal(modal))
    assert {"data.title", "data.components"} <= set(problems)
    choices = {"choices": [{"name": str(i), "value": str(i)} for i in range(26)]}
    assert [path for path, _ in limits.check_choices(choices)] == ["data.choices"]


# --- the same bot in its own process, started by the launcher ---------------------------------------------
async def test_bot_in_subprocess_via_launcher(
    fake: FakeDiscord, channel: FakeChannel, ana: FakeUser, tmp_path: Path
) -> None:
    tests_dir = Path(__file__).resolve().parent
    process = await fake.launch(
        Path(__file__).stem,
        "fake-token",
        log_path=tmp_path / "bot.log",
        cwd=tests_dir.parent,
        extra_pythonpath=[tests_dir],
    )
    try:
        await fake.wait_for_commands("turista", timeout=15)
        await fake.wait_until_connected()
        reply = await (await fake.slash(ana, channel, "turista new", options={"seats": 5}))
        assert reply.content == "game for 5 in general"
        assert reply.message is not None and reply.message.attachment_bytes(0) == tiny_png()
        await (await fake.click(ana, reply.message, label="Roll"))
        assert reply.message.content == "rolled 1 times"
    finally:
        await process.stop()
    process.assert_clean_log()
    assert "connected to Gateway" in process.log
    assert fake.errors == []


def main() -> None:
    """Entry point when this file runs as the bot: ``python -m ... test_fakediscord TOKEN``."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    build_bot().run(sys.argv[1], log_handler=None)


if __name__ == "__main__":
    main()


async def test_threads_nonces_text_and_a_screenshot(
    fake: FakeDiscord, bot: commands.Bot, channel: FakeChannel
) -> None:
    from fakediscord.screenshot import screenshot

    sent = bot.get_channel(channel.id)
    assert isinstance(sent, discord.TextChannel)
    embed = discord.Embed(title="Turno 1", description="• **Ana** tira", colour=0x125CB2)
    embed.add_field(name="Ahora", value="Ana decide")
    first = await sent.send("<@1>", embed=embed, nonce="g1t5")
    again = await sent.send("<@1>", embed=embed, nonce="g1t5")  # a repeated nonce: the same message
    assert again.id == first.id and len(fake.messages(channel)) == 1
    record = fake.messages(channel)[0]
    assert record.text.splitlines() == ["<@1>", "Turno 1", "• **Ana** tira", "Ahora", "Ana decide"]
    thread = await first.create_thread(name="Partida #1")
    assert thread.id == first.id and [t.id for t in fake.threads(channel)] == [first.id]
    await thread.send("en el hilo")
    assert [m.content for m in fake.messages(fake.threads(channel)[0])] == ["en el hilo"]
    assert screenshot(record).startswith(b"\x89PNG")


async def test_multipart_bodies_read_as_discord_py_writes_them() -> None:
    """The fake's own multipart reader against aiohttp's writer, as discord.py uses it."""
    import aiohttp

    from fakediscord.rest import _BOUNDARY, _parts

    class Sink:
        def __init__(self) -> None:
            self.data = b""

        async def write(self, chunk: bytes) -> None:
            self.data += bytes(chunk)

    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", '{"content": "hola\\r\\n--x"}')
    form.add_field("files[1]", b"\x89PNG\r\n\r\n--tail\r\n", filename="mesa ñ.png", content_type="image/png")
    form.add_field("files[0]", b"", filename="board.png", content_type="application/octet-stream")
    payload = form()
    sink = Sink()
    await payload.write(sink)  # type: ignore[arg-type]
    boundary = _BOUNDARY.search(payload.content_type)
    assert boundary is not None
    parts = _parts(sink.data, boundary.group(1) or boundary.group(2))
    assert parts == [("payload_json", None, b'{"content": "hola\\r\\n--x"}'),
                     ("files[1]", "mesa ñ.png", b"\x89PNG\r\n\r\n--tail\r\n"), ("files[0]", "board.png", b"")]


def test_a_layouts_screenshot_shows_its_gallery_at_the_containers_width() -> None:
    """A Components V2 message is drawn from its components alone: the text displays, the gallery's picture as
    wide as the container's inside (an embed's stays within 400 px), the section's button, the rows."""
    import io

    from PIL import Image

    from fakediscord.models import IS_COMPONENTS_V2, FakeAttachment, FakeMessage
    from fakediscord.screenshot import screenshot

    board = io.BytesIO()
    Image.new("RGB", (1100, 688), (250, 10, 200)).save(board, format="PNG")
    author = FakeUser(id=9, name="Turista", bot=True)
    where = FakeChannel(id=5, guild=None, name="mesa")  # type: ignore[arg-type]
    button = {"type": 2, "style": 1, "label": "Tirar", "custom_id": "roll"}
    parts = [{"type": 17, "accent_color": 0x125CB2, "components": [
        {"type": 10, "content": "### Turno 1 · Ana"},
        {"type": 12, "items": [{"media": {"url": "attachment://board.png"}, "description": "El tablero"}]},
        {"type": 9, "components": [{"type": 10, "content": "Ana, te toca"}], "accessory": button},
        {"type": 14}, {"type": 1, "components": [{**button, "label": "Mis cosas", "custom_id": "status"}]},
        {"type": 10, "content": "-# partida 1"}]}]
    message = FakeMessage(id=1, channel=where, author=author, components=parts, flags=IS_COMPONENTS_V2,
                          attachments=[FakeAttachment(id=2, filename="board.png", data=board.getvalue(), url="")])
    picture = Image.open(io.BytesIO(screenshot(message, width=1000))).convert("RGB")
    widest = max(sum(1 for x in range(picture.width) if picture.getpixel((x, y)) == (250, 10, 200))
                 for y in range(0, picture.height, 7))
    assert widest >= 870, widest  # 1,000 less the avatar's column, the margins and the container's padding
    assert widest * 550 / 1000 >= 480  # as docs/images/table-message-550.png shows it
    assert "Turno 1" in message.text and "Ana, te toca" in message.text
