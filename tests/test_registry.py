"""Every component's verb is declared once, with the shape of its argument: whatever a custom_id carries that the
declaration does not allow is refused before any handler runs."""

from __future__ import annotations

import pytest

from bot.handlers import router  # noqa: F401  (imports every handler module, which declare their verbs)
from bot.handlers.registry import VERBS, Invalid, verb

GARBAGE = ("²", "-1", "9" * 5000, "x" * 40, " 1")


def test_every_verb_refuses_an_argument_it_does_not_declare() -> None:
    assert len(VERBS) > 30
    for declared in VERBS.values():
        if declared.arg is None:
            assert declared.argument("") is None
            with pytest.raises(Invalid):
                declared.argument("1")
            continue
        if not declared.arg.optional:
            with pytest.raises(Invalid):
                declared.argument("")
        for raw in GARBAGE:
            with pytest.raises(Invalid):
                declared.argument(raw)


def test_a_verb_declared_twice_is_an_error_at_import() -> None:
    name = next(iter(VERBS))
    with pytest.raises(ValueError, match="declared twice"):
        verb(name)(VERBS[name].handler)
