"""setuptools reads the project from pyproject.toml; this file only adds the compiled engine.

With TURISTA_COMPILE=1 in the environment of `pip install`, the engine's rules, legality, computer players
and simulator are compiled to C extensions by mypyc (about 2.5 times the speed). Without it, the default,
the engine is the pure-Python reference and the package has no compiled parts. See docs/simulator.md ("The
compiled engine"): an editable install builds the extensions next to the sources, and records what it compiled
(engine/_compiled.json) for `engine.compiled` to tell when a source changed since.
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

# Left as Python: the package's __init__ and `compiled` (which tells a build from the sources), the msgspec
# structs of the state, actions, events and editions (mypyc cannot compile classes built by msgspec's metaclass), i18n
# (subclasses of str and int), narrate (text for people, off the simulator's path), and every module run with
# `python -m` (runpy needs its code object).
PURE = {"__init__.py", "compiled.py", "actions.py", "events.py", "state.py", "edition.py", "i18n.py", "narrate.py"}
MANIFEST = "_compiled.json"  # engine.compiled.MANIFEST (setup.py runs before the engine can be imported)


def compiled_sources() -> list[str]:
    engine = Path("engine")
    return sorted(
        p.as_posix() for p in engine.rglob("*.py")
        if not (p.parent == engine and p.name in PURE) and 'if __name__ == "__main__":' not in p.read_text("utf-8")
    )  # fmt: skip


def source_digests(sources: list[str]) -> dict[str, str]:
    return {path: hashlib.sha256(Path(path).read_bytes()).hexdigest() for path in sources}


class BuildExtWithManifest(build_ext):
    """Writes engine/_compiled.json beside the extensions: each compiled module and the SHA-256 of its source."""

    def run(self) -> None:
        if not self.extensions:
            return
        sources = compiled_sources()
        # The directory the `engine` package's extensions go to: the sources (editable) or the build tree.
        target = Path(self.get_ext_fullpath("engine.rules")).parent
        # An editable build left beside the sources the extensions of modules compiled before and not now.
        compiled = {Path(path).with_suffix("") for path in sources}
        for old in target.rglob("*"):
            if old.name.endswith(tuple(EXTENSION_SUFFIXES)) and Path("engine", old.relative_to(target)).parent / (
                old.name.split(".")[0]
            ) not in compiled:
                old.unlink()
        super().run()
        target.mkdir(parents=True, exist_ok=True)
        (target / MANIFEST).write_text(json.dumps(source_digests(sources), indent=1) + "\n", encoding="utf-8")


def extensions() -> list:
    if os.environ.get("TURISTA_COMPILE") != "1" or os.environ.get("TURISTA_LISTING_REQUIRES") == "1":
        return []
    from mypyc.build import mypycify

    modules = mypycify(compiled_sources(), opt_level="3", group_name="engine")
    if os.name != "nt":
        # engine.rng counts on 64-bit words wrapping modulo 2⁶⁴: defined behaviour in C only with -fwrapv.
        for module in modules:
            module.extra_compile_args = [*(module.extra_compile_args or []), "-fwrapv"]
    return modules


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExtWithManifest})
