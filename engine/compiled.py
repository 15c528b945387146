"""Whether the engine runs compiled, and whether a compiled build still matches the sources beside it.

An install that compiles the engine (see setup.py) builds its modules with mypyc and records, in
engine/_compiled.json, each source it compiled and that source's SHA-256. Python prefers an extension to a
source of the same name, so a source edited after an editable build is shadowed by the extension built
before the edit: `stale_modules` finds those, for `turista --version`, the bot's start and
tests/test_modules.py. Nothing here runs when the engine is imported.
"""

from __future__ import annotations

import hashlib
import json
from importlib import machinery
from pathlib import Path

# The build's record, beside the package's modules (written by setup.py).
MANIFEST = "_compiled.json"


def runs_compiled() -> bool:
    """Whether the rules run compiled."""
    import engine.rules

    return not (engine.rules.__file__ or "").endswith(".py")


def stale_modules(here: Path | None = None) -> list[str]:
    """The compiled modules of the package in `here` (this one by default) that no longer match their source:
    the source changed since the build, or the extension is not in the build's record (a module no longer
    compiled, or a build made another way). Empty for a package of sources alone."""
    here = here or Path(__file__).resolve().parent
    root = here.parent
    extensions = [p for p in here.rglob("*") if p.name.endswith(tuple(machinery.EXTENSION_SUFFIXES))]
    if not extensions:
        return []
    try:
        built = json.loads((here / MANIFEST).read_text(encoding="utf-8"))
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


def describe() -> str:
    """Which engine runs, in a few words: "compiled", "sources", or a compiled build its sources no longer match."""
    if not runs_compiled():
        return "sources"
    stale = stale_modules()
    if stale:
        return f"compiled, but built before edits to {', '.join(stale[:3])}{'…' if len(stale) > 3 else ''}: rebuild it"
    return "compiled"
