"""Small helpers for rule tests: a game with a known order, rigged dice and decks, terse actions."""

from __future__ import annotations

from engine import Action, Settings, State, apply, net_worth, new_game


def game(edition: str = "turismundo", players: int = 2, **settings: object) -> State:
    """A fresh game whose seats play in index order, seat 0 first, everyone on the start square."""
    st, _ = new_game(edition, [f"P{i}" for i in range(players)], seed=1, settings=Settings(**settings))
    st.order = list(range(players))
    st.current = 0
    if not settings.get("staggered_start"):
        for s in st.seats:
            s.pos = 0
    return st


def rig(st: State, *dice: int) -> State:
    st.rigged_dice = list(dice)
    return st


def act(st: State, kind: str, seat: int | None = None, **kw: object) -> tuple[State, list[dict]]:
    return apply(st, Action(kind=kind, seat=st.current if seat is None else seat, **kw))


def roll(st: State, d1: int, d2: int, seat: int | None = None) -> tuple[State, list[dict]]:
    rig(st, d1, d2)
    return act(st, "roll", seat)


def own(st: State, seat: int, *squares: int) -> State:
    for sq in squares:
        st.owner[sq] = seat
    return st


def stack_deck(st: State, deck: str, card: str) -> State:
    """Put `card` on top of `deck`."""
    pile = st.decks[deck]
    pile.remove(card)
    pile.insert(0, card)
    return st


def transfers(events: list[dict], reason: str | None = None) -> list[dict]:
    return [e for e in events if e["code"] == "transfer" and (reason is None or e["reason"] == reason)]


def codes(events: list[dict]) -> list[str]:
    return [e["code"] for e in events]


def worth(st: State, seat: int) -> int:
    return net_worth(st, seat)[0]
