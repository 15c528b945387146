"""DESIGN §2: `engine` imports nothing of `render` or `bot`; `render` imports `engine` only; only `bot`
imports `discord`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"engine": {"render", "bot", "discord"}, "render": {"bot", "discord"}}


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_stay_inside_their_boundary(package: str) -> None:
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = imported_packages(path) & FORBIDDEN[package]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_engine_does_no_io_but_reading_data() -> None:
    for path in sorted((ROOT / "engine").rglob("*.py")):
        if path.name in ("simulate.py", "__main__.py"):
            continue  # command-line entry points print their results
        names = imported_packages(path)
        assert not names & {"socket", "sqlite3", "random", "time", "datetime", "urllib", "asyncio"}, path
