"""The slash commands' registration: sent only when it changed, a refusal named by command and field, the bot
going on with the commands Discord has (and `turista status` saying so) or stopping with the status systemd does
not restart, and `turista commands check|sync`."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from bot import registration
from bot.commands import league
from bot.commands.registration import problem_lines, registration_payload
from bot.monitor import main as status_main
from bot.store import Store
from devkit.world import TEST_SETTINGS, Bot, bot_environment
from fakediscord import FakeDiscord, limits
from fakediscord.spec import Spec

ROOT = Path(__file__).resolve().parents[1]
MAX_VALUE = "int value should be less than or equal to 9007199254740991."


@pytest.fixture(scope="module")
def commands() -> list[dict[str, Any]]:
    return asyncio.run(registration_payload())


def index_of(commands: list[dict[str, Any]], *names: str) -> list[int]:
    """The indexes of `/turista ranking season` as the error tree's keys have them: [0, 15, 0]."""
    indexes, nodes = [], commands
    for name in names:
        found = next(i for i, node in enumerate(nodes) if node["name"] == name)
        indexes.append(found)
        nodes = nodes[found].get("options") or []
    return indexes


def refusal_tree(path: list[int], field: str, message: str) -> dict[str, Any]:
    """Discord's error tree for one field: {"0": {"options": {"15": {"options": {"0": {field: {_errors}}}}}}}."""
    node: dict[str, Any] = {field: {"_errors": [{"code": "NUMBER_TYPE_MAX", "message": message}]}}
    for index in reversed(path[1:]):
        node = {"options": {str(index): node}}
    return {str(path[0]): node}


def test_the_digest_is_the_payloads_whatever_the_order_of_keys(commands: list[dict[str, Any]]) -> None:
    shuffled = json.loads(json.dumps(commands))
    shuffled[0] = dict(reversed(list(shuffled[0].items())))
    assert registration.digest(shuffled) == registration.digest(commands)
    shuffled[0]["description"] += "!"
    assert registration.digest(shuffled) != registration.digest(commands)


def test_a_refusal_names_the_command_and_the_field(commands: list[dict[str, Any]]) -> None:
    path = index_of(commands, "turista", "ranking", "season")
    dotted = ".".join(map(str, path[:1])) + "".join(f".options.{i}" for i in path[1:])
    text = f"Invalid Form Body\nIn {dotted}.max_value: {MAX_VALUE}\nIn 1.name: Bad name"
    reasons = registration.refusal_reasons(text, commands)
    assert reasons == [
        f"command[{path[0]}].options[{path[1]}].options[{path[2]}].max_value (/turista ranking, option season): "
        f"{MAX_VALUE}",
        f"command[1].name (/{commands[1]['name']}): Bad name",
    ]
    assert registration.refusal_reasons("Invalid Form Body", commands) == ["Invalid Form Body"]


def test_the_offline_check_finds_what_discord_refuses(commands: list[dict[str, Any]]) -> None:
    broken = json.loads(json.dumps(commands))
    ranking = index_of(broken, "turista", "ranking")
    group = broken[0]["options"][ranking[1]]
    group["name_localizations"] = {"es-MX": "clasificacion"}  # not a Discord locale
    group["options"][0]["max_value"] = 2**53  # past Int53
    broken[1]["name"] = "Roll"  # names are lower case
    problems = problem_lines(broken, None)
    where = f"command[0].options[{ranking[1]}]"
    assert any(p.startswith(f"{where}.name_localizations.es-MX (/turista ranking)") for p in problems), problems
    assert any(p.startswith(f"{where}.options[0].max_value (/turista ranking, option season)") for p in problems)
    assert any(p.startswith("command[1].name (/Roll): Command name is invalid: letters with a lower-case form must "
                            "be lower case") for p in problems), problems


def test_the_offline_check_holds_the_specs_schema(commands: list[dict[str, Any]], discord_spec: Spec) -> None:
    broken = json.loads(json.dumps(commands))
    broken[1]["description"] = "x" * 101
    broken[1]["options"] = [{"type": 4, "name": "n", "description": "d", "max_value": 2**53}]
    problems = discord_spec.problems("PUT", "/applications/0/commands", broken)
    assert ("1.description", "Must be 100 or fewer in length.", "BASE_TYPE_MAX_LENGTH") in problems
    assert ("1.options.0.max_value", MAX_VALUE, "NUMBER_TYPE_MAX") in problems
    # The check says a field the schema and a documented rule both refuse once, as the schema words it.
    lines = problem_lines(broken, discord_spec)
    assert [line for line in lines if ".max_value" in line] == [
        f"command[1].options[0].max_value (/{broken[1]['name']}, option n): {MAX_VALUE}"]


@pytest.mark.xfail(league.MAX_NUMBER > limits.INTEGER_MAX, strict=True,
                   reason="bot.commands.league.MAX_NUMBER is past Discord's Int53 (issue 34)")
def test_the_bots_registration_passes_the_offline_check(commands: list[dict[str, Any]], discord_spec: Spec) -> None:
    assert problem_lines(commands, discord_spec) == []


