"""The compiled engine is used only while it matches its sources (engine/_modules.py): an extension built
before an edit, or one the build did not record, must never shadow the source."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import engine
from engine._modules import stale_compiled_modules

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
    assert stale_compiled_modules(_package(tmp_path)) == []


def test_an_extension_matching_its_recorded_source_is_used(tmp_path: Path) -> None:
    package = _package(tmp_path)
    (package / f"board{SUFFIX}").write_bytes(b"built")
    (package / "ai" / f"money{SUFFIX}").write_bytes(b"built")
    _record(package, "engine/board.py", "engine/ai/money.py")
    assert stale_compiled_modules(package) == []


def test_an_edited_source_or_an_unrecorded_extension_is_stale(tmp_path: Path) -> None:
    package = _package(tmp_path)
    (package / f"board{SUFFIX}").write_bytes(b"built")
    (package / f"rules{SUFFIX}").write_bytes(b"built")
    (package / "ai" / f"money{SUFFIX}").write_bytes(b"built")
    _record(package, "engine/board.py", "engine/ai/money.py")
    assert stale_compiled_modules(package) == ["engine/rules.py"]
    with (package / "board.py").open("a", encoding="utf-8") as f:
        f.write("# edited after the build\n")
    assert stale_compiled_modules(package) == ["engine/board.py", "engine/rules.py"]


def test_a_stale_extension_is_passed_over_for_the_source(tmp_path: Path) -> None:
    # Not even a shared library: loading it would fail, so a successful game proves the source ran.
    package = _package(tmp_path)
    (package / f"board{SUFFIX}").write_bytes(b"not a shared library")
    probe = (
        "import warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    import engine, engine.board\n"
        "print('warned:', *[str(w.message) for w in caught])\n"
        "from engine.simulate import Options, run\n"
        "print(engine.__file__, engine.board.__file__, engine.COMPILED, run(Options(games=1, seed=1))['games'])\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TURISTA_PURE"}
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "warned: the compiled engine does not match its sources (engine/board.py" in done.stdout
    assert f"{package / '__init__.py'} {package / 'board.py'} False 1" in done.stdout
