"""`turista selftest --channel ID`: a test table on real Discord, with the bot's own token, read back and deleted,
and what Discord answered at each step.

Run once after installing and after each upgrade (docs/operations.md). The steps are what a table does: a message
with an embed, the board's picture and buttons; an edit with a new picture; a thread with a message; an ephemeral
reply. An ephemeral reply only ever answers a person's click, so that step waits for someone to press the test
button and is skipped, saying so, when nobody does. The bot's own process leaves that button alone
(`bot.face.ids.SELF_TEST_PREFIX`), so the test may run while the bot runs.

It speaks to Discord through discord.py, as the bot does: the REST base and the gateway are discord.py's (a launcher
may point them elsewhere, as the tests point them at the fake Discord).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import re
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, TextIO

import aiohttp

from bot.config import has_token, load_config
from bot.face.ids import SELF_TEST_PREFIX

CLICK_WAIT = 60.0  # seconds the ephemeral step waits for a person's click, by default
CONNECT_WITHIN = 30.0
PICTURE = "board.png"
_TOKEN_IN_PATH = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/]+")


class Skipped(Exception):
    """A step that could not run: its reason is printed, and it counts as skipped, not failed."""


@dataclass
class Step:
    name: str
    requests: list[str] = field(default_factory=list)  # "POST /channels/1/messages → 200"
    outcome: str = "ok"  # ok, failed, skipped
    note: str = ""


class Report:
    """The steps as they run, printed one by one, with every request Discord answered during each."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.steps: list[Step] = []
        self.current: Step | None = None
        self.base = ""

    def trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace that notes each request's method, path and status in the running step."""
        trace = aiohttp.TraceConfig()

        async def ended(_: aiohttp.ClientSession, __: SimpleNamespace, params: aiohttp.TraceRequestEndParams) -> None:
            self._note(params.method, str(params.url), str(params.response.status))

        async def failed(_: aiohttp.ClientSession, __: SimpleNamespace,
                         params: aiohttp.TraceRequestExceptionParams) -> None:
            self._note(params.method, str(params.url), f"no answer ({type(params.exception).__name__})")

        trace.on_request_end.append(ended)
        trace.on_request_exception.append(failed)
        return trace

    def _note(self, method: str, url: str, status: str) -> None:
        if self.current is not None:
            path = url.split("?")[0]
            marker = "/api/v10"
            if marker in path:
                path = path[path.index(marker) + len(marker):]
            # An interaction's token lets its holder answer for the bot for 15 minutes: never printed.
            path = _TOKEN_IN_PATH.sub(r"\1{token}", path)
            self.current.requests.append(f"{method} {path} → {status}")

    @contextlib.asynccontextmanager
    async def step(self, name: str) -> AsyncIterator[Step]:
        import discord

        step = Step(name)
        self.steps.append(step)
        self.current = step
        try:
            yield step
        except Skipped as why:
            step.outcome, step.note = "skipped", str(why)
        except discord.HTTPException as error:
            step.outcome = "failed"
            said = error.text.splitlines()[0] if error.text else ""
            step.note = f"Discord answered {error.status} (code {error.code}): {said}"
        except (AssertionError, LookupError, TimeoutError, aiohttp.ClientError, OSError) as error:
            step.outcome, step.note = "failed", str(error) or type(error).__name__
        finally:
            self.current = None
            self._print(step)

    def _print(self, step: Step) -> None:
        number = len(self.steps)
        print(f"{number:2}. {step.name}: {step.outcome.upper() if step.outcome != 'ok' else 'ok'}"
              f"{f' · {step.note}' if step.note else ''}", file=self.out)
        for request in step.requests:
            print(f"      {request}", file=self.out)
        self.out.flush()

    def failed(self, name: str) -> bool:
        return any(s.name == name and s.outcome != "ok" for s in self.steps)

    def summary(self) -> str:
        counts = {kind: sum(s.outcome == kind for s in self.steps) for kind in ("ok", "failed", "skipped")}
        return f"{counts['ok']} steps passed, {counts['failed']} failed, {counts['skipped']} skipped"


def _pictures(lang: str) -> tuple[bytes, bytes]:
    """The board of a new game, and one later in a game: two pictures as a table sends them."""
    from engine import new_game
    from render import board
    from render.sample import busy_state

    first, _ = new_game("turismundo", ["Ana", "Beto"], seed=7)
    return board(first, lang), board(busy_state("turismundo"), lang)


