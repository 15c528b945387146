"""What checking request bodies against Discord's OpenAPI spec costs the fake Discord: runs end-to-end tests
(pytest, in this process) and adds up what every fake they start measured (`fake.validation.checked`).

    python bench/spec_check.py [pytest arguments, default: tests/e2e/test_full_game.py]

Prints one JSON line: {"fakes", "bodies", "refused", "seconds", "per_request_ms", "cpu_per_request_ms",
"pytest_exit"}. "cpu_per_request_ms" is CPU time of the fake's thread (the machine is shared: the clock time
is inflated by the bot and the other work on it); "refused" should be 0, or a test failed. The spec's loading
(about a second, once a process) is not counted.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pytest  # noqa: E402

import fakediscord.server  # noqa: E402
from fakediscord.validation import BodyValidation  # noqa: E402


class Tally:
    """A pytest plugin that keeps every fake's `BodyValidation`."""

    def __init__(self) -> None:
        self.checks: list[BodyValidation] = []
        original = fakediscord.server.BodyValidation

        def kept(*args: Any, **kwargs: Any) -> BodyValidation:
            check = original(*args, **kwargs)
            self.checks.append(check)
            return check

        fakediscord.server.BodyValidation = kept

    def figures(self) -> dict[str, Any]:
        bodies = sum(c.checked.bodies for c in self.checks)
        seconds = sum(c.checked.seconds for c in self.checks)
        cpu = sum(c.checked.cpu_seconds for c in self.checks)
        return {"fakes": len(self.checks), "bodies": bodies, "refused": sum(c.checked.refused for c in self.checks),
                "seconds": round(seconds, 3), "per_request_ms": round(1000 * seconds / max(bodies, 1), 3),
                "cpu_per_request_ms": round(1000 * cpu / max(bodies, 1), 3)}


def main() -> None:
    tally = Tally()
    code = pytest.main(["-q", "-p", "no:cacheprovider", *(sys.argv[1:] or ["tests/e2e/test_full_game.py"])],
                       plugins=[tally])
    print(json.dumps({**tally.figures(), "pytest_exit": int(code)}))


if __name__ == "__main__":
    main()
