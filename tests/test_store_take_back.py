"""The store's side of taking moves back: the request and its answers as they are stored, a game with
take-backs and seats changing hands that `turista store verify` replays, and the titles bought without the
purchases taken back."""

from __future__ import annotations

import random

import engine
from bot.store import Store
from bot.store.replay import verify_game
from devkit.synthetic import choose


def _started(store: Store, channel: int) -> tuple[int, engine.State]:
    gid = store.create_game(1, channel, 100, "turismundo", {"max_turns": 10}, 9)
    for user in (100, 101):
        store.add_seat(gid, user, f"P{user}")
    store.add_seat(gid, None, "Lupita", "normal")
    game = store.game(gid)
    state, events = engine.new_game("turismundo", [s.name for s in game.seats], game.seed, game.engine_settings(),
                                    [s.computer for s in game.seats])
    store.start_game(gid, state, events)
    return gid, state


def test_a_request_and_its_answers_are_kept_one_per_version(db_target: str) -> None:
    with Store(db_target) as store:
        gid, state = _started(store, 1)
        asked = store.ask_take_back(gid, state.version, 0, 100, 1)
        assert asked is not None and asked.status == "open" and asked.agreed == ()
        assert store.ask_take_back(gid, state.version, 0, 100, 1) is None  # once per version
        assert store.agree_take_back(gid, state.version, 101).agreed == (101,)  # type: ignore[union-attr]
        assert store.agree_take_back(gid, state.version, 101).agreed == (101,)  # type: ignore[union-attr]
    with Store(db_target) as store:  # a restart keeps it all
        kept = store.take_back_request(gid, state.version)
        assert kept is not None and kept.agreed == (101,) and kept.status == "open"
        assert store.settle_take_back(gid, state.version, "refused")
        assert not store.settle_take_back(gid, state.version, "done")  # a No won: nothing more to settle
        assert store.agree_take_back(gid, state.version, 102) is None
        assert store.take_back_request(gid, state.version).status == "refused"  # type: ignore[union-attr]


def test_a_game_with_take_backs_and_seats_changing_hands_verifies_and_counts_only_the_titles_kept(
        db_target: str) -> None:
    with Store(db_target) as store:
        gid, state = _started(store, 2)
        first = engine.clone(state)
        rng = random.Random(6)
        log: list[engine.LogEntry] = []
        taken_back = 0
        sat = False

        def record(action: engine.Action, new: engine.State, events: list[dict], actor: int | None) -> engine.State:
            store.apply(gid, state.version, actor, action, events, new)
            log.append((action, events))
            return new

        while state.phase != "over":
            if not sat and state.turn >= 4:
                new, events = engine.sit(state, 2)
                state = record(engine.Action(kind=engine.SIT, seat=2), new, events, 102)
                new, events = engine.hand_over(state, 1)
                state = record(engine.Action(kind=engine.HAND_OVER, seat=1), new, events, 101)
                sat = True
                continue
            action = choose(state, rng)
            assert action is not None
            new, events = engine.apply(state, action)
            state = record(action, new, events, None)
            if action.kind in ("buy", "end_turn") and taken_back < 3:
                new, events = engine.take_back(first, log, state, action.seat, 1)
                state = record(engine.Action(kind=engine.TAKE_BACK, seat=action.seat, count=1), new, events, None)
                taken_back += 1
        verdict = verify_game(store, gid)
        assert verdict.ok, verdict.line()
        assert taken_back == 3 and sat
        # The titles bought are those of the purchases that stand.
        stand: list[list[dict]] = []
        for action, events in log:
            if action.kind == engine.TAKE_BACK:
                del stand[len(stand) - action.count:]
            else:
                stand.append(events)
        expected: dict[tuple[int, int], int] = {}
        for events in stand:
            for e in events:
                key = (e["from"], e["square"]) if e["code"] == "transfer" and e["reason"] == "buy" else \
                    (e["seat"], e["square"]) if e["code"] == "auction_won" and e["item"] == "title" else None
                if key is not None:
                    expected[key] = expected.get(key, 0) + 1
        with store.backend.read() as tx:
            bought = {(seat, square): times for seat, square, times in
                      tx.execute("SELECT seat, square, times FROM titles_bought WHERE game_id = ?", [gid]).fetchall()}
        assert bought == expected
        # …which is fewer than every purchase the log tells of: one at least was taken back.
        undone = sum(1 for _, events in log for e in events if e["code"] == "taken_back" and "buy" in e["kinds"])
        told = sum(1 for _, events in log for e in events if e["code"] == "transfer" and e["reason"] == "buy")
        won = sum(1 for _, events in log for e in events if e["code"] == "auction_won" and e["item"] == "title")
        assert undone >= 1 and sum(bought.values()) == told + won - undone
