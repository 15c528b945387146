"""`turista selftest` against the fake Discord: every step printed with what Discord answered, a person's click
answered ephemerally, and nothing of the test left in the channel."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from devkit.world import TEST_SETTINGS, bot_environment
from fakediscord import FakeDiscord
from fakediscord.models import DEFAULT_APP_PERMISSIONS
from words import Catalogue

ROOT = Path(__file__).resolve().parents[1]
BOT = Catalogue("bot")
MANAGE_THREADS = 1 << 34
STEPS = ("log in with the bot's token", "connect to the gateway", "find the channel", "post a test table",
         "read the table back", "edit the table with a new picture", "read the edit back",
         "start a thread from the table", "post in the thread and read it back", "an ephemeral reply to a click",
         "delete the thread's message", "delete the thread", "delete the table", "check the table is gone")


def text(key: str) -> str:
    return BOT.texts("es")[f"bot.selftest.{key}"]


async def selftest(fake: FakeDiscord, tmp_path: Path, *args: str) -> tuple[int, str]:
    env = bot_environment(tmp_path / "turista.db", TEST_SETTINGS)
    process = await fake.launch("bot", "selftest", *args, log_path=tmp_path / f"selftest{len(args)}.log", env=env,
                                cwd=ROOT, inherit=False)
    code = await asyncio.wait_for(process.process.wait(), 60)
    return code, process.log


def step_lines(log: str) -> dict[str, str]:
    return {name: line for line in log.splitlines() for name in STEPS if re.match(rf" ?\d+\. {re.escape(name)}", line)}


async def test_the_selftest_posts_a_table_reads_each_step_back_and_leaves_nothing(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Mesa")
        channel = guild.channel("general")
        ana = fake.add_user("Ana", guild)
        env = bot_environment(tmp_path / "turista.db", TEST_SETTINGS)
        process = await fake.launch("bot", "selftest", "--channel", str(channel.id), "--wait", "30",
                                    log_path=tmp_path / "selftest.log", env=env, cwd=ROOT, inherit=False)
        # A person presses the test button once the table is in the channel and its thread has its message.
        await fake.wait_for_message(channel, lambda m: m.content == text("in_thread"), timeout=30, threads=True)
        table = next(m for m in fake.messages(channel) if m.find_component(prefix="selftest:press"))
        assert table.embeds[0]["description"] == text("edited") and table.attachments[0].filename == "board.png"
        assert len(table.history) == 2 and table.history[0]["embeds"][0]["description"] == text("body")
        click = await (await fake.click(ana, table, table.component(prefix="selftest:press")["custom_id"])).wait()
        assert click.response_type == 4 and click.ephemeral and click.content == text("private")
        code = await asyncio.wait_for(process.process.wait(), 60)
        log = process.log
        # Nothing of the test is left: the table, the thread's message and the ephemeral reply are deleted; the
        # thread itself stays (empty), as the invite gives no Manage Threads.
        assert fake.messages(channel, threads=True) == [], fake.messages(channel, threads=True)
        assert [t.name for t in fake.threads(channel)] == [text("thread")]
        # The two refusals are the test's own: the thread it may not delete, the table it checks is gone.
        assert [(e.status, e.code) for e in fake.errors] == [(403, 50013), (404, 10008)], fake.errors
    assert code == 0, log
    lines = step_lines(log)
    assert set(lines) == set(STEPS), log
    for name in STEPS:
        expected = "SKIPPED" if name == "delete the thread" else "ok"
        assert f"{name}" in lines[name] and f": {expected}" in lines[name], lines[name]
    assert "Manage Threads" in lines["delete the thread"] and "pressed by Ana" in lines["an ephemeral reply to a click"]
    # What Discord answered, request by request.
    for request in (f"GET /channels/{channel.id} → 200", f"POST /channels/{channel.id}/messages → 200",
                    f"PATCH /channels/{channel.id}/messages/{table.id} → 200",
                    f"POST /channels/{channel.id}/messages/{table.id}/threads → 201",
                    f"DELETE /channels/{table.id} → 403", f"DELETE /channels/{channel.id}/messages/{table.id} → 204",
                    f"GET /channels/{channel.id}/messages/{table.id} → 404", "/{token}/callback → 200",
                    "/{token}/messages/@original → 200", "/{token}/messages/@original → 204"):
        assert request in log, (request, log)
    assert "13 steps passed, 0 failed, 1 skipped" in log
    assert "Traceback" not in log and click.payload["token"] not in log


async def test_the_selftest_skips_the_click_nobody_makes_and_says_what_failed(tmp_path: Path) -> None:
    async with FakeDiscord(app_permissions=DEFAULT_APP_PERMISSIONS | MANAGE_THREADS) as fake:
        guild = fake.add_guild("Mesa")
        channel = guild.channel("general")
        code, log = await selftest(fake, tmp_path, "--channel", str(channel.id), "--wait", "0", "--lang", "en")
        assert code == 0, log
        assert fake.messages(channel, threads=True) == [] and fake.threads(channel) == []  # the thread too
        lines = step_lines(log)
        assert "SKIPPED" in lines["an ephemeral reply to a click"] and ": ok" in lines["delete the thread"]
        assert "13 steps passed, 0 failed, 1 skipped" in log
        # A channel the bot cannot see: the step says what Discord answered, and the status says it failed.
        code, log = await selftest(fake, tmp_path, "--channel", "1234", "--wait", "0")
    assert code == 1
    assert "find the channel: FAILED · Discord answered 404 (code 10003): Unknown Channel" in log, log
    assert "GET /channels/1234 → 404" in log and "2 steps passed, 1 failed, 0 skipped" in log


async def test_the_running_bot_leaves_the_selftests_buttons_alone() -> None:
    """`turista selftest` answers its own button through its own connection; the bot's router, which refuses any
    other custom_id it never made, must not answer it first."""
    from types import SimpleNamespace

    from bot.face.ids import SELF_TEST_PREFIX
    from bot.handlers import router

    touched: list[str] = []

    class Untouchable(SimpleNamespace):
        def __getattr__(self, name: str) -> object:
            touched.append(name)
            raise AttributeError(name)

    await router.handle(Untouchable(data={"custom_id": f"{SELF_TEST_PREFIX}press:1"}))  # type: ignore[arg-type]
    assert touched == []
