"""Which components each message carries and the texts they share with `bot.face.embeds`, from the game only.

Every component's custom_id carries the game and the state version it was drawn for (see `bot.face.ids`).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.face import components
from bot.face.i18n import t
from bot.store import GameRow, SeatRow, engine_settings
from engine import Action, State, available, board, edition_of, legal_actions, legal_kinds, load
from engine.actions import KINDS
from engine.ai.levels import LEVELS as COMPUTER_LEVELS
from engine.i18n import money, text
from engine.legal import refusal, unmortgage_cost
from engine.narrate import jail_name, square_name
from engine.narrate import offer_text as narrate_offer
from engine.rulebook import settle

Style = discord.ButtonStyle
MENU_KINDS = ("build", "sell", "mortgage", "unmortgage", "sell_title", "take_loan", "title_to_bank")
# What the table's lower rows offer whoever may do it: a menu of each of these kinds, and a trade proposal.
OFFERED_TO_ANYONE = frozenset((*MENU_KINDS, "propose_trade"))
NOT_OFFERED_TO_ANYONE = KINDS - OFFERED_TO_ANYONE
MAX_SEATS = 6
TIME_LIMITS = (0, 30, 45, 60, 90, 120, 180)  # minutes
TURN_TIMEOUTS = (0, 60, 120, 300, 600)  # seconds
DEFAULT_TURN_TIMEOUT = 120  # one absent friend never stalls a table; 0 (none) is a house rule
TOGGLES = (
    "auction_on_decline", "free_parking_pot", "double_rent_with_mortgaged", "trading_window", "club_loans",
    "staggered_start", "auction_only", "no_rent_in_jail", "random_order", "deal_titles",
    "doubles_roll_again", "three_doubles_jail", "mortgage_interest", "even_building", "thread",
)
BOT_SWITCHES = {"thread": True}  # the bot's own switches (not engine rules) and their defaults
LIFT_BUTTONS = 4  # inherited mortgages offered as buttons; more go through the Lift mortgage… menu
ENDINGS = ("last", "bankruptcy2", "turns30", "turns60", "turns100")


def cash(state: State | str, amount: int) -> str:
    edition = state if isinstance(state, str) else state.edition
    return money(amount, load(edition).currency)


def seat_label(state: State, seat: int) -> str:
    person = state.seats[seat]
    return f"🤖 {person.name}" if person.computer else person.name


def mention(row_seats: list[SeatRow], seat: int) -> str:
    user = next((s.user_id for s in row_seats if s.seat == seat), None)
    return f"<@{user}>" if user else ""


# -- the lobby ---------------------------------------------------------------------------------------
def settings_summary(settings: dict[str, Any], edition: str, lang: str) -> list[str]:
    s = engine_settings(settings)
    edition = str(settings.get("edition") or edition)
    ed = load(edition)
    lines = [t(lang, "settings.edition", name=text(lang, f"edition.{edition}.name"))]
    lines.append(
        t(lang, "settings.time_limit", minutes=s.time_limit) if s.time_limit else t(lang, "settings.no_time_limit")
    )
    timeout = int(settings.get("turn_timeout", 0))
    lines.append(t(lang, "settings.turn_timeout", seconds=timeout) if timeout else t(lang, "settings.no_turn_timeout"))
    lines.append(t(lang, "settings.start_cash", amount=money(s.start_cash or ed.economy.start_cash, ed.currency)))
    on = [t(lang, f"rule.{name}") for name in TOGGLES if toggle_value(settings, ed, name)]
    lines.append(t(lang, "settings.rules", rules=", ".join(on) if on else t(lang, "settings.none")))
    lines.append(t(lang, f"ending.{ending_of(settings)}"))
    return lines


def toggle_value(settings: dict[str, Any], ed: Any, name: str) -> bool:
    """Whether the switch `name` is on for a game about to start with these lobby settings."""
    if name == "deal_titles":
        return bool(settings.get("deal_titles", 0))
    if name in BOT_SWITCHES:
        return bool(settings.get(name, BOT_SWITCHES[name]))
    # What a new game of `ed` would store: the edition's rules under the house rules chosen so far.
    return bool(getattr(settle(ed, engine_settings(settings)), name))


def ending_of(settings: dict[str, Any]) -> str:
    if settings.get("end_at_bankruptcy"):
        return "bankruptcy2"
    turns = int(settings.get("max_turns", 0))
    return f"turns{turns}" if f"turns{turns}" in ENDINGS else "last"


def lobby_seat(seat: SeatRow, lang: str) -> str:
    if seat.computer:
        return f"🤖 {seat.name} ({t(lang, f'level.{seat.computer}')})"
    return seat.name


def lobby_view(row: GameRow, lang: str) -> discord.ui.View:
    """The lobby's buttons (its text is `bot.face.embeds.lobby`)."""
    g = row.id
    items = [
        components.button(g, 0, "join", t(lang, "button.join"), style=Style.success, emoji="🙋"),
        components.button(g, 0, "leave", t(lang, "button.leave"), emoji="🚪"),
        components.button(g, 0, "addbot", t(lang, "button.addbot"), emoji="🤖"),
        components.button(g, 0, "settings", t(lang, "button.settings"), emoji="⚙️"),
        components.button(g, 0, "start", t(lang, "button.start"), style=Style.primary, emoji="🎲",
                  disabled=len(row.seats) < 2),
    ]
    levels = [components.option(t(lang, f"level.{level}"), level) for level in COMPUTER_LEVELS]
    items.append(components.select(g, 0, "addbot", t(lang, "lobby.pick_level"), levels, arg="level", row=1))
    if any(s.computer for s in row.seats):
        items.append(components.button(g, 0, "dropbot", t(lang, "button.dropbot"), emoji="➖", row=2))
    return components.view(*items)


