"""Alt text: the words a screen reader says for each picture the bot sends, written from the game itself.

Discord reads an attachment's `description` (and a Media Gallery item's) aloud in place of the picture and takes
at most 1,024 characters (`MAX`). Each function says what its picture shows, most important first: for the board,
whose turn it is and what they decide, then each player (cash, where the token stands, titles), then what the
last turn changed. When everything does not fit, the titles' names give way first (their number stays), then the
oldest sentences of the turn, so the text always keeps the decision and every player.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Protocol

from engine import BANK, State, edition_of, load, standings
from words.catalogue import sentence, text
from words.money import money
from words.narrate import account, jail_name, listing, square_name

MAX = 1024  # the most Discord takes in an attachment's or a gallery item's description
TITLE_KINDS = ("country", "airline", "utility")


class BestGameFacts(Protocol):
    game: int
    worth: int
    edition: str


class CardFacts(Protocol):
    """What a profile card shows (`render.ProfileCard` is one)."""

    name: str
    rating: float | None
    provisional: bool
    games: int
    wins: int
    favourite_edition: str | None
    best_game: BestGameFacts | None
    top_titles: tuple[tuple[str, int], ...]
    opponents: tuple[tuple[str, int], ...]


def _cash(state: State, amount: int) -> str:
    return money(amount, load(state.edition).currency)


def _t(lang: str, key: str, state: State | None = None, **params: object) -> str:
    return text(lang, f"alt.{key}", variant=state.edition if state is not None else None, **params)


def cut(line: str, limit: int = MAX) -> str:
    """`line` in at most `limit` characters, "…" marking a cut."""
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def _join(parts: Iterable[str]) -> str:
    return " ".join(p for p in parts if p)


def decision(state: State, lang: str) -> str:
    """Whose turn it is and what the game waits for them to decide, as one sentence."""
    seats = state.seats
    if state.phase == "over":
        if state.winner >= 0:
            return _t(lang, "decide.over", state, who=seats[state.winner].name)
        return _t(lang, "decide.ended", state)
    if state.debts:
        debt = state.debts[0]
        creditor = text(lang, "event.party.bank") if debt.creditor < 0 else seats[debt.creditor].name
        return _t(lang, "decide.debt", state, who=seats[debt.debtor].name, amount=_cash(state, debt.amount),
                  creditor=creditor)
    if state.lift is not None:
        return _t(lang, "decide.lift", state, who=seats[state.lift.seat].name)
    if state.auction is not None:
        au = state.auction
        square = square_name(state.edition, au.square, lang)
        item = text(lang, f"event.item.{au.item}", variant=state.edition, square=square)
        if au.bidder >= 0:
            return _t(lang, "decide.auction_bid", state, item=item, amount=_cash(state, au.bid),
                      who=seats[au.bidder].name)
        return _t(lang, "decide.auction", state, item=item)
    if state.trade is not None:
        return _t(lang, "decide.trade", state, who=seats[state.trade.target].name,
                  proposer=seats[state.trade.proposer].name)
    seat = seats[state.current]
    who = seat.name
    if state.phase == "buy":
        sq = edition_of(state).squares[seat.pos]
        return _t(lang, "decide.buy", state, who=who, square=square_name(state.edition, seat.pos, lang),
                  price=_cash(state, sq.price))
    if state.phase == "customs":
        return _t(lang, "decide.customs", state, who=who)
    if state.phase == "end":
        return _t(lang, "decide.end", state, who=who)
    if seat.jailed:
        return _t(lang, "decide.jail", state, who=who, jail=jail_name(state.edition, lang),
                  fine=_cash(state, edition_of(state).economy.jail_fine))
    return _t(lang, "decide.roll", state, who=who)


@cache
def _square_names(edition: str, lang: str) -> tuple[tuple[str, str], ...]:
    """Each square's name, and its name as a mortgaged title: an edit of the table tells every title again."""
    ed = load(edition)
    out = []
    for sq in ed.squares:
        name = square_name(edition, sq.index, lang)
        out.append((str(name), text(lang, "alt.mortgaged", variant=edition, square=name)))
    return tuple(out)


def _titles(state: State) -> dict[int, list[int]]:
    """Each seat's titles, in the board's order."""
    owned: dict[int, list[int]] = {}
    for square, owner in enumerate(state.owner):
        if owner >= 0:
            owned.setdefault(owner, []).append(square)
    return owned


def _player(state: State, seat: int, owned: list[int], lang: str, names: int | None) -> str:
    """One player: cash, where the token stands, the number of titles and up to `names` of their names
    (None: all of them)."""
    person = state.seats[seat]
    name = person.name + (_t(lang, "computer") if person.computer else "")
    if person.out:
        return _t(lang, "player_out", state, name=name)
    squares = _square_names(state.edition, lang)
    line = _t(lang, "player_jailed" if person.jailed else "player", state, name=name, cash=_cash(state, person.cash),
              square=squares[person.pos][0], count=len(owned))
    shown = owned if names is None else owned[:names]
    if shown:
        listed = [squares[i][1] if state.mortgaged[i] else squares[i][0] for i in shown]
        if len(shown) < len(owned):
            listed.append(_t(lang, "more", state, count=len(owned) - len(shown)))
        line = f"{line[:-1]}: {listing(lang, listed)}."
    return line


