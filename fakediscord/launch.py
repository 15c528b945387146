"""Run a Python module against a fake Discord, unchanged:

    python -m fakediscord.launch --api http://127.0.0.1:PORT/api/v10 \\
        --gateway ws://127.0.0.1:PORT/gateway -- bot [args...]

It patches discord.py (see :func:`point_discord_py_at`) and then runs the module with ``runpy`` as
``__main__``, so ``sys.argv`` and ``if __name__ == "__main__"`` behave as with ``python -m``.
"""

from __future__ import annotations

import argparse
import runpy
import sys

from .client_patch import point_discord_py_at


def main(argv: list[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="python -m fakediscord.launch",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--api", required=True, help="REST base URL, e.g. http://127.0.0.1:PORT/api/v10")
    parser.add_argument("--gateway", required=True, help="gateway URL, e.g. ws://127.0.0.1:PORT/gateway")
    parser.add_argument("module", help="the module to run, as with python -m")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the module")
    # argparse would otherwise treat the module's own options as ours; "--" separates them.
    if "--" in argv:
        split = argv.index("--")
        ours, rest = argv[:split], argv[split + 1 :]
        if not rest:
            parser.error("a module is required after --")
        options = parser.parse_args([*ours, rest[0]])
        module, module_args = rest[0], rest[1:]
    else:
        options = parser.parse_args(argv)
        module, module_args = options.module, options.args
    point_discord_py_at(options.api, options.gateway)
    sys.argv = [module, *module_args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
