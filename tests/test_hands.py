"""Who a seat that changed hands is rated for (`bot.league.credited`), and the store rating finished games by it:
the person who made most of its moves if they made at least half, else nobody."""

from __future__ import annotations

import random
from pathlib import Path

import engine
from bot.league import credited
from bot.store import Store
from bot.store.replay import verify_game
from devkit.synthetic import choose


def test_a_seat_that_changed_hands_counts_for_whoever_played_most_of_it() -> None:
    # Never changed hands: the holder, whoever made the moves (a computer standing in for someone away).
    assert credited(7, "normal", [None] * 9 + [7], changed=False) == (7, "normal")
    # Left after most of the game: still theirs. Left early: nobody's, a computer seat at its level.
    assert credited(7, "normal", [7] * 6 + [None] * 4, changed=True) == (7, "")
    assert credited(7, "normal", [7] * 2 + [None] * 8, changed=True) == (None, "normal")
    # Sat down late in a computer's seat: not theirs; early, theirs.
    assert credited(8, "", [None] * 8 + [8] * 2, changed=True) == (None, "normal")
    assert credited(8, "", [None] * 3 + [8] * 7, changed=True) == (8, "")
    # Two people half each: the first to play it.
    assert credited(9, "", [7, 7, 9, 9], changed=True) == (7, "")


def _play(store: Store, gid: int, state: engine.State, rng: random.Random, people: dict[int, int],
          until_turn: int = 10**6) -> engine.State:
    """Moves until the game ends (or turn `until_turn`), each logged as its seat's person's when a person plays it."""
    while state.phase != "over" and state.turn < until_turn:
        action = choose(state, rng)
        if action is None:
            break
        new, events = engine.apply(state, action)
        person = action.seat >= 0 and not state.seats[action.seat].computer
        store.apply(gid, state.version, people.get(action.seat) if person else None, action, events, new)
        state = new
    return state


def test_the_store_rates_a_seat_left_early_for_nobody_and_one_left_late_for_its_person(tmp_path: Path) -> None:
    with Store(tmp_path / "hands.db") as store:
        outcomes = {}
        for early in (True, False):
            gid = store.create_game(1, 10 + early, 100, "turismundo", {"max_turns": 30}, 5)
            for user in (100, 101, 102):
                store.add_seat(gid, user, f"P{user}")
            game = store.game(gid)
            state, events = engine.new_game("turismundo", [s.name for s in game.seats], game.seed,
                                            game.engine_settings(), ["", "", ""])
            store.start_game(gid, state, events)
            rng = random.Random(4)
            people = {0: 100, 1: 101, 2: 102}
            state = _play(store, gid, state, rng, people, until_turn=4 if early else 26)
            assert state.phase != "over"
            new, events = engine.hand_over(state, 1)
            store.apply(gid, state.version, 101, engine.Action(kind=engine.HAND_OVER, seat=1), events, new)
            store.update_seat(gid, 1, computer="normal")
            state = _play(store, gid, new, rng, {0: 100, 2: 102})
            assert state.phase == "over" and verify_game(store, gid).ok
            outcomes[early] = {c.user_id for c in store.game_ratings(gid)}
        assert outcomes == {True: {100, 102}, False: {100, 101, 102}}


def test_a_game_whose_host_alone_took_a_move_back_is_rated_for_nobody(tmp_path: Path) -> None:
    with Store(tmp_path / "host.db") as store:
        rated = {}
        for alone in (False, True):
            gid = store.create_game(1, 20 + alone, 100, "turismundo", {"max_turns": 8}, 3)
            for user in (100, 101):
                store.add_seat(gid, user, f"P{user}")
            if alone:
                store.update_settings(gid, {**store.game(gid).settings, "host_took_back": True})
            game = store.game(gid)
            state, events = engine.new_game("turismundo", [s.name for s in game.seats], game.seed,
                                            game.engine_settings(), ["", ""])
            store.start_game(gid, state, events)
            state = _play(store, gid, state, random.Random(2), {0: 100, 1: 101})
            assert state.phase == "over"
            rated[alone] = {c.user_id for c in store.game_ratings(gid)}
        assert rated == {False: {100, 101}, True: set()}
        # And rerating the server from its games agrees.
        store.rerate(1)
        assert {c.user_id for c in store.game_ratings(gid)} == set()