def board(state: State, lang: str, events: Sequence[dict] = ()) -> str:
    """The board picture in words (at most `MAX` characters)."""
    edition = text(lang, f"edition.{state.edition}.name")
    head = _t(lang, "board", state, edition=edition, turn=state.turn)
    decide = decision(state, lang)
    seats = [s for s in state.order if s < len(state.seats)] or list(range(len(state.seats)))
    told = [sentence(line) for line in account([e for e in events if e["code"] != "turn_started"], state, lang)]
    owned = _titles(state)
    most = max((len(owned.get(s, ())) for s in seats), default=0)
    # The names of the titles give way first, a few at a time, then the oldest sentences of the turn.
    for names in (None, *range(min(most, 8), -1, -1)):
        players = [_player(state, s, owned.get(s, []), lang, names) for s in seats]
        base = _join([head, decide, *players])
        if len(base) > MAX and names != 0:
            continue
        room = MAX - len(base) - 1
        news = _news(told, lang, room)
        return cut(_join([base, news]))
    raise AssertionError("unreachable")


def _news(told: list[str], lang: str, room: int) -> str:
    """What the last turn changed, its newest sentences that fit in `room` characters."""
    if not told or room <= 0:
        return ""
    intro = _t(lang, "last_turn")
    kept: list[str] = []
    used = len(intro)
    for line in reversed(told):
        if used + len(line) + 1 > room:
            break
        kept.append(line)
        used += len(line) + 1
    return _join([intro, *reversed(kept)]) if kept else ""


def deed(edition: str, square: int, state: State | None, lang: str) -> str:
    """A title deed in words: the title, its group, price, rents, building costs and mortgage; its owner if a
    game is given."""
    ed = load(edition)
    sq = ed.squares[square]
    name = square_name(edition, square, lang)
    cash = lambda amount: money(amount, ed.currency)  # noqa: E731
    parts = [text(lang, f"alt.deed.{sq.kind}", variant=edition, square=name,
                  block=text(lang, f"block.{sq.block}") if sq.block else "", price=cash(sq.price))]
    if sq.kind == "country" and sq.rents:
        levels = [text(lang, f"event.level.{k}", variant=edition) for k in range(1, len(sq.rents))]
        rents = [text(lang, "alt.deed.rent_line", level=lv, rent=cash(r))
                 for lv, r in zip(levels, sq.rents[1:], strict=True)]
        parts.append(text(lang, "alt.deed.rents", variant=edition, rent=cash(sq.rents[0]), rents=listing(lang, rents)))
        parts.append(text(lang, "alt.deed.costs", variant=edition, house=cash(sq.house_cost),
                          hotel=cash(sq.hotel_cost)))
    elif sq.kind == "airline" and sq.rents:
        parts.append(text(lang, f"alt.deed.{sq.kind}_rents", variant=edition,
                          rents=listing(lang, [cash(r) for r in sq.rents])))
    elif sq.kind == "utility":
        parts.append(text(lang, "alt.deed.utility_rents", variant=edition))
    parts.append(text(lang, "alt.deed.mortgage", mortgage=cash(sq.mortgage)))
    if state is not None:
        owner = state.owner[square]
        if owner == BANK or owner < 0:
            parts.append(text(lang, "alt.deed.bank"))
        else:
            parts.append(text(lang, "alt.deed.owner", who=state.seats[owner].name))
            if state.level[square]:
                parts.append(text(lang, "alt.deed.built", variant=edition,
                                  level=text(lang, f"event.level.{state.level[square]}", variant=edition)))
            if state.mortgaged[square]:
                parts.append(text(lang, "alt.deed.is_mortgaged"))
    return cut(_join(parts))


def _ranking(state: State, lang: str) -> list[str]:
    rows = state.standings or standings(state)
    return [_t(lang, "rank_out" if row.out else "rank", state, rank=row.rank, name=state.seats[row.seat].name,
               worth=_cash(state, row.net_worth)) for row in rows]


def summary(state: State, lang: str) -> str:
    """The end-of-game picture in words: who won, the final ranking with each player's net worth."""
    edition = text(lang, f"edition.{state.edition}.name")
    head = _t(lang, "summary", state, edition=edition, turns=state.turn)
    return cut(_join([head, decision(state, lang), *_ranking(state, lang)]))


def replay(state: State, lang: str, game: int) -> str:
    """A game's animated replay in words: what it shows and how the game ended (`state`: its last state)."""
    edition = text(lang, f"edition.{state.edition}.name")
    head = _t(lang, "replay", state, game=game, edition=edition, count=len(state.seats), turns=state.turn)
    return cut(_join([head, decision(state, lang), *_ranking(state, lang)]))


def profile(card: CardFacts, lang: str) -> str:
    """A person's profile card in words: rating, games and wins, favourite edition, best game, most bought
    titles, most frequent opponents."""
    parts = [text(lang, "alt.profile.head", name=card.name)]
    if card.rating is None:
        parts.append(text(lang, "alt.profile.unrated"))
    else:
        parts.append(text(lang, "alt.profile.provisional" if card.provisional else "alt.profile.rating",
                          rating=round(card.rating)))
    parts.append(text(lang, "alt.profile.games", games=card.games, wins=card.wins))
    if card.favourite_edition:
        parts.append(text(lang, "alt.profile.favourite", edition=text(lang, f"edition.{card.favourite_edition}.name")))
    best = card.best_game
    if best is not None:
        worth = money(best.worth, load(best.edition).currency)
        parts.append(text(lang, "alt.profile.best", game=best.game, worth=worth))
    if card.top_titles:
        names = [square_name(edition, square, lang) for edition, square in card.top_titles[:3]]
        parts.append(text(lang, "alt.profile.titles", titles=listing(lang, names)))
    if card.opponents:
        people = [text(lang, "alt.profile.opponent", name=name, games=games) for name, games in card.opponents[:3]]
        parts.append(text(lang, "alt.profile.opponents", people=listing(lang, people)))
    return cut(_join(parts))
