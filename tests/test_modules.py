"""A compiled build is told from the sources (engine/compiled.py): an extension built before an edit of its
source, or one the build did not record, is found stale."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import shutil
from pathlib import Path

import engine
from engine.compiled import describe, stale_modules

ENGINE = Path(engine.__file__).resolve().parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _package(tmp_path: Path) -> Path:
    """A copy of the engine's Python sources (no extension) in tmp_path/engine."""
    skip = shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "*.json")
    shutil.copytree(ENGINE, tmp_path / "engine", ignore=skip)
    return tmp_path / "engine"


def _record(package: Path, *modules: str) -> None:
    root = package.parent
    digests = {m: hashlib.sha256((root / m).read_bytes()).hexdigest() for m in modules}
    (package / "_compiled.json").write_text(json.dumps(digests), encoding="utf-8")


def test_sources_alone_are_never_stale(tmp_path: Path) -> None:
    assert stale_modules(_package(tmp_path)) == []


def test_an_extension_matching_its_recorded_source_is_used(tmp_path: Path) -> None:
    package = _package(tmp_path)
    (package / f"board{SUFFIX}").write_bytes(b"built")
    (package / "ai" / f"money{SUFFIX}").write_bytes(b"built")
    _record(package, "engine/board.py", "engine/ai/money.py")
    assert stale_modules(package) == []


def test_an_edited_source_or_an_unrecorded_extension_is_stale(tmp_path: Path) -> None:
    package = _package(tmp_path)
    (package / f"board{SUFFIX}").write_bytes(b"built")
    (package / f"rules{SUFFIX}").write_bytes(b"built")
    (package / "ai" / f"money{SUFFIX}").write_bytes(b"built")
    _record(package, "engine/board.py", "engine/ai/money.py")
    assert stale_modules(package) == ["engine/rules.py"]
    with (package / "board.py").open("a", encoding="utf-8") as f:
        f.write("# edited after the build\n")
    assert stale_modules(package) == ["engine/board.py", "engine/rules.py"]


def test_the_engine_under_test_matches_its_sources() -> None:
    """A compiled build is found stale by this test (and by `turista --version`), never at import: rebuild it
    (`TURISTA_COMPILE=1 pip install -e ".[dev]"`) or remove it (`git clean -fX engine`)."""
    assert stale_modules() == []
    assert describe() == ("compiled" if engine.COMPILED else "sources")
