"""The build backend: setuptools' own, deciding first whether the engine is compiled (setup.py does it).

TURISTA_COMPILE in the environment of the build:

- unset: a wheel, what `pip install .` builds to install on a server, is compiled when this machine has a C
  compiler and Python's headers, and holds the Python sources otherwise, or when compiling fails; an
  editable install (`pip install -e`) is not compiled, since the extensions would shadow a developer's
  later edits of the sources;
- "1": compiled, editable installs too, and the build fails if it cannot compile;
- "0": never compiled (CI's release check builds the wheel it publishes, for any machine, this way).

Only a build that compiles asks for mypy, the compiler, so that other installs download nothing they do not
use. The decision reaches setup.py as TURISTA_COMPILE_PLAN ("required", "try" or "no") when the wheel is
built, not when its metadata is read (which would type-check and translate the engine for nothing).

It also refuses an older Python at once (`refuse_older_python`).
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

# The project's requires-python (pyproject.toml; tests/test_packaging.py keeps the two the same).
MINIMUM_PYTHON = (3, 11)


def refuse_older_python(version: tuple[int, ...] = tuple(sys.version_info)) -> None:
    """Stop the install with one sentence on a Python older than MINIMUM_PYTHON.

    pip 26 refuses this folder's requires-python as soon as it has read the metadata, but pip 23.0, the one a
    Python 3.10 virtual environment comes with, says so only once it has tried every release of every
    dependency without finding a set that fits: a quarter of an hour. Every pip runs the backend first, with
    the Python it installs for, so the refusal here comes before any of that."""
    if tuple(version[:2]) < MINIMUM_PYTHON:
        needed = ".".join(map(str, MINIMUM_PYTHON))
        raise SystemExit(
            f"Turista needs Python {needed} or newer, and this is Python {'.'.join(map(str, version[:3]))} "
            f"({sys.executable}). Make the virtual environment with a newer one, e.g. python{needed} -m venv .venv"
        )


refuse_older_python()

from setuptools import build_meta  # noqa: E402 (after the check: an old Python needs no setuptools)
from setuptools.build_meta import *  # noqa: E402, F403 (the other hooks are setuptools')

# mypy compiles; it reads msgspec's types to compile the code that uses the state (installed only later, with
# the project's own dependencies).
COMPILER = ["mypy>=1.10", "msgspec>=0.18.5"]
PLAN = "TURISTA_COMPILE_PLAN"


def can_compile() -> bool:
    """Whether this machine has what building a C extension takes: the compiler Python was built with (or
    any `cc`) and Python's headers."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    headers = Path(sysconfig.get_paths()["include"], "Python.h")
    return bool(cc) and (shutil.which(cc[0]) is not None or shutil.which("cc") is not None) and headers.is_file()


def plan(editable: bool) -> str:
    """"required", "try" or "no": how the build treats compiling the engine."""
    wanted = os.environ.get("TURISTA_COMPILE", "")
    if wanted == "1":
        return "required"
    if wanted == "0" or editable:
        return "no"
    return "try" if can_compile() else "no"


def _planned(decided: str, hook, *args):  # noqa: ANN001, ANN002, ANN202
    previous = os.environ.get(PLAN)
    os.environ[PLAN] = decided
    try:
        return hook(*args)
    finally:
        if previous is None:
            del os.environ[PLAN]
        else:
            os.environ[PLAN] = previous


def _requires(hook, editable: bool, config_settings) -> list[str]:  # noqa: ANN001
    # setuptools runs setup.py to list what the build needs, before mypy is there: nothing is compiled then.
    return _planned("no", hook, config_settings) + (COMPILER if plan(editable) != "no" else [])


def get_requires_for_build_wheel(config_settings=None):  # noqa: ANN001, ANN201 (PEP 517 hook)
    return _requires(build_meta.get_requires_for_build_wheel, False, config_settings)


def get_requires_for_build_editable(config_settings=None):  # noqa: ANN001, ANN201
    return _requires(build_meta.get_requires_for_build_editable, True, config_settings)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):  # noqa: ANN001, ANN201
    return _planned("no", build_meta.prepare_metadata_for_build_wheel, metadata_directory, config_settings)


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):  # noqa: ANN001, ANN201
    return _planned("no", build_meta.prepare_metadata_for_build_editable, metadata_directory, config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):  # noqa: ANN001, ANN201
    return _planned(plan(False), build_meta.build_wheel, wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):  # noqa: ANN001, ANN201
    return _planned(plan(True), build_meta.build_editable, wheel_directory, config_settings, metadata_directory)
