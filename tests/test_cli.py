"""`turista`: one command whose subcommands are the `python -m` tools, backup and restore of the database,
and the status line an admin's monitoring reads."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from bot import cli
from bot.monitor import age, status_line
from bot.store import Activity, Store, StoreError
from devkit.synthetic import choose

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=60)


def turista(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def a_game(store: Store, channel: int, actions: int = 0) -> int:
    gid = store.create_game(1, channel, 100, "turismundo", {"lang": "es"}, 7)
    for i in range(2):
        store.add_seat(gid, 100 + i, f"P{i}")
    if actions:
        game = store.game(gid)
        state, events = engine.new_game(game.edition, [s.name for s in game.seats], game.seed, game.engine_settings())
        store.start_game(gid, state, events)
        rng = random.Random(channel)
        for _ in range(actions):
            action = choose(state, rng)
            assert action is not None
            new, events = engine.apply(state, action)
            store.apply(gid, state.version, 100 + max(action.seat, 0), action, events, new)
            state = new
    return gid


# -- the command ----------------------------------------------------------------------------------
def test_the_console_script_prints_its_version() -> None:
    script = Path(sys.executable).parent / "turista"
    assert script.is_file(), "pip install -e . installs the turista command"
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("turista 0.")
    # And which engine runs: the test suite's own.
    assert done.stdout.rstrip().endswith(f"(engine: {'compiled' if engine.COMPILED else 'sources'})"), done.stdout


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = turista(capsys, "--help")
    assert code == 0
    for name in ("run", "sandbox", "store", "status", "commands", "selftest", "simulate", "render"):
        assert f"    {name} " in out
    code, _, err = turista(capsys)
    assert code == 2 and "COMMAND" in err


@pytest.mark.parametrize(("command", "words"), [
    (["run"], "DISCORD_TOKEN"),
    (["sandbox"], "--players"),
    (["store"], "restore"),
    (["store", "restore"], "BACKUP"),
    (["status"], "--json"),
    (["commands"], "check"),
    (["commands", "sync"], "DISCORD_TOKEN"),
    (["selftest"], "--channel"),
    (["simulate"], "--games"),
    (["render", "board"], "--edition"),
])
def test_each_command_shows_its_own_parser_under_its_turista_name(
        capsys: pytest.CaptureFixture[str], command: list[str], words: str) -> None:
    code, out, _ = turista(capsys, *command, "--help")
    assert code == 0
    assert f"usage: turista {command[0]}" in out and words in out


def test_the_python_m_forms_share_the_parsers() -> None:
    for module, words in (("bot.store", "restore"), ("engine.simulate", "--games"), ("render", "summary"),
                          ("bot", "sandbox")):
        done = run("-m", module, "--help")
        assert done.returncode == 0 and f"usage: python -m {module}" in done.stdout and words in done.stdout
    done = run("-m", "bot", "store", "--help")
    assert done.returncode == 0 and "usage: python -m bot store" in done.stdout


def test_render_and_simulate_run_through_turista(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = turista(capsys, "render", "board", "--turns", "5", "--out", str(tmp_path / "b.png"))
    assert code == 0 and (tmp_path / "b.png").read_bytes().startswith(b"\x89PNG")
    code, out, _ = turista(capsys, "simulate", "--games", "1", "--max-turns", "20", "--json")
    assert code == 0 and json.loads(out)["games"] == 1


def test_the_bot_that_cannot_reach_discord_or_log_in_says_so_in_one_line(tmp_path: Path) -> None:
    """Without a network `turista run` ended in aiohttp's traceback; a refused token is a line too, with the
    status systemd does not restart on (2), where a network that may come back is 1."""
    import socket

    from fakediscord import FakeDiscord

    with socket.socket() as probe:  # a port nothing listens on: a machine cut off from Discord
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    env = {**os.environ, "DISCORD_TOKEN": "a-token", "TURISTA_DB": str(tmp_path / "t.db")}

    def bot(api: str, gateway: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "fakediscord.launch", "--api", api, "--gateway", gateway, "--",
                               "bot"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60)

    done = bot(f"http://127.0.0.1:{closed}/api/v10", f"ws://127.0.0.1:{closed}/gateway")
    last = done.stderr.splitlines()[-1]
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert last.startswith(f"Discord cannot be reached (Cannot connect to host 127.0.0.1:{closed}") and last.endswith(
        "Check this machine's network connection and DNS, then start the bot again (under systemd it starts "
        "again by itself)."), last

    async def refused() -> subprocess.CompletedProcess[str]:
        async with FakeDiscord(token="the-right-token") as fake:
            return await asyncio.to_thread(bot, fake.base_url, fake.gateway_url)

    done = asyncio.run(refused())
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.splitlines()[-1].startswith("Discord refused the token in DISCORD_TOKEN")


async def test_a_bot_stopped_while_it_connects_stops_at_once(tmp_path: Path) -> None:
    """Stopped between its commands' sync and its gateway connection (a sandbox left at once), the bot kept
    retrying the connection on its closed session every 5 s until it was killed: then `stop` kills it after its
    20 s (a code other than 0) and the log has discord.py's "Retrying"."""
    from fakediscord import FakeDiscord

    async with FakeDiscord() as fake:
        fake.add_guild("Mesa", channels=("turista",))
        env = {"DISCORD_TOKEN": "a-token", "TURISTA_DB": str(tmp_path / "t.db"), "TURISTA_LOG_LEVEL": "INFO"}
        process = await fake.launch("bot", log_path=tmp_path / "bot.log", env=env, cwd=tmp_path)
        await fake.wait_for_commands(timeout=30)
        code = await process.stop(timeout=20)
    assert code == 0, (code, process.log)
    assert "Retrying" not in process.log and "Traceback" not in process.log, process.log


