"""A trade offer a person is putting together in the builder, before it becomes engine state."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Offer, State, Trade


@dataclass
class Draft:
    target: int
    give: set[int] = field(default_factory=set)
    take: set[int] = field(default_factory=set)
    give_cash: int = 0
    take_cash: int = 0
    give_cards: int = 0
    take_cards: int = 0

    def empty(self) -> bool:
        return not (self.give or self.take or self.give_cash or self.take_cash or self.give_cards or self.take_cards)

    def trade(self, st: State, proposer: int) -> Trade:
        return Trade(
            proposer=proposer, target=self.target,
            give=Offer(titles=tuple(sorted(self.give)), cash=self.give_cash,
                       cards=tuple(st.seats[proposer].jail_cards[: self.give_cards])),
            take=Offer(titles=tuple(sorted(self.take)), cash=self.take_cash,
                       cards=tuple(st.seats[self.target].jail_cards[: self.take_cards])),
        )
