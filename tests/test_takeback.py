"""Which moves may be taken back (`engine.takeback`), and that a take-back gives the game exactly as it was.

Every kind of action is classified once here: a new kind must be placed on one side or the other. Played
games check the classification against what the moves really did: a move that may go never drew a random
number, and taking back any run of moves the engine allows gives the state before them, to the last field."""

from __future__ import annotations

from collections import deque

import msgspec
import pytest

from engine import (
    HAND_OVER,
    KINDS,
    SIT,
    TAKE_BACK,
    TAKEABLE_KINDS,
    Action,
    IllegalAction,
    Settings,
    State,
    apply_inplace,
    clone,
    hand_over,
    new_game,
    replay_inplace,
    sit,
    standing,
    take_back,
    take_back_refusal,
    to_json,
    undoable,
)
from engine.simulate import Driver
from engine.takeback import HIDDEN_CHANGERS, takeable

# What may never be taken back, and why: chance (dice), an auction, a trade (a second person), the end of a
# seat's game, and the bot's own moves.
NEVER = {
    "roll": "dice", "bid": "auction", "pass_bid": "auction", "close_auction": "the bot", "time_up": "the bot",
    "propose_trade": "trade", "accept_trade": "trade", "reject_trade": "trade", "cancel_trade": "trade",
    "bankrupt": "confirmed, the seat is out", "withdraw": "confirmed, the seat is out",
}  # fmt: skip


def test_every_kind_is_either_takeable_or_never() -> None:
    assert set(NEVER) | TAKEABLE_KINDS == KINDS
    assert not set(NEVER) & TAKEABLE_KINDS
    for kind in sorted(KINDS):
        assert takeable(Action(kind=kind, seat=0), []) == (kind in TAKEABLE_KINDS), kind
        # Whatever its kind, a move that told of dice, a card, an auction, a trade or the end may not go.
        for code in sorted(HIDDEN_CHANGERS):
            assert not takeable(Action(kind=kind, seat=0), [{"code": code}]), (kind, code)
    # The bot's own seat never takes anything back, nor the game's start row.
    assert not takeable(Action(kind="buy", seat=-1), []) and not takeable(None, [])


def test_only_the_last_movers_own_moves_in_a_row_may_go() -> None:
    buy, build, end = (Action(kind=k, seat=1) for k in ("buy", "build", "end_turn"))
    rolled = (Action(kind="roll", seat=1), [{"code": "rolled", "seat": 1, "dice": [3, 4]}])
    other = (Action(kind="end_turn", seat=0), [])
    assert undoable([]) == (-1, 0)
    assert undoable([other, rolled, (buy, []), (build, []), (end, [])]) == (1, 3)
    assert undoable([(buy, []), other]) == (0, 1)  # seat 0's end of turn, not seat 1's buy
    assert undoable([rolled]) == (1, 0)
    # A take-back closes the door on what came before it: it cannot be taken back itself, nor what it kept.
    assert undoable([(buy, []), (Action(kind=TAKE_BACK, seat=1, count=1), [])]) == (1, 0)
    assert take_back_refusal([(buy, []), (build, [])], 1, 2) is None
    assert take_back_refusal([(buy, []), (build, [])], 1, 3) == ("take_back_too_many", {"count": 2})
    assert take_back_refusal([(buy, []), (build, [])], 0, 1) == ("cannot_take_back", {})
    assert take_back_refusal([rolled], 1, 1) == ("cannot_take_back", {})


def _without_version(st: State) -> dict:
    data = msgspec.json.decode(to_json(st))
    data.pop("version", None)
    return data


SEATS = ["Ana", "Beto", "Carla", "Diego"]
GAMES = [
    ("turismundo", Settings(max_turns=70), 3),
    ("mundial", Settings(max_turns=70), 5),
    ("monopolio", Settings(max_turns=70, club_loans=True, auction_on_decline=False), 8),
]


@pytest.mark.parametrize(("edition", "settings", "seed"), GAMES)
def test_a_take_back_gives_the_game_as_it_was_and_never_undoes_chance(edition: str, settings: Settings,
                                                                       seed: int) -> None:
    st, _ = new_game(edition, SEATS, seed=seed, settings=settings, computers=["normal", "dificil", "normal", "facil"])
    first = clone(st)
    entries: list = []
    recent: deque[State] = deque(maxlen=6)  # the states before the last moves
    driver = Driver()
    seen: set[str] = set()
    tried = 0
    while (action := driver.next_action(st)) is not None:
        recent.append(clone(st))
        draws = st.draws
        events = apply_inplace(st, action)
        entries.append((action, events))
        seen.add(action.kind)
        if takeable(action, events):
            assert st.draws == draws, f"{action.kind} drew a number and was takeable: {events}"
        seat, count = undoable(entries)
        for k in range(1, min(count, len(recent) - 1) + 1):
            back, told = take_back(first, entries, st, seat, k)
            assert _without_version(back) == _without_version(recent[-k]), (action, k)
            assert back.version == st.version + 1
            assert told == [{"code": "taken_back", "seat": seat, "count": k,
                             "kinds": [a.kind for a, _ in entries[len(entries) - k:]]}]
            tried += 1
        if count == 0 and entries[-1][0].seat >= 0:
            with pytest.raises(IllegalAction):
                take_back(first, entries, st, entries[-1][0].seat, 1)
    assert tried > 20
    assert {"roll", "buy", "end_turn"} <= seen


def test_a_game_with_take_backs_and_seats_changing_hands_replays_from_the_moves_that_stand() -> None:
    st, _ = new_game("turismundo", ["Ana", "Beto"], seed=11, computers=["", "normal"])
    first = clone(st)
    driver = Driver()
    log: list = []
    while st.turn < 8 and (action := driver.next_action(st)) is not None:
        log.append((action, apply_inplace(st, action)))
        seat, count = undoable(log)
        if count and action.kind == "end_turn" and seat == 0:
            st, events = take_back(first, log, st, seat, 1)
            log.append((Action(kind=TAKE_BACK, seat=seat, count=1), events))
            # Taken back, the end of the turn is made again (the game goes on the same way).
            log.append((Action(kind="end_turn", seat=0), apply_inplace(st, Action(kind="end_turn", seat=0))))
    st, events = sit(st, 1)
    assert events == [{"code": "seat_taken", "seat": 1, "was": "Beto"}]
    log.append((Action(kind=SIT, seat=1), events))
    assert st.seats[1].name == "Beto" and st.seats[1].computer == ""  # the name is the bot's to show
    # Carla leaves the seat to a computer again; nobody may take back across seats changing hands.
    st, events = hand_over(st, 1)
    log.append((Action(kind=HAND_OVER, seat=1), events))
    assert events == [{"code": "seat_left", "seat": 1}] and st.seats[1].computer == "normal"
    assert undoable(log) == (1, 0)
    assert any(a.kind == TAKE_BACK for a, _ in log)
    again = clone(first)
    for action in standing(a for a, _ in log):
        replay_inplace(again, action)
    assert _without_version(again) == _without_version(st)
    with pytest.raises(IllegalAction):
        sit(st, 0)  # a person's seat
    with pytest.raises(IllegalAction):
        hand_over(st, 1)  # a computer plays it already