# -- backup and restore ---------------------------------------------------------------------------
def test_backup_change_restore_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, backup = tmp_path / "turista.db", tmp_path / "nightly.db"
    with Store(db) as store:
        kept = a_game(store, channel=10, actions=40)
        kept_version = store.game(kept).version
    assert turista(capsys, "store", "backup", str(backup), "--db", str(db))[0] == 0
    with Store(db) as store:  # life goes on after the backup: more actions, a new game
        a_game(store, channel=11, actions=10)
    code, out, _ = turista(capsys, "store", "restore", str(backup), "--db", str(db))
    assert code == 0 and "1 game," in out and "before-restore" in out
    with Store(db, create=False) as store:
        assert store.game_ids() == [kept] and store.game(kept).version == kept_version
    with Store(tmp_path / "turista.db.before-restore", create=False) as before:
        assert len(before.game_ids()) == 2  # what the restore replaced is still at hand
    code, out, _ = turista(capsys, "store", "verify", "--db", str(db))
    assert code == 0 and "1 game verified: 1 ok, 0 mismatched" in out


def test_restore_refuses_a_bad_backup_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "turista.db"
    with Store(db) as store:
        gid = a_game(store, channel=10, actions=5)
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database" * 100)
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as other:
        other.execute("CREATE TABLE notes (text TEXT)")
    newer = tmp_path / "newer.db"
    with Store(newer) as store:
        store.db.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                         "VALUES ('turista', '9999_future', '2999-01-01')")
        store.db.conn.commit()
    with Store(db) as store:
        for bad, code in ((garbage, "db_corrupt"), (foreign, "db_not_turista"), (newer, "db_too_new"),
                          (tmp_path / "missing.db", "db_unavailable")):
            with pytest.raises(StoreError) as err:
                store.restore(bad)
            assert err.value.code == code
        assert store.game_ids() == [gid] and store.integrity() == ["ok"]


