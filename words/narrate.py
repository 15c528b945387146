"""Events and refusals into sentences, in the reader's language, from the game's catalogue (`words.GAME`).

The engine tells what happened in codes and numbers (`engine.events`); this is where they become words.
"""

from __future__ import annotations

from engine import BANK, POT, IllegalAction, State, load
from words.catalogue import Name, gender_of, sentence, text
from words.former import seat_name
from words.money import money

# Events that only feed other events (the `transfer` that follows says it better).
SILENT = frozenset({"game_started", "may_buy", "debt_paid", "order_roll"})
# Transfers already told by the event they belong to (a settled trade lists its cash).
SILENT_TRANSFERS = frozenset({"trade"})


def square_name(edition_id: str, square: int, lang: str) -> Name:
    """A square's name in `lang`, carrying its grammatical gender (see `words.catalogue.Name`)."""
    ed = load(edition_id)
    square_id = ed.squares[square].id
    return Name(text(lang, f"square.{edition_id}.{square_id}"), gender_of(lang, edition_id, square_id))


def jail_name(edition_id: str, lang: str) -> Name:
    return square_name(edition_id, load(edition_id).rules.jail_square, lang)


def listing(lang: str, parts: list[str]) -> str:
    """ "A, B y C" / "A, B and C"."""
    if len(parts) < 2:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} {text(lang, 'event.and')} {parts[-1]}"


def offer_text(st: State, titles: tuple[int, ...] | list[int], amount: int, cards: int, lang: str,
               *, mark_mortgaged: bool = False) -> str:
    """One side of a trade in words: its titles, cash and cards to leave jail ("nada" when empty)."""
    parts: list[str] = []
    for sq in titles:
        name = square_name(st.edition, sq, lang)
        parts.append(text(lang, "event.mortgaged_title", square=name) if mark_mortgaged and st.mortgaged[sq] else name)
    if amount:
        parts.append(money(amount, load(st.edition).currency))
    if cards:
        parts.append(text(lang, "event.jail_cards", variant=st.edition, count=cards,
                          jail=jail_name(st.edition, lang)))
    return listing(lang, parts) or text(lang, "event.nothing")


def party(st: State, who: int, lang: str) -> str:
    """A seat's name, or the bank / the pot."""
    if who == BANK:
        return text(lang, "event.party.bank")
    if who == POT:
        return text(lang, "event.party.pot")
    return seat_name(st, who, lang)


def _dice(d: list[int]) -> str:
    return f"{d[0]} + {d[1]}"


