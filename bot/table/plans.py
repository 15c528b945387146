"""Moves planned ahead for a person: whole blocks built evenly up to a level in one pick, each plan tried on the
engine so that only what it accepts is offered."""

from __future__ import annotations

from engine import HOTEL, Action, State, edition_of, legal_actions, refusal, rules_in_force
from engine import apply as engine_apply


def even_builds(state: State, seat: int) -> list[tuple[str, int, list[Action], int]]:
    """Whole blocks `seat` can bring up to the same level now, two buildings or more at once: (block, level,
    the actions that do it, their cost). Each plan is tried on the engine, so only what it accepts is offered."""
    ed = edition_of(state)
    even = rules_in_force(state).even_building
    blocks = dict.fromkeys(ed.squares[a.square].block for a in legal_actions(state, seat) if a.kind == "build")
    found = []
    for block in blocks:
        squares = ed.blocks[block]
        for level in range(min(state.level[j] for j in squares) + 1, HOTEL + 1):
            if sum(max(0, level - state.level[j]) for j in squares) < 2:
                continue
            after, plan = state, []
            while (short := [j for j in squares if after.level[j] < level]) and len(plan) <= 3 * HOTEL:
                if even:
                    # The engine builds evenly from the lowest title, at most a hotel's worth per action.
                    first = min(short, key=lambda j: (after.level[j], j))
                    count = min(HOTEL, sum(level - after.level[j] for j in short))
                    action = Action(kind="build", seat=seat, square=first, count=count)
                else:
                    action = Action(kind="build", seat=seat, square=short[0], count=level - after.level[short[0]])
                if refusal(after, action) is not None:
                    break
                after, _ = engine_apply(after, action)
                plan.append(action)
            if short:
                break  # a block that cannot reach this level reaches no higher one either
            found.append((block, level, plan, state.seats[seat].cash - after.seats[seat].cash))
    return found