def test_store_errors_name_the_file_or_the_game_at_fault(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The live database was blamed for a bad backup, for a folder that does not exist and for a game id
    that does not: each message names what is wrong and what to do, and the live file is left alone."""
    db = tmp_path / "turista.db"
    junk = tmp_path / "junk.db"
    junk.write_text("a shopping list, not a database\n")
    code, _, err = turista(capsys, "store", "restore", str(junk), "--db", str(db))
    assert code == 2 and err.startswith(f"{junk}: this backup is damaged, or not a database at all. Nothing was "
                                        f"restored ({db} is as it was)"), err
    assert not db.exists()  # a refused backup does not even create the live database
    with Store(db) as store:
        gid = a_game(store, channel=10, actions=5)
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as other:
        other.execute("CREATE TABLE notes (text TEXT)")
    code, _, err = turista(capsys, "store", "restore", str(foreign), "--db", str(db))
    assert code == 2 and err.startswith(f"{foreign}: this file is a database, but not one of Turista's."), err
    code, _, err = turista(capsys, "store", "restore", str(tmp_path / "nightly.db"), "--db", str(db))
    assert code == 2 and err.startswith(f"{tmp_path / 'nightly.db'}: there is no backup there"), err
    with Store(db, create=False) as store:
        assert store.game_ids() == [gid] and store.integrity() == ["ok"]

    nowhere = tmp_path / "missing" / "x.db"
    code, _, err = turista(capsys, "store", "backup", str(nowhere), "--db", str(db))
    assert code == 2 and err.startswith(f"{nowhere}: there is no folder {nowhere.parent} to put the backup in."), err
    with Store(db, create=False) as store, pytest.raises(StoreError) as refused:
        store.backup(nowhere)  # the store itself blames the destination too
    assert refused.value.code == "db_unavailable" and refused.value.params["dest"] == str(nowhere)

    code, out, err = turista(capsys, "store", "export", "99", "--db", str(db))
    assert (code, out) == (2, "") and err == f"{db}: no game 99; its games are {gid}\n"
    code, _, err = turista(capsys, "store", "verify", "98", "--db", str(db))
    assert code == 2 and err == f"{db}: no game 98; its games are {gid}\n"


def test_an_export_read_in_part_ends_with_one_line(tmp_path: Path) -> None:
    """`turista store export 1 | head` printed a BrokenPipeError traceback once head had its lines."""
    db = tmp_path / "turista.db"
    with Store(db) as store:
        gid = a_game(store, channel=10, actions=400)
    script = Path(sys.executable).parent / "turista"
    shell = f"'{script}' store export {gid} --db '{db}' | head -n 1; echo status ${{PIPESTATUS[0]}} >&2"
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=60)
    assert done.stdout.startswith('{"record":"game"') and done.stdout.count("\n") == 1
    assert done.stderr == ("turista store export: the output was closed before the end (the reader stopped "
                           "reading)\nstatus 1\n"), done.stderr


def test_restore_a_backup_from_an_older_release_upgrades_it(tmp_path: Path) -> None:
    from bot.store.schema import MIGRATION_NAMES, migrations

    old = tmp_path / "old.db"
    with sqlite3.connect(old) as conn:
        from sqlite_utils import Database

        migrations.apply(Database(conn), stop_before=MIGRATION_NAMES[-1])
    with Store(tmp_path / "turista.db") as store:
        store.restore(old)
        assert store.schema_version() == MIGRATION_NAMES


# -- status ---------------------------------------------------------------------------------------
def test_status_counts_open_games_and_the_last_actions_age(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "turista.db"
    code, _, err = turista(capsys, "status", "--db", str(db))
    assert code == 2 and "no database" in err
    clock = [1_000_000.0]
    with Store(db, clock=lambda: clock[0]) as store:
        assert store.activity() == Activity(0, 0, None)
        a_game(store, channel=10)
        clock[0] += 50
        a_game(store, channel=11, actions=3)
        assert store.activity() == Activity(1, 1, 1_000_050.0)
    code, out, _ = turista(capsys, "status", "--db", str(db), "--json")
    report = json.loads(out)
    assert code == 0 and report["lobbies"] == 1 and report["playing"] == 1 and report["last_action_age"] > 0
    code, out, _ = turista(capsys, "status", "--db", str(db))
    assert code == 0 and "2 open games (1 playing, 1 in the lobby); last action" in out
    with Store(db, clock=lambda: clock[0]) as store:
        store.take_shards(2, [1], "bots.example pid 42")
    code, out, _ = turista(capsys, "status", "--db", str(db))
    assert code == 0 and "shard 1 of 2: held by bots.example pid 42, epoch 1, taken" in out
    code, out, _ = turista(capsys, "status", "--db", str(db), "--json")
    assert json.loads(out)["leases"] == [{"shard_count": 2, "shard": 1, "owner": "bots.example pid 42", "epoch": 1,
                                          "taken_at": 1_000_050.0}]


def test_the_status_line_reads_at_a_glance() -> None:
    assert status_line(Activity(0, 0, None), 0) == "0 open games (0 playing, 0 in the lobby); no action yet"
    assert status_line(Activity(0, 1, 100.0), 142.0) == "1 open game (1 playing, 0 in the lobby); last action 42 s ago"
    assert [age(s) for s in (5, 600, 4 * 3600, 5 * 86400)] == ["5 s", "10 min", "4 h", "5 days"]


def test_status_and_store_find_the_bots_database_through_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    # An admin runs the maintenance commands where the bot runs: the database named in .env, not turista.db.
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TURISTA_DB", raising=False)
    (tmp_path / ".env").write_text("TURISTA_DB=games/bot.db\n")
    (tmp_path / "games").mkdir()
    try:
        with Store(tmp_path / "games" / "bot.db") as store:
            a_game(store, channel=10, actions=2)
        code, out, _ = turista(capsys, "status", "--json")
        assert code == 0 and json.loads(out)["database"] == "games/bot.db" and json.loads(out)["playing"] == 1
        code, out, _ = turista(capsys, "store", "verify")
        assert code == 0 and not (tmp_path / "turista.db").exists()
    finally:
        os.environ.pop("TURISTA_DB", None)  # set by .env, outside monkeypatch's reach
