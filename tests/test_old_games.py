"""A game keeps the rules it started with: logs recorded by the engine before the rule texts were followed to
the letter replay, action by action, into the very same events and final state.

`data/games-rulebook-0.jsonl.gz` was recorded with that earlier engine: computer players and random legal
play in each edition (trades of mortgaged titles, bankruptcies to a seat holding mortgaged titles, debts,
auctions, extra rolls on doubles). Each game is a `game` record with its initial state, one `action`
record per action with the events it produced, and a `final` record with the state it ended in.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

import engine

LOG = Path(__file__).resolve().parent / "data" / "games-rulebook-0.jsonl.gz"


class Game(msgspec.Struct):
    name: str
    initial: engine.State
    actions: list[tuple[engine.Action, list[dict]]]
    final: engine.State


def recorded() -> Iterator[Game]:
    game: Game | None = None
    with gzip.open(LOG, "rt", encoding="utf-8") as f:
        for line in f:
            record = msgspec.json.decode(line)
            kind = record["record"]
            if kind == "game":
                state = engine.from_json(msgspec.json.encode(record["initial"]))
                game = Game(record["name"], state, [], state)
            elif kind == "action":
                assert game is not None
                game.actions.append((msgspec.convert(record["action"], engine.Action), record["events"]))
            else:
                assert game is not None
                game.final = engine.from_json(msgspec.json.encode(record["state"]))
                yield game
                game = None


GAMES = list(recorded())


def test_the_log_holds_the_games_it_should() -> None:
    assert {g.name for g in GAMES} == {
        f"{edition}-{how}" for edition in ("turismundo", "mundial", "monopolio") for how in ("computers", "random")
    }


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_game_recorded_under_the_earlier_rulebook_replays_exactly(game: Game) -> None:
    state = engine.clone(game.initial)
    for n, (action, events) in enumerate(game.actions):
        produced = engine.apply_inplace(state, action)
        assert msgspec.json.decode(msgspec.json.encode(produced)) == events, f"action {n}: {action}"
    assert engine.to_json(state) == engine.to_json(game.final)
