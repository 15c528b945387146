"""Taking a move back: which of a game's last moves may be taken back, and the game as it was before them.

A game is its log of actions, applied in order. A take-back is one more entry of that log (`TAKE_BACK`, with
the seat that asks and `count`, how many of its last moves go): the game continues from the state it had
before those moves, under the next version number, so the log stays append-only and replays exactly.

Only what nobody could have reacted to may go: the last moves of one seat, all of them of a kind that draws
no random number and asks nothing of anyone else (`TAKEABLE_KINDS`), and none of whose events revealed dice,
a card, an auction, a trade or the end of the game (`HIDDEN_CHANGERS`). Rolling the dice, a bid, another
seat's move, the bot's own (an auction closing, the time limit) or an earlier take-back close the door on
everything before them: a take-back never lets anyone choose again knowing what chance brought.

These are pure functions over the log; the bot decides who must consent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from engine.actions import Action, IllegalAction
from engine.edition import load
from engine.rules import Event, Game
from engine.seating import replay_inplace
from engine.state import State, clone

TAKE_BACK: Final = "take_back"  # the log's kind of a take-back; `apply` knows no such action

# Moves that draw nothing and ask nobody: buying or declining a title, building and selling, mortgages, the
# bank's deals, paying the fine or using a card to leave jail, a creditor's choice on inherited mortgages, and
# ending the turn (the next seat has done nothing yet, or its move would be the last one).
TAKEABLE_KINDS: Final = frozenset({
    "buy", "decline", "build", "sell", "mortgage", "unmortgage", "sell_title", "take_loan", "pay_fine", "use_card",
    "end_turn", "keep_mortgaged", "title_to_bank",
})
# Events after which a move may not go, whatever its kind: they told something new (dice, a card, the order),
# opened a choice to others (an auction, a trade) or ended something for good.
HIDDEN_CHANGERS: Final = frozenset({
    "rolled", "customs_roll", "rolled_for_rent", "three_doubles", "card", "order_roll", "order_shuffled",
    "auction_opened", "bid", "passed_bid", "auction_won", "auction_unsold", "trade_proposed", "trade_done",
    "trade_rejected", "trade_cancelled", "bankrupt", "withdrew", "time_up", "game_over",
})

Entry = tuple[Action | None, Sequence[Mapping[str, Any]]]  # a log row: its action (None: the start), its events


def takeable(action: Action | None, events: Iterable[Mapping[str, Any]]) -> bool:
    """Whether this one move, on its own, could be taken back (see the module's docstring)."""
    if action is None or action.kind not in TAKEABLE_KINDS or action.seat < 0:
        return False
    return not any(event.get("code") in HIDDEN_CHANGERS for event in events)


def undoable(entries: Sequence[Entry]) -> tuple[int, int]:
    """(seat, n): the seat that made the log's last move, and how many of its last moves may be taken back
    (0 when none may); (-1, 0) when the last entry is no seat's move."""
    last = entries[-1][0] if entries else None
    if last is None:
        return -1, 0
    seat = last.seat
    count = 0
    for action, events in reversed(entries):
        if action is None or action.seat != seat or not takeable(action, events):
            break
        count += 1
    return seat, count


def refusal(entries: Sequence[Entry], seat: int, count: int) -> tuple[str, dict[str, Any]] | None:
    """Why `seat` may not take back its last `count` moves now (an error code and its parameters), or None."""
    mover, may = undoable(entries)
    if count < 1:
        return "invalid", {}
    if mover != seat or may == 0:
        return "cannot_take_back", {}
    if count > may:
        return "take_back_too_many", {"count": may}
    return None


def standing(actions: Iterable[Action]) -> list[Action]:
    """The moves that stand in a log of actions: each take-back removes the moves it took back. Replayed from
    the game's first state they give its state now, but for the version, which counts every entry."""
    kept: list[Action] = []
    for action in actions:
        if action.kind == TAKE_BACK:
            del kept[len(kept) - action.count:]
        else:
            kept.append(action)
    return kept


def take_back(first: State, entries: Sequence[Entry], now: State, seat: int,
              count: int) -> tuple[State, list[Event]]:
    """The game after `seat` takes back its last `count` moves: the state it had before them, as the next
    version. `first`: the game's first state; `entries`: its log (after the start row or with it), up to `now`.
    Raises IllegalAction when the moves may not go (`refusal`)."""
    rows = [entry for entry in entries if entry[0] is not None]
    why = refusal(rows, seat, count)
    if why is not None:
        raise IllegalAction(why[0], **why[1])
    kept = standing(action for action, _ in rows if action is not None)
    gone = kept[len(kept) - count:]
    before = clone(first)
    for action in kept[: len(kept) - count]:
        replay_inplace(before, action)
    if before.draws != now.draws:
        # Nothing taken back may have drawn a number: the dice to come are the ones that would have come.
        raise IllegalAction("cannot_take_back")
    before.version = now.version + 1
    told = Game(before, load(before.edition))
    told.emit("taken_back", seat=seat, count=count, kinds=[a.kind for a in gone])
    return before, told.ev
