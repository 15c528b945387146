"""The build backend: setuptools' own, needing mypy as well when the engine is compiled (TURISTA_COMPILE=1,
see setup.py), so that a normal install downloads nothing it does not use."""

from __future__ import annotations

import os

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 (the other hooks are setuptools')

# mypy compiles; it reads msgspec's types to compile the code that uses the state (installed only later, with
# the project's own dependencies).
COMPILER = ["mypy>=1.10", "msgspec>=0.18"]


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
