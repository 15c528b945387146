"""Compiled or Python modules: imported first by the package, before any module of the rules.

An install with TURISTA_COMPILE=1 (setup.py) builds the modules with mypyc and records the SHA-256 of each
source it compiled in engine/_compiled.json. Python prefers an extension to a source of the same name, so
an edited source would be shadowed by the extension built before the edit (an editable install builds them
side by side). Here the record is checked: if any source differs from it, or TURISTA_PURE=1 is set, the
engine's modules are loaded from their sources, the reference.
"""

from __future__ import annotations

import hashlib
import importlib.abc as abc
import importlib.machinery as machinery
import json
import os
import sys
import warnings
from pathlib import Path


class _SourcesFirst(abc.MetaPathFinder):
    """Finds the engine's modules among the Python sources only, passing over compiled extensions."""

    def find_spec(self, fullname, path, target=None):  # noqa: ANN001, ANN201 (importlib's protocol)
        if not fullname.startswith("engine.") or not path:
            return None
        for entry in path:
            finder = machinery.FileFinder(entry, (machinery.SourceFileLoader, machinery.SOURCE_SUFFIXES))
            spec = finder.find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def stale_compiled_modules(here: Path | None = None) -> list[str]:
    """The compiled modules of the package in `here` (this one by default) that no longer match their source:
    the source changed since the build, or the extension is not in the build's record (a module no longer
    compiled, or a build made another way)."""
    here = here or Path(__file__).resolve().parent
    root = here.parent
    suffixes = tuple(machinery.EXTENSION_SUFFIXES)
    extensions = [p for p in here.rglob("*") if p.name.endswith(suffixes)]
    if not extensions:
        return []
    try:
        built = json.loads((here / "_compiled.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        built = {}
    stale = []
    for extension in extensions:
        source = extension.with_name(extension.name.split(".")[0] + ".py").relative_to(root).as_posix()
        if source not in built:
            stale.append(source)
    for path, digest in built.items():
        source = root / path
        if not source.is_file() or hashlib.sha256(source.read_bytes()).hexdigest() != digest:
            stale.append(path)
    return sorted(set(stale))


def _choose_modules() -> None:
    if os.environ.get("TURISTA_PURE") == "1":
        sys.meta_path.insert(0, _SourcesFirst())
        return
    stale = stale_compiled_modules()
    if stale:
        sys.meta_path.insert(0, _SourcesFirst())
        warnings.warn(
            f"the compiled engine does not match its sources ({', '.join(stale[:3])}…): the Python sources run. "
            'Rebuild it (`TURISTA_COMPILE=1 pip install -e ".[dev]"`) or remove it (`git clean -fX engine`).',
            stacklevel=2,
        )


_choose_modules()


def compiled() -> bool:
    """Whether the rules run compiled."""
    import engine.rules

    return not (engine.rules.__file__ or "").endswith(".py")
