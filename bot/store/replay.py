"""Replaying a stored game's log from its start and comparing with the stored snapshot; exporting a log."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TextIO

import msgspec

import engine
from bot.store.store import Store

_encode = msgspec.json.Encoder().encode


@dataclass(frozen=True, slots=True)
class Verdict:
    game_id: int
    status: str
    ok: bool
    actions: int  # log rows replayed
    version: int  # the stored version
    problem: str = ""  # what differed, when not ok

    def line(self) -> str:
        head = f"game {self.game_id} ({self.status}, version {self.version}, {self.actions} actions):"
        return f"{head} {'ok' if self.ok else 'MISMATCH: ' + self.problem}"


def _normal(events: object) -> object:
    """Events as they read back from JSON (tuples become lists), for comparison with the log."""
    return msgspec.json.decode(_encode(events))


def verify_game(store: Store, game_id: int) -> Verdict:
    """Replay the game's logged actions from its initial state and check every step: the sequence numbers,
    the events each action produced, and finally the snapshot and version the store holds."""
    game = store.game(game_id)
    state = store.initial_state(game_id)
    if state is None:
        if game.version != 0 or game.snapshot is not None:
            return Verdict(game_id, game.status, False, 0, game.version, "a snapshot without an initial state")
        return Verdict(game_id, game.status, True, 0, game.version)
    replayed = 0
    started = False
    first = engine.clone(state)
    entries: list[engine.LogEntry] = []  # the rows replayed so far: a take-back is checked against them
    for row in store.log(game_id):
        action = row.decoded_action()
        if action is None:
            if started or row.seq != state.version:
                return Verdict(game_id, game.status, False, replayed, game.version, f"start row at seq {row.seq}")
            started = True
            continue
        if row.seq != state.version + 1:
            problem = f"seq {row.seq} follows version {state.version}"
            return Verdict(game_id, game.status, False, replayed, game.version, problem)
        try:
            if action.kind == engine.TAKE_BACK:
                # The game as it was before the moves taken back, which the engine checks may go.
                state, events = engine.take_back(first, entries, state, action.seat, action.count)
            else:
                events = engine.replay_inplace(state, action)
        except engine.IllegalAction as exc:
            problem = f"seq {row.seq}: the engine refuses {action.kind} ({exc.code})"
            return Verdict(game_id, game.status, False, replayed, game.version, problem)
        replayed += 1
        logged = row.decoded_events()
        entries.append((action, logged))
        if _normal(events) != logged:
            return Verdict(game_id, game.status, False, replayed, game.version, f"seq {row.seq}: other events")
    if state.version != game.version:
        problem = f"the log ends at version {state.version}, the game is at {game.version}"
        return Verdict(game_id, game.status, False, replayed, game.version, problem)
    assert game.snapshot is not None
    if engine.to_json(state) != engine.to_json(engine.from_json(game.snapshot)):
        return Verdict(game_id, game.status, False, replayed, game.version, "the replay differs from the snapshot")
    return Verdict(game_id, game.status, True, replayed, game.version)


def verify(store: Store, game_ids: Iterable[int] | None = None) -> Iterator[Verdict]:
    for game_id in store.game_ids() if game_ids is None else game_ids:
        yield verify_game(store, game_id)


def export(store: Store, game_id: int, out: TextIO) -> int:
    """Write the game as JSON lines: one `game` record (with seats and the initial state), then one
    `action` record per log row. Returns the number of lines written."""
    game = store.game(game_id)
    initial = store.initial_state(game_id)
    head = {
        "record": "game",
        "id": game.id,
        "guild_id": game.guild_id,
        "channel_id": game.channel_id,
        "host_id": game.host_id,
        "status": game.status,
        "edition": game.edition,
        "seed": game.seed,
        "settings": game.settings,
        "version": game.version,
        "seats": [{"seat": s.seat, "user_id": s.user_id, "name": s.name, "computer": s.computer} for s in game.seats],
        "initial": initial,
    }
    out.write(_encode(head).decode() + "\n")
    lines = 1
    for row in store.log(game_id):
        record = {
            "record": "action",
            "seq": row.seq,
            "actor": row.actor,
            "time": row.time,
            # Raw: the stored JSON goes out byte for byte, exactly what a replay will read.
            "action": msgspec.Raw(row.action.encode()) if row.action is not None else None,
            "events": msgspec.Raw(row.events.encode()),
        }
        out.write(_encode(record).decode() + "\n")
        lines += 1
    return lines
