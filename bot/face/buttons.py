"""Which buttons each message carries (their words are `bot.face.texts`): the lobby, its house rules, the table,
an auction, a trade offer. Every component's custom_id carries the game and the state version it was drawn for (see
`bot.face.ids`), and its verb is one that `bot.handlers` declares.
"""

from __future__ import annotations

import discord

from bot.face import components
from bot.face.i18n import t
from bot.face.menus import MENU_KINDS
from bot.face.texts import cash, time_per_decision
from bot.store import GameRow
from bot.table.settings import ENDINGS, TIME_LIMITS, TOGGLES, TURN_TIMEOUTS, TableSettings
from engine import (
    KINDS,
    State,
    available,
    edition_of,
    legal_actions,
    legal_kinds,
    load,
    rules_in_force,
    unmortgage_cost,
)
from engine import LEVELS as COMPUTER_LEVELS
from words import square_name, text

Style = discord.ButtonStyle
# What the table's lower rows offer whoever may do it: a menu of each of these kinds, and a trade proposal.
OFFERED_TO_ANYONE = frozenset((*MENU_KINDS, "propose_trade"))
NOT_OFFERED_TO_ANYONE = KINDS - OFFERED_TO_ANYONE
LIFT_BUTTONS = 4  # inherited mortgages offered as buttons; more go through the Lift mortgage… menu


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
    """The house rules' selects, for the host of a table in its lobby."""
    g, settings = row.id, TableSettings(row.settings)
    edition = settings.edition(row.edition)
    ed = load(edition)
    editions = [components.option(text(lang, f"edition.{e}.name"), e, default=e == edition) for e in available()]
    limit = settings.time_limit
    limits = [components.option(t(lang, "settings.time_limit", minutes=m) if m else t(lang, "settings.no_time_limit"),
                                m, default=m == limit) for m in TIME_LIMITS]
    timeout = settings.turn_timeout
    timeouts = [components.option(time_per_decision(x, lang), x, default=x == timeout) for x in TURN_TIMEOUTS]
    toggles = [components.option(t(lang, f"rule.{n}"), n, description=t(lang, f"rule.help.{n}"),
                                 default=settings.switch(ed, n)) for n in TOGGLES]
    endings = [components.option(t(lang, f"ending.{e}"), e, default=e == settings.ending) for e in ENDINGS]
    return components.view(
        components.select(g, 0, "set", t(lang, "settings.pick_edition"), editions, arg="edition", row=0),
        components.select(g, 0, "set", t(lang, "settings.pick_time_limit"), limits, arg="time_limit", row=1),
        components.select(g, 0, "set", t(lang, "settings.pick_turn_timeout"), timeouts, arg="turn_timeout", row=2),
        components.select(g, 0, "set", t(lang, "settings.pick_rules"), toggles, arg="rules", min_values=0,
                          max_values=len(toggles), row=3),
        components.select(g, 0, "set", t(lang, "settings.pick_ending"), endings, arg="ending", row=4),
    )


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
            label = "button.decline_auction" if rules_in_force(state).auction_on_decline else "button.decline"
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
    items: list[dict] = []
    for square in lifts[:LIFT_BUTTONS]:
        label = t(lang, "button.lift", square=square_name(state.edition, square, lang),
                  cost=cash(state, unmortgage_cost(state, square)))
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


def auction_view(game: int, state: State, lang: str) -> components.Rows | None:
    """An open auction's buttons: a bid of each of the edition's steps, another amount, withdraw."""
    au = state.auction
    if au is None:
        return None
    v = state.version
    base = max(au.bid, au.minimum - 1)
    items = [
        components.button_json(game, v, "bid", f"+{cash(state, step)}", arg=base + step, style=Style.primary)
        for step in edition_of(state).economy.bid_steps
    ]
    items.append(components.button_json(game, v, "bid_custom", t(lang, "button.bid_custom"), emoji="✏️"))
    items.append(components.button_json(game, v, "pass_bid", t(lang, "button.pass_bid"), style=Style.danger))
    return components.Rows(*items)


def trade_view(game: int, state: State, lang: str) -> components.Rows | None:
    """An offer's buttons: accept, reject, counter, cancel."""
    if state.trade is None:
        return None
    v = state.version
    return components.Rows(
        components.button_json(game, v, "accept_trade", t(lang, "button.accept"), style=Style.success, emoji="✅"),
        components.button_json(game, v, "reject_trade", t(lang, "button.reject"), style=Style.danger, emoji="✖️"),
        components.button_json(game, v, "counter", t(lang, "button.counter"), emoji="🔁"),
        components.button_json(game, v, "cancel_trade", t(lang, "button.cancel_trade")),
    )


def confirmation(game: int, version: int, verb: str, label: str, emoji: str, lang: str) -> discord.ui.View:
    """A private question's answers: do it (`verb`), or leave it (the question goes away, nothing changes)."""
    return components.view(
        components.button(game, version, verb, label, style=Style.danger, emoji=emoji),
        components.button(game, version, "dismiss", t(lang, "button.dismiss")),
    )
