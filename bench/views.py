"""CPU time of a table's buttons (`bot.face.buttons.table_view`) over every position of sample games.

    python bench/buttons.py [--runs 5]

Prints one JSON line: the mean CPU time per position of `table_view` with the JSON it sends
(`as_discord_py_views_ms`: the same buttons made and sent as discord.py's `ui.Button`s in a `ui.View`, as
the table's buttons were before), and of what it needs to know about every seat (the kinds of action each
may send): listed through `engine.legal_actions` (every title's every action) or found through
`engine.legal_kinds` (one accepted action per kind); each the median of `--runs`
passes over the positions of three games, one per edition. The two ways are timed pass by pass in turn, and
`legal_kinds_share` is the ratio of their medians: on a shared machine the absolute times move with its load,
the ratio much less. `kinds_as_the_table_asks` is what `table_view` does: the seat to act in full, the other
seats only about the kinds nobody was found to have yet.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord  # noqa: E402

from bot.face import buttons, components, ids  # noqa: E402
from engine import State, apply_inplace, clone, legal_actions, legal_kinds  # noqa: E402
from render.sample import play, simple_choice  # noqa: E402

EDITIONS = ("turismundo", "mundial", "monopolio")


def positions(seed: int = 5) -> list[State]:
    found = []
    for edition in EDITIONS:
        first, steps = play(edition, seed=seed, turns=10_000, choose=simple_choice)
        st = clone(first)
        for action, _ in steps:
            apply_inplace(st, action)
            if st.phase != "over":
                found.append(clone(st))
    return found


def per_position_ms(states: list[State], works: list[Callable[[State], object]], runs: int) -> list[float]:
    """The median CPU time per position of each of `works`, their passes taken in turn."""
    passes: list[list[float]] = [[] for _ in works]
    for _ in range(runs):
        for k, work in enumerate(works):
            start = time.process_time()
            for st in states:
                work(st)
            passes[k].append(1000 * (time.process_time() - start) / len(states))
    return [statistics.median(p) for p in passes]


def discord_py_button(button: dict[str, Any]) -> discord.ui.Button:
    """A button of `components.Rows` made as `components.button` makes one."""
    cid = ids.parse(button["custom_id"])
    assert cid is not None
    return components.button(cid.game, cid.version, cid.verb, button["label"], arg=cid.arg, row=button["row"],
                     style=discord.ButtonStyle(button["style"]), emoji=(button.get("emoji") or {}).get("name"),
                     disabled=button["disabled"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    states = positions()

    def every_action(st: State) -> object:
        return {s: {a.kind for a in legal_actions(st, s)} for s in range(len(st.seats))}

    def kinds(st: State) -> object:
        return {s: legal_kinds(st, s) for s in range(len(st.seats))}

    def as_the_table_asks(st: State) -> object:
        # The seat to act in full; the others only about the kinds not found yet.
        return buttons._kinds_of_anyone(st, legal_kinds(st, st.current))

    def as_sent(st: State) -> object:
        rows = buttons.table_view(1, st, "es")
        return rows and rows.to_components()

    def as_discord_py_views(st: State) -> object:
        # The same buttons made as discord.py's `ui.Button`s in a `ui.View`, then sent.
        rows = buttons.table_view(1, st, "es")
        return rows and components.view(*(discord_py_button(b) for b in rows.buttons)).to_components()

    table, as_views, listed, found, asked = per_position_ms(
        states, [as_sent, as_discord_py_views, every_action, kinds, as_the_table_asks], args.runs)
    print(json.dumps({
        "positions": len(states),
        "table_view_ms": round(table, 4),
        "as_discord_py_views_ms": round(as_views, 4),
        "kinds_through_legal_actions_ms": round(listed, 4),
        "kinds_through_legal_kinds_ms": round(found, 4),
        "legal_kinds_share": round(found / listed, 2),
        "kinds_as_the_table_asks_ms": round(asked, 4),
        "as_the_table_asks_share": round(asked / listed, 2),
    }))


if __name__ == "__main__":
    main()