def _require(condition: bool, what: str) -> None:
    if not condition:
        raise AssertionError(what)


async def run(token: str, channel_id: int, *, lang: str = "es", wait: float = CLICK_WAIT,
              out: TextIO = sys.stdout) -> int:
    """The whole self-test; 0 when no step failed, 1 otherwise (2: Discord refused the token)."""
    import discord

    from bot.face.i18n import t

    report = Report(out)
    print(f"Turista self-test in channel {channel_id}, against {discord.http.Route.BASE}", file=out)
    # No guild cache is needed (the channel is fetched): READY need not wait for the guilds to stream in.
    client = discord.Client(intents=discord.Intents.none(), http_trace=report.trace(), guild_ready_timeout=0.1)
    clicked: asyncio.Future[discord.Interaction] = asyncio.get_running_loop().create_future()
    made: dict[str, Any] = {}
    async with client:
        async with report.step("log in with the bot's token") as step:
            try:
                await client.login(token)
            except discord.LoginFailure as error:
                raise AssertionError(f"Discord refused the token: {error}") from None
            _require(client.user is not None, "no user")
            step.note = f"as {client.user} (application {client.application_id})"
        if report.failed("log in with the bot's token"):
            print(report.summary(), file=out)
            return 2
        connection = asyncio.create_task(client.connect(reconnect=False), name="selftest-gateway")
        async with report.step("connect to the gateway (the click of the ephemeral step comes through it)"):
            waiting = asyncio.create_task(client.wait_until_ready())
            done, _ = await asyncio.wait({waiting, connection}, timeout=CONNECT_WITHIN,
                                         return_when=asyncio.FIRST_COMPLETED)
            if waiting not in done:
                waiting.cancel()
                raise AssertionError(f"not connected within {CONNECT_WITHIN:.0f} s"
                                     + (f": {connection.exception()}" if connection.done() else ""))
        try:
            await _table_steps(report, client, channel_id, lang, t, clicked, made, wait)
        finally:
            await _clean_up(report, made)
            connection.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await connection
    print(report.summary(), file=out)
    return 1 if any(s.outcome == "failed" for s in report.steps) else 0


