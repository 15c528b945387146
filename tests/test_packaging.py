"""The wheel carries every package and data file of the repository (the listed packages cannot drift from
the folders), and the game finds its data through the installed package, not the working directory.

.ci/run builds the real wheel, installs it in a fresh environment and plays from another folder."""

from __future__ import annotations

import fnmatch
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from engine.edition import DATA_DIR

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
CODE = ("engine", "words", "render", "bot", "fakediscord")
DEV_ONLY = ("devkit", "tests", "bench")  # what the tests and the benchmarks share stays out of the wheel


def test_every_package_of_the_repository_is_listed() -> None:
    code = {".".join(init.parent.relative_to(ROOT).parts) for top in CODE for init in (ROOT / top).rglob("__init__.py")}
    # Every folder of data/ is listed too (as a package without code), so setuptools ships its files.
    data = {
        ".".join(("turista_data", *folder.relative_to(ROOT / "data").parts))
        for folder in [ROOT / "data", *(ROOT / "data").rglob("*")]
        if folder.is_dir() and folder.name != "__pycache__"
    }
    listed = set(SETUPTOOLS["packages"])
    assert code | data == listed, (sorted((code | data) - listed), sorted(listed - code - data))
    assert SETUPTOOLS["package-dir"] == {"turista_data": "data"}


def test_the_wheel_carries_nothing_of_the_tests_and_benchmarks_and_the_game_needs_none_of_it() -> None:
    listed = set(SETUPTOOLS["packages"])
    assert not {name for name in listed if name.split(".")[0] in DEV_ONLY}, listed
    for top in CODE:
        for path in (ROOT / top).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert not any(f"import {dev}" in text or f"from {dev}" in text for dev in DEV_ONLY), path


def test_every_data_file_matches_a_package_data_pattern() -> None:
    patterns = SETUPTOOLS["package-data"]["*"]
    files = [p for p in (ROOT / "data").rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert len(files) > 15
    left_out = [
        str(p.relative_to(ROOT)) for p in files
        if p.suffix != ".py" and not any(fnmatch.fnmatch(p.name, pattern) for pattern in patterns)
    ]
    assert not left_out, f"add a pattern for these to [tool.setuptools.package-data]: {left_out}"


def test_data_is_found_through_the_package_from_any_folder(tmp_path: Path) -> None:
    assert (ROOT / "data").resolve() == DATA_DIR  # an editable install maps turista_data to data/
    probe = "from engine import available; from words import GAME; print(available(), len(GAME.texts('en')))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "['monopolio', 'mundial', 'turismundo']" in done.stdout


def test_the_build_backend_refuses_an_older_python_at_once() -> None:
    """pip 23.0 (a Python 3.10 virtual environment's) resolved for a quarter of an hour before it refused:
    the backend, which pip runs first, stops on an older Python with one sentence."""
    sys.path.insert(0, str(ROOT / ".build"))
    try:
        import backend
    finally:
        sys.path.remove(str(ROOT / ".build"))
    assert PYPROJECT["project"]["requires-python"] == ">=" + ".".join(map(str, backend.MINIMUM_PYTHON))
    backend.refuse_older_python((3, 11, 0))
    backend.refuse_older_python(tuple(sys.version_info))
    with pytest.raises(SystemExit) as refused:
        backend.refuse_older_python((3, 10, 13, "final", 0))
    assert str(refused.value).startswith("Turista needs Python 3.11 or newer, and this is Python 3.10.13 (")
    assert "python3.11 -m venv .venv" in str(refused.value)


def _backend():  # noqa: ANN202 (the build backend, loaded from its file as pip loads it)
    import importlib.util

    spec = importlib.util.spec_from_file_location("turista_backend", ROOT / ".build" / "backend.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_server_install_compiles_the_engine_where_it_can_and_a_developer_install_only_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    backend = _backend()
    monkeypatch.delenv("TURISTA_COMPILE", raising=False)
    for compiler in (True, False):
        monkeypatch.setattr(backend, "can_compile", lambda compiler=compiler: compiler)
        assert backend.plan(editable=False) == ("try" if compiler else "no")  # pip install .
        assert backend.plan(editable=True) == "no"  # pip install -e .
        monkeypatch.setenv("TURISTA_COMPILE", "1")
        assert backend.plan(editable=False) == backend.plan(editable=True) == "required"
        monkeypatch.setenv("TURISTA_COMPILE", "0")
        assert backend.plan(editable=False) == backend.plan(editable=True) == "no"
        monkeypatch.delenv("TURISTA_COMPILE")
    # Only a build that compiles fetches the compiler.
    listed = backend._requires(lambda settings: ["setuptools"], False, None)
    assert listed == ["setuptools", *(backend.COMPILER if backend.plan(False) != "no" else [])]

