"""deploy/: the systemd units are valid (`systemd-analyze verify`, where systemd is installed), say what a
server needs (restart on failure, the .env, a graceful stop, the state directory), and the backup line
they run works."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.registration import REFUSED_EXIT
from bot.store import Store

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
UNITS = ("turista.service", "turista-backup.service", "turista-backup.timer")
INSTALL = "/opt/turista"
TURISTA = Path(sys.executable).parent / "turista"


def unit(name: str) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((DEPLOY / name).read_text(encoding="utf-8"))
    return parser


def test_the_bot_unit_restarts_reads_the_env_stops_gracefully_and_keeps_state() -> None:
    service = unit("turista.service")["Service"]
    assert service["ExecStart"] == f"{INSTALL}/venv/bin/turista run"
    assert service["Restart"] == "on-failure"
    # A configuration mistake (2) and a registration Discord refused with no command left (3): a restart
    # would fail the same way, each time spending Discord's login or registration limits.
    assert set(service["RestartPreventExitStatus"].split()) == {"2", str(REFUSED_EXIT)}
    assert service["EnvironmentFile"] == f"{INSTALL}/.env"
    assert service["KillSignal"] == "SIGTERM"  # bot.run turns it into a graceful close
    assert int(service["TimeoutStopSec"]) > 5  # Sessions.close waits up to 5 s for the actions in progress
    assert service["StateDirectory"] == "turista" and service["WorkingDirectory"] == "%S/turista"
    assert service["CacheDirectory"] == "turista"  # the pictures' palettes, kept between restarts


def test_the_backup_runs_every_night_with_the_store_command() -> None:
    service = unit("turista-backup.service")["Service"]
    assert service["Type"] == "oneshot"
    assert service["ExecStart"].startswith(f"{INSTALL}/venv/bin/turista store backup ")
    assert service["WorkingDirectory"] == "%S/turista" and service["EnvironmentFile"] == f"{INSTALL}/.env"
    timer = unit("turista-backup.timer")["Timer"]
    assert timer["OnCalendar"] and timer["Persistent"] in ("yes", "true")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_accepts_the_units(tmp_path: Path) -> None:
    # systemd checks that ExecStart exists: point the units at this environment's turista command.
    (tmp_path / "install" / "venv" / "bin").mkdir(parents=True)
    (tmp_path / "install" / "venv" / "bin" / "turista").symlink_to(TURISTA)
    (tmp_path / "install" / ".env").write_text("DISCORD_TOKEN=x\n")
    for name in UNITS:
        text = (DEPLOY / name).read_text(encoding="utf-8").replace(INSTALL, str(tmp_path / "install"))
        (tmp_path / name).write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", *(f"./{name}" for name in UNITS)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    # verify exits 0 on unknown keys or bad values and only prints them: any output is a mistake.
    assert done.returncode == 0 and not done.stdout.strip() and not done.stderr.strip(), done.stderr


def test_the_backup_line_of_the_unit_makes_a_sound_dated_copy(tmp_path: Path) -> None:
    """What the timer runs, run as it is written, in a state directory."""
    with Store(tmp_path / "turista.db") as store:
        store.create_game(1, 10, 100, "turismundo", {}, 7)
    line = unit("turista-backup.service")["Service"]["ExecStart"].split()[1:]
    done = subprocess.run([str(TURISTA), *line], cwd=tmp_path, env={**os.environ, "TURISTA_DB": "turista.db"},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    (copy,) = (tmp_path / "backups").iterdir()
    assert copy.name.startswith("turista-20") and copy.suffix == ".db"
    with Store(copy, create=False) as backup:
        assert backup.integrity() == ["ok"] and len(backup.game_ids()) == 1


def test_backup_keep_removes_only_the_oldest_backups(tmp_path: Path) -> None:
    with Store(tmp_path / "turista.db") as store:
        store.create_game(1, 10, 100, "turismundo", {}, 7)
    backups = tmp_path / "backups"
    backups.mkdir()
    older = [backups / f"turista-2000010{i}-000000.db" for i in range(1, 4)]
    for path in older:
        path.write_bytes(b"an older backup")
    (backups / "notes.txt").write_text("not a backup")
    done = subprocess.run([str(TURISTA), "store", "backup", "--keep", "2", "--db", "turista.db", "backups/"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    left = sorted(p.name for p in backups.iterdir())
    new = [name for name in left if name.startswith("turista-") and name[8:12] != "2000"]
    assert left == sorted([older[-1].name, *new, "notes.txt"]) and len(new) == 1
    assert not list(backups.glob("*.partial"))
    done = subprocess.run([str(TURISTA), "store", "backup", "--keep", "2", "--db", "turista.db", "one.db"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "folder" in done.stderr