async def _table_steps(report: Report, client: Any, channel_id: int, lang: str, t: Callable[..., str],
                       clicked: asyncio.Future[Any], made: dict[str, Any], wait: float) -> None:
    import discord

    async with report.step("find the channel") as step:
        channel = await client.fetch_channel(channel_id)
        _require(isinstance(channel, discord.TextChannel), f"{channel_id} is not a text channel of a server")
        step.note = f"#{channel.name}"
    if report.failed("find the channel"):
        return
    first_png, second_png = await asyncio.to_thread(_pictures, lang)  # a second or two: drawn once there is a channel

    press_id = f"{SELF_TEST_PREFIX}press:{int(time.time())}"
    view = discord.ui.View(timeout=None)
    roll = discord.ui.Button(label=t(lang, "button.roll"), custom_id=f"{SELF_TEST_PREFIX}roll", disabled=True)
    press = discord.ui.Button(label=t(lang, "selftest.press"), custom_id=press_id,
                              style=discord.ButtonStyle.primary)

    async def pressed(interaction: discord.Interaction) -> None:
        if not clicked.done():
            clicked.set_result(interaction)

    press.callback = pressed  # type: ignore[method-assign]
    view.add_item(roll)
    view.add_item(press)
    embed = discord.Embed(title=t(lang, "selftest.title"), description=t(lang, "selftest.body"))
    embed.set_image(url=f"attachment://{PICTURE}")

    async with report.step("post a test table: an embed with the board's picture and two buttons"):
        made["message"] = await channel.send(embed=embed, file=discord.File(io.BytesIO(first_png), PICTURE),
                                             view=view)
    message = made.get("message")
    if message is None:
        return
    async with report.step("read the table back") as step:
        back = await channel.fetch_message(message.id)
        _require(bool(back.embeds) and back.embeds[0].title == embed.title, "the embed is not as sent")
        _require([a.filename for a in back.attachments] == [PICTURE], f"attachments: {back.attachments}")
        _require(back.attachments[0].size == len(first_png), "the picture's size differs from what was sent")
        buttons = [c for row in back.components for c in getattr(row, "children", [])]
        _require(len(buttons) == 2, f"{len(buttons)} buttons instead of 2")
        first_attachment = back.attachments[0].id
        step.note = f"{PICTURE} of {len(first_png):,} bytes, 2 buttons"

    edited = embed.copy()
    edited.description = t(lang, "selftest.edited")
    async with report.step("edit the table with a new picture"):
        await message.edit(embed=edited, attachments=[discord.File(io.BytesIO(second_png), PICTURE)], view=view)
    async with report.step("read the edit back") as step:
        back = await channel.fetch_message(message.id)
        _require(back.embeds[0].description == edited.description, "the embed is not as edited")
        _require(len(back.attachments) == 1 and back.attachments[0].size == len(second_png),
                 f"the new picture is not there: {back.attachments}")
        _require(back.attachments[0].id != first_attachment, "the picture is still the first one")
        step.note = f"the new {PICTURE}, {len(second_png):,} bytes"

    async with report.step("start a thread from the table"):
        made["thread"] = await message.create_thread(name=t(lang, "selftest.thread"), auto_archive_duration=60)
    thread = made.get("thread")
    if thread is not None:
        async with report.step("post in the thread and read it back"):
            made["in_thread"] = await thread.send(t(lang, "selftest.in_thread"))
            back = await thread.fetch_message(made["in_thread"].id)
            _require(back.content == t(lang, "selftest.in_thread"), "the thread's message is not as sent")

    async with report.step(f"an ephemeral reply to a click (press «{press.label}» within {wait:.0f} s)") as step:
        if wait <= 0:
            raise Skipped("--wait 0: not waited for a click")
        print(f"    waiting up to {wait:.0f} s for someone to press «{press.label}» in #{channel.name}…",
              file=report.out, flush=True)
        try:
            interaction = await asyncio.wait_for(asyncio.shield(clicked), wait)
        except TimeoutError:
            raise Skipped(f"nobody pressed the button within {wait:.0f} s. An ephemeral reply only answers a "
                          "person's click, so only a person can test it: run again and press the button "
                          "(--wait sets how long to wait)") from None
        await interaction.response.send_message(t(lang, "selftest.private"), ephemeral=True)
        reply = await interaction.original_response()
        _require(reply.flags.ephemeral, "the reply is not ephemeral")
        await interaction.delete_original_response()
        step.note = f"pressed by {interaction.user}; the reply was ephemeral"


async def _clean_up(report: Report, made: dict[str, Any]) -> None:
    """Delete what the test made: the thread's message, the thread, the table; then check the table is gone."""
    import discord

    if "in_thread" in made:
        async with report.step("delete the thread's message"):
            await made["in_thread"].delete()
    if "thread" in made:
        async with report.step("delete the thread"):
            try:
                await made["thread"].delete()
            except discord.Forbidden:
                raise Skipped("Discord lets only Manage Threads delete a thread, which the invite does not give: "
                              "the thread stays, empty, and archives itself after an hour; delete it by hand") from None
    if "message" in made:
        async with report.step("delete the table"):
            await made["message"].delete()
        async with report.step("check the table is gone"):
            try:
                await made["message"].channel.fetch_message(made["message"].id)
            except discord.NotFound:
                return
            raise AssertionError("the table is still there")


def parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Post a test table in a channel of Discord with the bot's token (DISCORD_TOKEN, from the "
        "environment or .env, as `turista run` reads it): an embed with the board's picture and buttons, an edit "
        "with a new picture, a thread, an ephemeral reply to a click; read each back, delete what it made, and "
        "print what Discord answered at each step. Status 0 when no step failed.")
    parser.add_argument("--channel", required=True, type=int, metavar="ID",
                        help="the id of a text channel the bot may write in (Discord's developer mode: right-click "
                        "the channel, Copy Channel ID)")
    parser.add_argument("--wait", type=float, default=CLICK_WAIT, metavar="SECONDS",
                        help=f"how long to wait for a person to press the test button (default {CLICK_WAIT:.0f}; "
                        "0 skips the ephemeral step)")
    parser.add_argument("--lang", choices=("es", "en"), default="es", help="the language of the test table")
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "python -m bot.selftest") -> int:
    args = parser(prog).parse_args(argv)
    config = load_config()
    if not has_token(config, "selftest"):
        return 2
    return asyncio.run(run(config.token, args.channel, lang=args.lang, wait=max(0.0, args.wait)))


if __name__ == "__main__":
    sys.exit(main())
