"""The build backend: setuptools' own, needing mypy as well when the engine is compiled (TURISTA_COMPILE=1,
see setup.py), so that a normal install downloads nothing it does not use; and it refuses an older Python at
once."""

from __future__ import annotations

import os
import sys

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


def _requires(hook, config_settings) -> list[str]:  # noqa: ANN001
    # setuptools runs setup.py to list what the build needs, before mypy is installed: setup.py is told not to
    # compile yet.
    os.environ["TURISTA_LISTING_REQUIRES"] = "1"
    try:
        needed = hook(config_settings)
    finally:
        del os.environ["TURISTA_LISTING_REQUIRES"]
    return needed + (COMPILER if os.environ.get("TURISTA_COMPILE") == "1" else [])


def get_requires_for_build_wheel(config_settings=None):  # noqa: ANN001, ANN201 (PEP 517 hook)
    return _requires(build_meta.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings=None):  # noqa: ANN001, ANN201
    return _requires(build_meta.get_requires_for_build_editable, config_settings)