def settings_view(row: GameRow, lang: str) -> discord.ui.View:
    g, s = row.id, row.settings
    edition = str(s.get("edition") or row.edition)
    ed = load(edition)
    editions = [components.option(text(lang, f"edition.{e}.name"), e, default=e == edition) for e in available()]
    limit = int(s.get("time_limit", 0))
    limits = [components.option(t(lang, "settings.time_limit", minutes=m) if m else t(lang, "settings.no_time_limit"),
                                m,
                        default=m == limit) for m in TIME_LIMITS]
    timeout = int(s.get("turn_timeout", 0))
    timeouts = [components.option(t(lang, "settings.turn_timeout", seconds=x) if x
                                  else t(lang, "settings.no_turn_timeout"),
                          x, default=x == timeout) for x in TURN_TIMEOUTS]
    toggles = [components.option(t(lang, f"rule.{n}"), n, description=t(lang, f"rule.help.{n}"),
                         default=toggle_value(s, ed, n)) for n in TOGGLES]
    endings = [components.option(t(lang, f"ending.{e}"), e, default=e == ending_of(s)) for e in ENDINGS]
    return components.view(
        components.select(g, 0, "set", t(lang, "settings.pick_edition"), editions, arg="edition", row=0),
        components.select(g, 0, "set", t(lang, "settings.pick_time_limit"), limits, arg="time_limit", row=1),
        components.select(g, 0, "set", t(lang, "settings.pick_turn_timeout"), timeouts, arg="turn_timeout", row=2),
        components.select(g, 0, "set", t(lang, "settings.pick_rules"), toggles, arg="rules", min_values=0,
                  max_values=len(toggles), row=3),
        components.select(g, 0, "set", t(lang, "settings.pick_ending"), endings, arg="ending", row=4),
    )


# -- the table ---------------------------------------------------------------------------------------
def prompt(state: State, seats: list[SeatRow], lang: str) -> str:
    """What the game waits for, addressed to whoever must decide."""
    if state.phase == "over":
        return t(lang, "table.over", seat=seat_label(state, state.winner))
    if state.debts:
        debt = state.debts[0]
        creditor = text(lang, "event.party.bank") if debt.creditor < 0 else state.seats[debt.creditor].name
        # How much selling and mortgaging can still bring: bankruptcy only when it cannot cover the debt.
        short = sum(d.amount for d in state.debts if d.debtor == debt.debtor) - state.seats[debt.debtor].cash
        raisable = board.raisable(state, edition_of(state), debt.debtor)
        return t(lang, "table.debt" if raisable >= short else "table.debt_short",
                 who=mention(seats, debt.debtor) or seat_label(state, debt.debtor), amount=cash(state, debt.amount),
                 creditor=creditor, cash=cash(state, state.seats[debt.debtor].cash), raisable=cash(state, raisable))
    if state.lift is not None:
        seat = state.lift.seat
        if state.seats[seat].computer:
            return t(lang, "table.thinking", who=state.seats[seat].name)
        return t(lang, "table.lift", who=mention(seats, seat) or seat_label(state, seat))
    if state.auction is not None:
        return t(lang, "table.auction", square=square_name(state.edition, state.auction.square, lang))
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
        return t(lang, "table.end", who=who)
    if state.seats[seat].jailed:
        fine = cash(state, edition_of(state).economy.jail_fine)
        return t(lang, "table.jail", variant=state.edition, who=who, fine=fine, jail=jail_name(state.edition, lang))
    return t(lang, "table.roll", who=who, cash=cash(state, state.seats[seat].cash))