def describe(event: dict, st: State, lang: str = "es") -> str:
    """One sentence for `event`, or "" for events that need no words. `st` gives names (any later state of
    the same game will do: names and the board do not change)."""
    code = event["code"]
    if code in SILENT:
        return ""
    ed_id = st.edition
    ed = load(ed_id)
    p: dict[str, object] = {}
    if "seat" in event and event["seat"] is not None and event["seat"] >= 0:
        p["seat"] = seat_name(st, event["seat"], lang)
    for key in ("target", "creditor"):
        if key in event:
            p["other"] = party(st, event[key], lang)
    if "square" in event:
        p["square"] = square_name(ed_id, event["square"], lang)
    for key in ("amount", "price"):
        if key in event:
            p[key] = money(event[key], ed.currency)
    if "dice" in event:
        p["dice"] = _dice(event["dice"])
    for key in ("turn", "value", "turns", "left", "buildings", "count", "was"):
        if key in event:
            p[key] = event[key]
    if code == "transfer":
        if event["reason"] in SILENT_TRANSFERS:
            return ""
        p["payer"] = party(st, event["from"], lang)
        p["payee"] = party(st, event["to"], lang)
        p.setdefault("square", "")
        return sentence(text(lang, f"event.transfer.{event['reason']}", variant=ed_id, **p))
    if code == "moved":
        p["square"] = square_name(ed_id, event["to"], lang)
    elif code in ("sent_to_jail", "jail_stay"):
        p["square"] = jail_name(ed_id, lang)
        p["max"] = ed.rules.jail_max_turns
    elif code == "no_rent_in_jail":
        owner = event.get("owner", st.owner[event["square"]])
        p["owner"] = party(st, owner, lang) if owner >= 0 else text(lang, "event.party.owner")
        p["jail"] = jail_name(ed_id, lang)
    elif code in ("left_rest", "resting"):
        p["square"] = square_name(ed_id, st.seats[event["seat"]].pos, lang)
    elif code == "left_jail":
        p["square"] = jail_name(ed_id, lang)
        return sentence(text(lang, f"event.left_jail.{event['how']}", variant=ed_id, **p))
    elif code in ("order_decided", "order_shuffled"):
        p["order"] = ", ".join(seat_name(st, s, lang) for s in event["order"])
    elif code == "game_started":
        p["edition"] = text(lang, f"edition.{event['edition']}.name")
    elif code == "card":
        p["deck"] = text(lang, f"deck.{ed_id}.{event['deck']}")
        p["card"] = text(lang, f"card.{ed_id}.{event['card']}")
    elif code in ("auction_opened", "auction_won", "auction_unsold"):
        p["item"] = text(lang, f"event.item.{event['item']}", variant=ed_id, square=p.get("square", ""))
    elif code in ("built", "sold_building"):
        p["level"] = text(lang, f"event.level.{event['level']}", variant=ed_id)
    elif code in ("loan_repaid", "loan_seized"):
        p["block"] = text(lang, f"block.{event['block']}")
    elif code == "trade_done":
        p["other"] = party(st, event["target"], lang)
        for key, side in (("give", event.get("give")), ("take", event.get("take"))):
            side = side or {}
            p[key] = offer_text(st, side.get("titles", ()), side.get("cash", 0), len(side.get("cards", ())), lang)
        if "give" not in event:  # a game logged before trades were told in full
            return sentence(text(lang, "event.trade_closed", **p))
    elif code == "seat_taken" and event["was"] == st.seats[event["seat"]].name:
        # Someone back in the seat they left to a computer: "Ana sits down in Ana's seat" says nothing.
        return sentence(text(lang, "event.seat_back", variant=ed_id, **p))
    elif code == "game_over":
        p["seat"] = seat_name(st, event["winner"], lang)
    return sentence(text(lang, f"event.{code}", variant=ed_id, **p))


# The events whose sentence reads the state beyond names and the board (where a seat stands, who owns a
# square): told again from the state at hand each time, never kept.
TOLD_FROM_STATE = frozenset({"left_rest", "resting", "no_rent_in_jail"})


def in_order(events: list[dict]) -> list[dict]:
    """`events` in the order a player lives them. The engine records an auction's price (paid, or owed as a
    debt when the winner cannot pay) before the win itself; the account tells the win first."""
    out = list(events)
    for i, event in enumerate(out):
        if event["code"] != "auction_won":
            continue
        j = i
        while j > 0 and out[j - 1]["code"] in ("transfer", "debt") and out[j - 1].get("reason") == "auction":
            j -= 1
        out.insert(j, out.pop(i))
    return out


def account(events: list[dict], st: State, lang: str = "es") -> list[str]:
    """The sentences of a list of events, skipping the silent ones."""
    return [line for line in (describe(e, st, lang) for e in events) if line]


def explain(error: IllegalAction, st: State | None, lang: str = "es") -> str:
    """The refusal `error` as a sentence for the player."""
    params = dict(error.params)
    if st is not None and isinstance(params.get("square"), int) and 0 <= params["square"] < 40:
        params["square"] = square_name(st.edition, params["square"], lang)
    if isinstance(params.get("block"), str):
        params["block"] = text(lang, f"block.{params['block']}")
    if "amount" in params and isinstance(params["amount"], int):
        params["amount"] = money(params["amount"], load(st.edition).currency if st else "$")
    return sentence(text(lang, f"error.{error.code}", variant=st.edition if st else None, **params))
