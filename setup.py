"""setuptools reads the project from pyproject.toml; this file only adds the compiled engine.

The engine's rules, legality, computer players and simulator compile to C extensions with mypyc (2.5 to 3
times the speed of the sources). Whether they do is decided by the build backend (.build/backend.py, which
reads TURISTA_COMPILE) and reaches this file as TURISTA_COMPILE_PLAN: "required" (compile or fail), "try"
(compile, or install the sources if compiling fails: what `pip install .` does where a C compiler is found),
"no". Run directly (`python setup.py build_ext --inplace`), TURISTA_COMPILE=1 means "required". The build
records what it compiled (engine/_compiled.json), for `engine.compiled` to tell when a source changed since.
See docs/engine.md ("The compiled build").
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Left as Python: the package's __init__ and `compiled` (which tells a build from the sources), the msgspec
# structs of the state, actions, events and editions (mypyc cannot compile classes built by msgspec's
# metaclass), and every module run with `python -m` (runpy needs its code object).
PURE = {"__init__.py", "compiled.py", "actions.py", "events.py", "state.py", "edition.py"}
MANIFEST = "_compiled.json"  # engine.compiled.MANIFEST (setup.py runs before the engine can be imported)


def compiled_sources() -> list[str]:
    engine = Path("engine")
    return sorted(
        p.as_posix() for p in engine.rglob("*.py")
        if not (p.parent == engine and p.name in PURE) and 'if __name__ == "__main__":' not in p.read_text("utf-8")
    )  # fmt: skip


def source_digests(sources: list[str]) -> dict[str, str]:
    return {path: hashlib.sha256(Path(path).read_bytes()).hexdigest() for path in sources}


def plan() -> str:
    return os.environ.get("TURISTA_COMPILE_PLAN") or ("required" if os.environ.get("TURISTA_COMPILE") == "1" else "no")


def warn_sources(error: Exception) -> None:
    print(f"warning: the engine could not be compiled ({type(error).__name__}: {error}); it is installed as its "
          "Python sources, which play the same games more slowly", file=sys.stderr)


def extensions() -> list[Extension]:
    """The engine's modules as C extensions, as mypyc makes them (it type-checks them and writes their C)."""
    if plan() == "no":
        return []
    try:
        from mypyc.build import mypycify

        modules = mypycify(compiled_sources(), opt_level="3", group_name="engine")
    except Exception as error:  # mypy missing, or refusing the code
        if plan() != "try":
            raise
        warn_sources(error)
        return []
    if os.name != "nt":
        # engine.rng counts on 64-bit words wrapping modulo 2⁶⁴: defined behaviour in C only with -fwrapv.
        for module in modules:
            module.extra_compile_args = [*(module.extra_compile_args or []), "-fwrapv"]
    return modules


class BuildEngine(build_ext):
    """Writes engine/_compiled.json beside the extensions: each compiled module and the SHA-256 of its source.
    With the plan "try", a compiler that fails leaves the sources to run, with a warning."""

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
        try:
            super().run()
        except Exception as error:  # no compiler after all, Python's headers missing, a compiler error...
            if plan() != "try":
                raise
            for path in [*target.rglob("*"), *target.parent.glob("engine__mypyc*")]:
                if path.name.endswith(tuple(EXTENSION_SUFFIXES)):
                    path.unlink()
            warn_sources(error)
            return
        target.mkdir(parents=True, exist_ok=True)
        (target / MANIFEST).write_text(json.dumps(source_digests(sources), indent=1) + "\n", encoding="utf-8")


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildEngine})
