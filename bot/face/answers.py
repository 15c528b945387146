"""Read-only answers: a seat's status, a title's deed, the rules and the help."""

from __future__ import annotations

import unicodedata

from bot.face.i18n import t
from bot.face.texts import cash, seat_label
from engine import TITLE_KINDS, State, edition_of, load, net_worth, rent, titles_of
from words import LANGUAGES, jail_name, square_name, text


def seat_status(state: State, seat: int, lang: str) -> str:
    person = state.seats[seat]
    ed = edition_of(state)
    worth, _, _ = net_worth(state, seat)
    lines = [t(lang, "status.title", seat=seat_label(state, seat)),
             t(lang, "status.cash", cash=cash(state, person.cash), worth=cash(state, worth)),
             t(lang, "status.position", square=square_name(state.edition, person.pos, lang))]
    if person.out:
        lines.append(t(lang, "status.out"))
    if person.jailed:
        lines.append(t(lang, "status.jailed", variant=ed.id, turns=person.jail_turns, jail=jail_name(ed.id, lang)))
    if person.jail_cards:
        lines.append(t(lang, "status.cards", variant=ed.id, count=len(person.jail_cards), jail=jail_name(ed.id, lang)))
    owned = titles_of(state, seat)
    if owned:
        lines.append(t(lang, "status.titles"))
        for sq in owned:
            marks = []
            name = square_name(state.edition, sq, lang)
            if state.mortgaged[sq]:
                marks.append(t(lang, "status.mortgaged", square=name))
            if state.level[sq]:
                marks.append(t(lang, "status.hotel") if state.level[sq] == 5
                             else t(lang, "status.houses", variant=ed.id, count=state.level[sq]))
            extra = f" ({', '.join(marks)})" if marks else ""
            lines.append(f"• {name}{extra}")
    else:
        lines.append(t(lang, "status.no_titles"))
    return "\n".join(lines)[:2000]


def overview(state: State, lang: str) -> str:
    """Every seat at a glance, for someone watching the game without playing in it."""
    ed = edition_of(state)
    lines = [t(lang, "status.overview")]
    for seat, person in enumerate(state.seats):
        label = seat_label(state, seat)
        if person.out:
            lines.append(t(lang, "status.overview_out", seat=label))
            continue
        worth, _, _ = net_worth(state, seat)
        row = t(lang, "status.overview_row", seat=label, cash=cash(state, person.cash), worth=cash(state, worth),
                count=len(titles_of(state, seat)), square=square_name(state.edition, person.pos, lang))
        if person.jailed:
            row += " · " + t(lang, "status.overview_jailed", variant=ed.id, jail=jail_name(ed.id, lang))
        lines.append(("➡️ " if seat == state.current else "• ") + row)
    return "\n".join(lines)[:2000]


def _fold(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if c.isalnum())


def title_squares(edition: str) -> list[int]:
    return [sq.index for sq in load(edition).squares if sq.kind in TITLE_KINDS]


def find_square(edition: str, raw: str, candidates: list[int] | None = None) -> int | None:
    """A title by autocomplete value (its index) or by its name in any language, accents and case aside: the
    whole name, else the one name that starts so, else the one that does from one of its words on."""
    pool = candidates if candidates is not None else title_squares(edition)
    raw = raw.strip()
    if raw.isdigit() and int(raw) in pool:
        return int(raw)
    wanted = _fold(raw)
    if not wanted:
        return None
    for lang in LANGUAGES:
        for sq in pool:
            if _fold(square_name(edition, sq, lang)) == wanted:
                return sq
    for start in (_whole_name, _any_word):  # "calle fuen" and "fuencarral" both name Calle Fuencarral
        matches = {sq for lang in LANGUAGES for sq in pool
                   if any(tail.startswith(wanted) for tail in start(square_name(edition, sq, lang)))}
        if matches:
            return matches.pop() if len(matches) == 1 else None
    return None


def _whole_name(name: str) -> list[str]:
    return [_fold(name)]


def _any_word(name: str) -> list[str]:
    """The name from each of its words on, folded: "Calle Fuencarral" is also read as "fuencarral"."""
    words = name.split()
    return [_fold(" ".join(words[i:])) for i in range(len(words))]


def deed_text(edition: str, square: int, state: State | None, lang: str) -> str:
    ed = load(edition)
    sq = ed.squares[square]
    money = lambda amount: cash(edition, amount)  # noqa: E731
    lines = [t(lang, "deed.title", square=square_name(edition, square, lang))]
    if sq.block:
        lines.append(t(lang, "deed.block", block=text(lang, f"block.{sq.block}")))
    lines.append(t(lang, "deed.price", price=money(sq.price), mortgage=money(sq.mortgage)))
    if sq.kind == "country":
        rents = ", ".join(money(r) for r in sq.rents)
        lines.append(t(lang, "deed.rents", rents=rents))
        lines.append(t(lang, "deed.building", variant=edition, house=money(sq.house_cost), hotel=money(sq.hotel_cost)))
    elif sq.kind == "airline":
        lines.append(t(lang, "deed.airline", rents=", ".join(money(r) for r in sq.rents)))
    else:
        lines.append(t(lang, "deed.utility", multipliers=" / ".join(f"×{m}" for m in ed.economy.utility_multipliers)))
    if sq.estimated:
        lines.append(t(lang, "deed.estimated"))
    if state is not None:
        owner = state.owner[square]
        if owner >= 0:
            lines.append(t(lang, "deed.owner", seat=seat_label(state, owner)))
            if state.mortgaged[square]:
                lines.append(t(lang, "deed.is_mortgaged", square=square_name(edition, square, lang)))
            else:
                lines.append(t(lang, "deed.rent_now", rent=money(rent(state, square, 7))))
        else:
            lines.append(t(lang, "deed.bank"))
    return "\n".join(lines)


def rules_text(edition: str, lang: str) -> str:
    ed = load(edition)
    return t(lang, "rules.text", variant=edition, edition=text(lang, f"edition.{edition}.name"),
             start=cash(edition, ed.economy.start_cash), salary=cash(edition, ed.economy.salary),
             fine=cash(edition, ed.economy.jail_fine), jail_turns=ed.rules.jail_max_turns)[:2000]


def help_text(lang: str) -> str:
    return t(lang, "help.text")[:2000]
