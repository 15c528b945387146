"""The words the table's messages share (embeds, buttons, menus, private answers): money, seat labels, what the
game waits for, a turn's header, the house rules, an offer. Pure functions of the game: no Discord here."""

from __future__ import annotations

import math

from bot.face.i18n import t
from bot.store import GameRow, SeatRow
from bot.table.face import Table
from bot.table.reminders import waiting_for, waiting_seats
from bot.table.settings import HOUR, TOGGLES, TableSettings
from engine import KINDS, State, edition_of, legal_kinds, load, raisable
from words import jail_name, money, square_name, text
from words import offer_text as narrate_offer


def cash(state: State | str, amount: int) -> str:
    edition = state if isinstance(state, str) else state.edition
    return money(amount, load(edition).currency)


def seat_label(state: State, seat: int) -> str:
    person = state.seats[seat]
    return f"🤖 {person.name}" if person.computer else person.name


def mention(row_seats: list[SeatRow], seat: int) -> str:
    user = next((s.user_id for s in row_seats if s.seat == seat), None)
    return f"<@{user}>" if user else ""


def time_per_decision(seconds: int, lang: str) -> str:
    """A table's time per decision, which says its pace too: seconds (live) or hours (correspondence)."""
    if not seconds:
        return t(lang, "settings.no_turn_timeout")
    if seconds >= HOUR:
        return t(lang, "settings.correspondence", hours=seconds // HOUR)
    return t(lang, "settings.turn_timeout", seconds=seconds)


def settings_summary(settings: TableSettings, opened_with: str, lang: str) -> list[str]:
    """The house rules of a table, a line each, as its lobby and `/turista settings` list them."""
    s = settings.rules
    edition = settings.edition(opened_with)
    ed = load(edition)
    lines = [t(lang, "settings.edition", name=text(lang, f"edition.{edition}.name"))]
    lines.append(
        t(lang, "settings.time_limit", minutes=s.time_limit) if s.time_limit else t(lang, "settings.no_time_limit")
    )
    lines.append(time_per_decision(settings.turn_timeout, lang))
    if settings.turn_timeout:
        lines.append(t(lang, "settings.clock_passes" if settings.clock_passes else "settings.clock_plays"))
    lines.append(t(lang, "settings.start_cash", amount=money(s.start_cash or ed.economy.start_cash, ed.currency)))
    on = [t(lang, f"rule.{name}") for name in TOGGLES if settings.switch(ed, name)]
    lines.append(t(lang, "settings.rules", rules=", ".join(on) if on else t(lang, "settings.none")))
    lines.append(t(lang, f"ending.{settings.ending}"))
    return lines


def lobby_seat(seat: SeatRow, lang: str) -> str:
    if seat.computer:
        return f"🤖 {seat.name} ({t(lang, f'level.{seat.computer}')})"
    return seat.name


def waiting_line(table: Table) -> str:
    """By correspondence, the table's line that says who the game waits for, since when and until when (Discord
    shows each moment counting in the reader's own words); "" live or without a clock."""
    st = table.state
    if table.paused_at is not None:
        return t(table.lang, "table.paused_line", since=f"<t:{int(table.paused_at)}:R>")
    if table.since is None or table.deadline is None or st.phase == "over":
        return ""
    seats = waiting_seats(st)
    if not seats:
        return ""
    who = ", ".join(seat_label(st, s) for s in seats)
    return t(table.lang, "table.waits", who=who, since=f"<t:{int(table.since)}:R>",
             deadline=f"<t:{math.ceil(table.deadline)}:R>")


def my_game_line(row: GameRow, user_id: int, lang: str) -> str:
    """A game in `/turista my-games`: where, what it waits for (you or whom), its clock or its pause, and a link
    to its table message."""
    st = row.state
    assert st is not None
    table = row.messages.get("table")
    where = f"<#{row.thread_id or row.channel_id}>"
    if table is not None and table.message_id is not None:
        where = f"[{t(lang, 'mygames.table', id=row.id)}](https://discord.com/channels/{row.guild_id}/" \
                f"{table.channel_id}/{table.message_id})"
    seats = waiting_seats(st)
    mine = row.seat_of(user_id)
    if row.paused_at is not None:
        status = t(lang, "table.paused_line", since=f"<t:{int(row.paused_at)}:R>")
    elif mine is not None and mine in seats:
        status = t(lang, "mygames.yours", what=t(lang, f"waiting.{waiting_for(st, mine)}"))
    else:
        status = t(lang, "mygames.others", who=", ".join(seat_label(st, s) for s in seats) or "—")
    if row.deadline is not None and row.paused_at is None:
        status = f"{status} {t(lang, 'mygames.clock', deadline=f'<t:{math.ceil(row.deadline)}:R>')}"
    return f"• {where}: {status}"


def auction_clock(table: Table) -> str:
    """By correspondence, how an open auction closes: when all but one withdrew, or when its clock runs out; ""
    live (a quiet period closes it)."""
    settings = table.settings
    if not settings.correspondence:
        return ""
    if table.deadline is not None:
        return t(table.lang, "auction.closes_at", deadline=f"<t:{math.ceil(table.deadline)}:R>")
    return t(table.lang, "auction.closes_after", hours=settings.turn_timeout // HOUR)


def prompt(state: State, seats: list[SeatRow], lang: str) -> str:
    """What the game waits for, addressed to whoever must decide."""
    if state.phase == "over":
        return t(lang, "table.over", seat=seat_label(state, state.winner))
    if state.debts:
        debt = state.debts[0]
        creditor = text(lang, "event.party.bank") if debt.creditor < 0 else state.seats[debt.creditor].name
        # How much selling and mortgaging can still bring: bankruptcy only when it cannot cover the debt.
        short = sum(d.amount for d in state.debts if d.debtor == debt.debtor) - state.seats[debt.debtor].cash
        can_raise = raisable(state, debt.debtor)
        return t(lang, "table.debt" if can_raise >= short else "table.debt_short",
                 who=mention(seats, debt.debtor) or seat_label(state, debt.debtor), amount=cash(state, debt.amount),
                 creditor=creditor, cash=cash(state, state.seats[debt.debtor].cash), raisable=cash(state, can_raise))
    if state.lift is not None:
        seat = state.lift.seat
        if state.seats[seat].computer:
            return t(lang, "table.thinking", who=state.seats[seat].name)
        return t(lang, "table.lift", who=mention(seats, seat) or seat_label(state, seat))
    if state.auction is not None:
        return t(lang, "table.auction", square=square_name(state.edition, state.auction.square, lang))
    if state.trade is not None:
        # The game waits for the offer's answer, not for the seat whose turn it is (who may have made it).
        target, proposer = state.trade.target, state.trade.proposer
        if state.seats[target].computer:
            return t(lang, "table.thinking", who=state.seats[target].name)
        return t(lang, "table.trade", who=mention(seats, target) or seat_label(state, target),
                 proposer=seat_label(state, proposer))
    seat = state.current
    if state.seats[seat].computer:
        return t(lang, "table.thinking", who=state.seats[seat].name)
    who = mention(seats, seat) or seat_label(state, seat)
    if state.phase == "buy":
        pos = state.seats[seat].pos
        return t(lang, "table.buy", who=who, square=square_name(state.edition, pos, lang),
                 price=cash(state, edition_of(state).squares[pos].price), cash=cash(state, state.seats[seat].cash))
    if state.phase == "customs":
        return t(lang, "table.customs", who=who)
    if state.phase == "end":
        return _end_of_turn(state, seat, who, lang)
    if state.seats[seat].jailed:
        fine = cash(state, edition_of(state).economy.jail_fine)
        return t(lang, "table.jail", variant=state.edition, who=who, fine=fine, jail=jail_name(state.edition, lang))
    return t(lang, "table.roll", who=who, cash=cash(state, state.seats[seat].cash))


# What the end of a turn may still hold, in the order the prompt names them.
END_OF_TURN_KINDS = ("build", "propose_trade", "mortgage")
_NOT_ASKED = frozenset(KINDS) - frozenset(END_OF_TURN_KINDS)


def _end_of_turn(state: State, seat: int, who: str, lang: str) -> str:
    """"you may build, trade or mortgage" names only what the seat may do now (no block: no building; the
    trading window closed: no trade); with none of them, only the end of the turn is left."""
    may = legal_kinds(state, seat, _NOT_ASKED)
    verbs = [t(lang, f"table.may.{kind}") for kind in END_OF_TURN_KINDS if kind in may]
    if not verbs:
        return t(lang, "table.end_only", who=who)
    shown = verbs[0] if len(verbs) == 1 else f"{', '.join(verbs[:-1])} {t(lang, 'table.or')} {verbs[-1]}"
    return t(lang, "table.end", who=who, actions=shown)


def turn_header(state: State, events: list[dict], lang: str) -> str:
    started = next((e for e in events if e["code"] == "turn_started"), None)
    seat = started["seat"] if started else state.current
    turn = started["turn"] if started else state.turn
    return t(lang, "table.header", turn=turn, seat=seat_label(state, seat))


def offer_text(state: State, titles: tuple[int, ...] | list[int], amount: int, cards: int, lang: str) -> str:
    return narrate_offer(state, titles, amount, cards, lang, mark_mortgaged=True)