def turn_header(state: State, events: list[dict], lang: str) -> str:
    started = next((e for e in events if e["code"] == "turn_started"), None)
    seat = started["seat"] if started else state.current
    turn = started["turn"] if started else state.turn
    return t(lang, "table.header", turn=turn, seat=seat_label(state, seat))


def _kinds_of_anyone(state: State, own: set[str]) -> set[str]:
    """Which of the kinds the table offers to anyone (`OFFERED_TO_ANYONE`) some seat may do now, given `own`,
    what the seat to act may: the other seats are only asked about those kinds, and only about the ones not
    found yet."""
    anyone = own & OFFERED_TO_ANYONE
    for seat in range(len(state.seats)):
        if seat != state.current:
            anyone |= legal_kinds(state, seat, NOT_OFFERED_TO_ANYONE | anyone)
    return anyone


def table_view(game: int, state: State, lang: str) -> components.Rows | None:
    """The table's buttons: the decision of the turn on the first row, what anyone may do below."""
    if state.phase == "over":
        return None
    v = state.version
    ed = edition_of(state)
    first: list[dict] = []
    if state.debts:
        debtor = state.debts[0].debtor
        # A computer settles its own debts: nobody gets buttons for them.
        mine = set() if state.seats[debtor].computer else legal_kinds(state, debtor)
        for kind in ("sell", "mortgage", "sell_title", "title_to_bank"):
            if kind in mine:
                first.append(components.button_json(game, v, "menu", t(lang, f"button.{kind}"), arg=kind, row=0))
        if "propose_trade" in mine:
            first.append(components.button_json(game, v, "trade", t(lang, "button.trade"), emoji="🤝", row=0))
        # Offered only once selling and mortgaging everything could not pay (the engine refuses it before).
        if "bankrupt" in mine:
            first.append(components.button_json(game, v, "bankrupt", t(lang, "button.bankrupt"), style=Style.danger,
                                        emoji="💸", row=0))
        return components.Rows(*first, components.button_json(game, v, "status", t(lang, "button.status"), emoji="📋",
                                                              row=1))
    if state.lift is not None:
        return components.Rows(*_lift_buttons(game, state, lang),
                       components.button_json(game, v, "status", t(lang, "button.status"), emoji="📋", row=1))
    current = legal_kinds(state, state.current)
    kinds_anyone = _kinds_of_anyone(state, current)
    # A computer's own decisions get no buttons: it plays them itself, at a human pace.
    if state.auction is None and not state.seats[state.current].computer:
        seat = state.seats[state.current]
        if "roll" in current:
            label = t(lang, "button.customs_roll") if state.phase == "customs" else t(lang, "button.roll")
            first.append(components.button_json(game, v, "roll", label, style=Style.primary, emoji="🎲", row=0))
        if state.phase == "buy":
            price = ed.squares[seat.pos].price
            first.append(components.button_json(game, v, "buy", t(lang, "button.buy", price=cash(state, price)),
                                        style=Style.success, emoji="🛒", row=0, disabled="buy" not in current))
            label = "button.decline_auction" if board.rules(state, ed).auction_on_decline else "button.decline"
            first.append(components.button_json(game, v, "decline", t(lang, label), emoji="🔨", row=0))
        if "pay_fine" in current:
            fine = cash(state, ed.economy.jail_fine)
            first.append(components.button_json(game, v, "pay_fine", t(lang, "button.pay_fine", fine=fine), emoji="💵",
                                                row=0))
        if "use_card" in current:
            first.append(components.button_json(game, v, "use_card", t(lang, "button.use_card"), emoji="🎫", row=0))
        if "end_turn" in current:
            first.append(components.button_json(game, v, "end_turn", t(lang, "button.end_turn"), style=Style.primary,
                                        emoji="✅", row=0))
    labels = [(kind, t(lang, f"button.{kind}")) for kind in MENU_KINDS if kind in kinds_anyone]
    rest: list[tuple[str, str, str, str | None]] = [("menu", kind, label, None) for kind, label in labels]
    if "propose_trade" in kinds_anyone:
        rest.append(("trade", "", t(lang, "button.trade"), "🤝"))
    rest.append(("status", "", t(lang, "button.status"), "📋"))
    # Up to five buttons a row, below the row of the turn's own decisions.
    others = [components.button_json(game, v, verb, label, arg=arg, emoji=emoji, row=1 + i // 5)
              for i, (verb, arg, label, emoji) in enumerate(rest)]
    return components.Rows(*first, *others)


def _lift_buttons(game: int, state: State, lang: str) -> list[dict]:
    """The creditor's decision on inherited mortgages: lift one for the mortgage alone, or keep the rest."""
    assert state.lift is not None
    creditor = state.lift.seat
    if state.seats[creditor].computer:
        return []
    mine = legal_actions(state, creditor)
    lifts = [a.square for a in mine if a.kind == "unmortgage" and a.square in state.lift.squares]
    ed = edition_of(state)
    items: list[dict] = []
    for square in lifts[:LIFT_BUTTONS]:
        label = t(lang, "button.lift", square=square_name(state.edition, square, lang),
                  cost=cash(state, unmortgage_cost(state, ed, square)))
        items.append(components.button_json(game, state.version, "lift", label, arg=square, style=Style.primary,
                                            emoji="🔓",
                                    row=0))
    if len(lifts) > LIFT_BUTTONS:
        items = items[: LIFT_BUTTONS - 1]
        items.append(components.button_json(game, state.version, "menu", t(lang, "button.unmortgage"), arg="unmortgage",
                                            row=0))
    if any(a.kind == "keep_mortgaged" for a in mine):
        items.append(components.button_json(game, state.version, "keep_mortgaged", t(lang, "button.keep_mortgaged"),
                                    emoji="📄", row=0))
    return items


def menu_select(game: int, state: State, seat: int, kind: str, lang: str) -> discord.ui.Select | None:
    """The titles `seat` may act on with `kind` now, as a select (None when there are none)."""
    options = []
    for action in legal_actions(state, seat):
        if action.kind != kind:
            continue
        if kind == "take_loan":
            amount = edition_of(state).economy.club_loans[action.block]
            options.append(components.option(text(lang, f"block.{action.block}"), action.block,
                                     description=t(lang, "menu.hint.take_loan", amount=cash(state, amount))))
            continue
        options.append(components.option(square_name(state.edition, action.square, lang), action.square,
                                 description=menu_hint(state, kind, action.square, lang)))
    if not options:
        return None
    return components.select(game, state.version, "pick", t(lang, f"menu.{kind}"), options, arg=kind)


def even_builds(state: State, seat: int) -> list[tuple[str, int, list[Action], int]]:
    """Whole blocks `seat` can bring up to the same level now, two buildings or more at once: (block, level,
    the actions that do it, their cost). Each plan is tried on the engine, so only what it accepts is offered."""
    from engine import HOTEL
    from engine.rules import apply as engine_apply

    ed = edition_of(state)
    even = board.rules(state, ed).even_building
    blocks = dict.fromkeys(ed.squares[a.square].block for a in legal_actions(state, seat) if a.kind == "build")
    found = []
    for block in blocks:
        squares = ed.blocks[block]
        for level in range(min(state.level[j] for j in squares) + 1, HOTEL + 1):
            if sum(max(0, level - state.level[j]) for j in squares) < 2:
                continue
            after, plan = state, []
            while (short := [j for j in squares if after.level[j] < level]) and len(plan) <= 3 * HOTEL:
                if even:
                    # The engine builds evenly from the lowest title, at most a hotel's worth per action.
                    first = min(short, key=lambda j: (after.level[j], j))
                    count = min(HOTEL, sum(level - after.level[j] for j in short))
                    action = Action(kind="build", seat=seat, square=first, count=count)
                else:
                    action = Action(kind="build", seat=seat, square=short[0], count=level - after.level[short[0]])
                if refusal(after, ed, action) is not None:
                    break
                after, _ = engine_apply(after, action)
                plan.append(action)
            if short:
                break  # a block that cannot reach this level reaches no higher one either
            found.append((block, level, plan, state.seats[seat].cash - after.seats[seat].cash))
    return found


def menu_items(game: int, state: State, seat: int, kind: str, lang: str) -> list[discord.ui.Item]:
    """A private menu's selects: the titles for `kind`, and for building, whole blocks at once."""
    items: list[discord.ui.Item] = [s for s in (menu_select(game, state, seat, kind, lang),) if s is not None]
    if kind == "build" and items and (even := even_build_select(game, state, seat, lang)) is not None:
        items.append(even)
    return items


def even_build_select(game: int, state: State, seat: int, lang: str) -> discord.ui.Select | None:
    """Build evenly up to N on a whole block, in one pick."""
    options = [components.option(t(lang, "menu.even_option", variant=state.edition, block=text(lang, f"block.{block}"),
                           level=text(lang, f"event.level.{level}", variant=state.edition)),
                         f"{block}:{level}", description=t(lang, "menu.hint.build_even", cost=cash(state, cost)))
               for block, level, _, cost in even_builds(state, seat)]
    if not options:
        return None
    return components.select(game, state.version, "pick", t(lang, "menu.build_even"), options, arg="build_even")


def no_menu_reason(state: State, seat: int, kind: str, lang: str) -> str:
    """Why a private menu has nothing to offer; for a Club loan, the engine's own reason when there is one."""
    if kind == "take_loan":
        ed = edition_of(state)
        for block in ed.economy.club_loans:
            why = refusal(state, ed, Action(kind="take_loan", seat=seat, block=block))
            if why is not None and why[0] in ("loans_off", "not_a_member", "in_debt"):
                return text(lang, f"error.{why[0]}", variant=state.edition, **why[1])
    return t(lang, f"menu.none.{kind}")


def menu_hint(state: State, kind: str, square: int, lang: str) -> str:
    ed = edition_of(state)
    sq = ed.squares[square]
    level = state.level[square]
    if kind == "build":
        return t(lang, "menu.hint.build", cost=cash(state, board.building_cost(sq, level + 1)), level=level)
    if kind == "sell":
        value = (sq.hotel_cost if level == 5 else sq.house_cost) // 2
        return t(lang, "menu.hint.sell", value=cash(state, value), level=level)
    if kind == "mortgage":
        return t(lang, "menu.hint.mortgage", value=cash(state, sq.mortgage))
    if kind == "unmortgage":
        return t(lang, "menu.hint.unmortgage", cost=cash(state, unmortgage_cost(state, ed, square)))
    if kind == "title_to_bank":
        return t(lang, "menu.hint.title_to_bank", value=cash(state, board.title_to_bank_value(state, ed, square)))
    return t(lang, "menu.hint.sell_title", value=cash(state, board.title_value(state, ed, square)))


# -- auctions ----------------------------------------------------------------------------------------
def auction_view(game: int, state: State, lang: str) -> discord.ui.View | None:
    au = state.auction
    if au is None:
        return None
    v = state.version
    base = max(au.bid, au.minimum - 1)
    items = [
        components.button(game, v, "bid", f"+{cash(state, step)}", arg=base + step, style=Style.primary)
        for step in edition_of(state).economy.bid_steps
    ]
    items.append(components.button(game, v, "bid_custom", t(lang, "button.bid_custom"), emoji="✏️"))
    items.append(components.button(game, v, "pass_bid", t(lang, "button.pass_bid"), style=Style.danger))
    return components.view(*items)


# -- trades ------------------------------------------------------------------------------------------
def offer_text(state: State, titles: tuple[int, ...] | list[int], amount: int, cards: int, lang: str) -> str:
    return narrate_offer(state, titles, amount, cards, lang, mark_mortgaged=True)


def trade_view(game: int, state: State, lang: str) -> discord.ui.View | None:
    if state.trade is None:
        return None
    v = state.version
    return components.view(
        components.button(game, v, "accept_trade", t(lang, "button.accept"), style=Style.success, emoji="✅"),
        components.button(game, v, "reject_trade", t(lang, "button.reject"), style=Style.danger, emoji="✖️"),
        components.button(game, v, "counter", t(lang, "button.counter"), emoji="🔁"),
        components.button(game, v, "cancel_trade", t(lang, "button.cancel_trade")),
    )