def test_turista_commands_check_prints_a_summary_and_the_problems(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    code = main(["commands", "check"])
    out = capsys.readouterr().out
    assert "14 top-level commands" in out and "es-419, es-ES" in out and "documented rules" in out
    if league.MAX_NUMBER > limits.INTEGER_MAX:
        assert code == 1 and "(/turista ranking, option season)" in out
    else:
        assert code == 0 and "no problem found" in out


def test_turista_commands_check_without_the_spec_holds_the_documented_rules(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main
    from fakediscord import spec as discord_spec

    missing = tmp_path / "openapi.json"
    assert main(["commands", "check", "--spec", str(missing)]) == 2  # one that was named must be there
    assert f"no OpenAPI description at {missing}" in capsys.readouterr().err
    monkeypatch.delenv(discord_spec.SPEC_ENV, raising=False)
    monkeypatch.setattr(discord_spec, "default_spec_path", lambda: missing)
    code = main(["commands", "check"])
    out = capsys.readouterr().out
    assert f"documented rules only: no OpenAPI description at {missing}" in out and "14 top-level commands" in out
    assert code == (1 if league.MAX_NUMBER > limits.INTEGER_MAX else 0)


# -- the bot's starts ---------------------------------------------------------------------------------------
def status(capsys: pytest.CaptureFixture[str], db: Path) -> str:
    capsys.readouterr()
    assert status_main(["--db", str(db)]) == 0
    return capsys.readouterr().out


async def test_a_start_registers_only_what_changed_and_a_refusal_leaves_the_commands_discord_has(
        tmp_path: Path, commands: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "turista.db"
    async with FakeDiscord() as fake:
        fake.add_guild("Mesa")
        bot = Bot(fake, db, tmp_path / "bot.log", bot_environment(db, TEST_SETTINGS))
        await bot.start()
        await bot.stop()
        assert fake.state.command_syncs == 1
        # Restarted with nothing changed: no registration at all.
        await bot.start()
        await bot.stop()
        assert fake.state.command_syncs == 1 and "unchanged since Discord accepted them" in bot.log()
        assert "accepted" in status(capsys, db)

        # A release whose commands changed (here: the digest kept is another's) registers once.
        with Store(db) as store:
            store.db.execute("UPDATE registrations SET digest = 'an older release'")
        await bot.start()
        await bot.stop()
        assert fake.state.command_syncs == 2

        # Discord refuses the next change: the bot runs on with the commands it has, and says so.
        with Store(db) as store:
            store.db.execute("UPDATE registrations SET digest = 'an older release'")
        path = index_of(commands, "turista", "ranking", "season")
        refusal = fake.fail("PUT", "/applications/{application}/commands", status=400, code=50035,
                            reason="Invalid Form Body", errors=refusal_tree(path, "max_value", MAX_VALUE))
        await bot.start()
        assert refusal.hits == 1 and fake.state.command_syncs == 2 and fake.connected
        said = f"options[{path[2]}].max_value (/turista ranking, option season): {MAX_VALUE}"
        assert f"Discord refused the command registration (400, code 50035): command[{path[0]}]" in bot.log()
        assert said in bot.log() and f"Going on with the {len(commands)} commands Discord already has" in bot.log()
        guild = fake.guilds[0]
        ana = fake.add_user("Ana", guild)
        answer = await (await fake.slash(ana, guild.channel("general"), "turista help")).wait()
        assert answer.response_type in (4, 5)  # the commands Discord had still work
        await bot.stop()
        report = status(capsys, db)
        assert "REFUSED" in report and f"the bot runs with the {len(commands)} commands" in report and said in report
        # Refused again at the next start (nothing changed since): the same, not a loop.
        refusal.times = 1
        await bot.start()
        await bot.stop()
        assert refusal.hits == 2
    errors = [line for line in bot.log().splitlines() if " ERROR " in line or "Traceback" in line]
    assert not errors, bot.log()[-4000:]


async def test_a_refusal_with_no_command_left_stops_with_one_line_and_the_status_systemd_keeps(
        tmp_path: Path, commands: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "turista.db"
    async with FakeDiscord() as fake:
        fake.add_guild("Mesa")
        path = index_of(commands, "turista", "replay", "game")
        fake.fail("PUT", "/applications/{application}/commands", status=400, code=50035, reason="Invalid Form Body",
                  errors=refusal_tree(path, "max_value", MAX_VALUE))
        process = await fake.launch("bot", log_path=tmp_path / "bot.log", env=bot_environment(db, TEST_SETTINGS),
                                    cwd=ROOT, inherit=False)
        code = await asyncio.wait_for(process.process.wait(), 60)
        assert fake.state.command_syncs == 0 and not fake.connected
    assert code == registration.REFUSED_EXIT, process.log
    last = process.log.rstrip().splitlines()[-1]
    assert last.startswith("Discord refused the command registration (400, code 50035): command[0].options[")
    assert f"(/turista replay, option game): {MAX_VALUE}" in last and "exit status 3" in last
    assert "Traceback" not in process.log and " ERROR " not in process.log, process.log
    report = status(capsys, db)
    assert "REFUSED" in report and "Discord has no command of the bot, so it stopped (exit status 3)" in report


async def test_turista_commands_sync_sends_it_and_keeps_its_digest(tmp_path: Path) -> None:
    db = tmp_path / "turista.db"
    env = bot_environment(db, TEST_SETTINGS)
    async with FakeDiscord() as fake:
        fake.add_guild("Mesa")
        synced = await fake.launch("bot", "commands", "sync", log_path=tmp_path / "sync.log", env=env, cwd=ROOT,
                                   inherit=False)
        assert await asyncio.wait_for(synced.process.wait(), 60) == 0, synced.log
        assert fake.state.command_syncs == 1 and "registered: 14 top-level commands" in synced.log
        bot = Bot(fake, db, tmp_path / "bot.log", env)
        await bot.start()  # the digest sync kept: nothing to send
        await bot.stop()
        assert fake.state.command_syncs == 1
        synced = await fake.launch("bot", "commands", "sync", log_path=tmp_path / "sync2.log", env=env, cwd=ROOT,
                                   inherit=False)
        assert await asyncio.wait_for(synced.process.wait(), 60) == 0, synced.log
        assert fake.state.command_syncs == 2  # `sync` sends it whatever the digest says
