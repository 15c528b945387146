"""Trades through the builder (accepted, rejected, countered), then building, selling and mortgages."""

from __future__ import annotations

from devkit.world import World
from engine import State, edition_of
from fakediscord import FakeMessage, FakeUser
from fakediscord.models import IS_COMPONENTS_V2
from words import square_name


def tradable_block(st: State) -> tuple[str, int, list[int]] | None:
    """A block split between the two people, none of it the bank's: (block, taker, squares to get)."""
    ed = edition_of(st)
    for block, squares in ed.blocks.items():
        owners = {st.owner[i] for i in squares}
        if -1 in owners or len(owners) != 2 or any(st.level[i] or st.mortgaged[i] for i in squares):
            continue
        taker = st.current
        if taker not in owners:
            continue
        return block, taker, [i for i in squares if st.owner[i] != taker]
    return None


async def open_builder(world: World, gid: int, user: FakeUser, target: FakeUser) -> FakeMessage:
    table = world.table()
    assert table is not None
    picker = await world.click(user, table, "trade")
    assert picker.ephemeral and picker.message is not None
    row = world.game(gid)
    target_seat = row.seat_of(target.id)
    builder = await (await world.fake.select(user, picker.message, picker.message.custom_ids()[0], [str(target_seat)]))
    assert builder.response_type == 7
    assert picker.message.custom_ids()  # the same private message now holds the builder
    return picker.message



async def newest_table(world: World, gid: int) -> FakeMessage:
    """The table once it shows the game's newest version: commands in a row spend the channel's rate limit, and
    the table's edit waits for it (a command's answer does not)."""
    def shown() -> FakeMessage | None:
        table = world.table()
        return table if table is not None and world.version_of(table) == world.game(gid).version else None

    return await world.fake.wait_for(shown, timeout=10, what="the table to show the newest version")

async def test_trades_then_build_sell_and_mortgage(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    await world.start(gid, world.ana)
    # Buy while keeping a reserve, so there is money left to build.
    st = await world.play_until(gid, lambda st: st.phase == "end" and tradable_block(st) is not None, steps=3000,
                                buy=lambda st: st.seats[st.current].cash > 90000)
    found = tradable_block(st)
    assert found is not None
    block, taker, wanted = found
    me = world.user_of(gid, taker)
    them = world.user_of(gid, 1 - taker)

    # 1. Asking for the titles for nothing is a gift, which the rules forbid; a first real offer pays too
    # little and is rejected.
    builder = await open_builder(world, gid, me, them)
    take = next(c for c in builder.custom_ids() if ":trade_take:" in c)
    await (await world.fake.select(me, builder, take, [str(i) for i in wanted]))
    gift = await world.click(me, builder, "trade_send")
    assert gift.ephemeral and "regalar" in (gift.content or "")
    money = await world.click(me, builder, "trade_money")
    assert money.modal is not None
    bad = await (await world.fake.submit_modal(me, world.channel, money.modal["custom_id"],
                                               {"give_cash": "-100", "take_cash": "0"}))
    assert bad.ephemeral and "número" in (bad.content or "")
    edited = await (await world.fake.submit_modal(me, world.channel, money.modal["custom_id"],
                                                  {"give_cash": "1,000", "take_cash": "0"}))
    assert edited.response_type == 7 and "$1,000" in builder.content  # the builder itself shows the cash
    await world.act(gid, me, builder, "trade_send")
    # The private builder becomes the account of the offer: no Send left to press twice.
    await world.fake.wait_for(lambda: not builder.custom_ids(), what="the builder to lose its buttons")
    st = await world.settled(gid)
    assert st.trade is not None and st.trade.give.cash == 1000
    offer = world.with_verb("accept_trade")
    assert offer is not None and "🤝" in offer.text
    # Only the person who must answer is pinged: by the offer itself, or beside a layout by a plain message just
    # before it (a mention in a layout notifies with an empty text).
    pinging = offer
    if offer.flags & IS_COMPONENTS_V2:
        messages = world.bot_messages()
        pinging = messages[messages.index(offer) - 1]
        assert not offer.pings().users and not pinging.components and "🤝" in pinging.content
    assert pinging.pings().users == {them.id}, pinging.allowed_mentions
    # Only the receiver answers; a bystander is refused.
    refused = await world.click(world.dora, offer, "accept_trade")
    assert refused.ephemeral
    await world.act(gid, them, offer, "reject_trade")
    st = await world.settled(gid)
    assert st.trade is None and not offer.custom_ids()

    # 2. A second offer is countered by the receiver, and the counter is accepted.
    builder = await open_builder(world, gid, me, them)
    take = next(c for c in builder.custom_ids() if ":trade_take:" in c)
    await (await world.fake.select(me, builder, take, [str(i) for i in wanted]))
    money = await world.click(me, builder, "trade_money")
    assert money.modal is not None
    await (await world.fake.submit_modal(me, world.channel, money.modal["custom_id"], {"give_cash": "200"}))
    await world.act(gid, me, builder, "trade_send")
    st = await world.settled(gid)
    offer = world.with_verb("counter")
    assert offer is not None
    countered = await world.click(them, offer, "counter")
    assert countered.ephemeral and countered.message is not None
    money = await world.click(them, countered.message, "trade_money")
    assert money.modal is not None
    await (await world.fake.submit_modal(them, world.channel, money.modal["custom_id"], {"take_cash": "500"}))
    await world.act(gid, them, countered.message, "trade_send")
    # A counter-offer is two moves: the first offer is turned down, then the new one is made; its message says
    # it was countered, not simply rejected.
    await world.fake.wait_for(lambda: (world.game(gid).state.trade or st.trade).proposer == 1 - taker,
                              what="the counter-offer")
    st = await world.settled(gid)
    assert "Contraoferta" in offer.text and "rechazado" not in offer.text and not offer.custom_ids(), offer.text
    assert st.trade is not None and st.trade.proposer == 1 - taker and st.trade.give.titles == tuple(sorted(wanted))
    offer = world.with_verb("accept_trade")
    assert offer is not None
    await world.act(gid, me, offer, "accept_trade")
    st = await world.settled(gid)
    # Settled in public: the offer's message turns into its outcome, and the table's account keeps which
    # titles and cash moved, both ways.
    moved = [str(square_name(st.edition, i, "es")) for i in wanted]
    table = world.table()
    assert table is not None and "Trato cerrado entre" in table.text, table.text
    assert all(name in table.text for name in moved) and "$500" in table.text, table.text
    assert not offer.custom_ids() and "Trato cerrado" in offer.text
    # Both sides, each under "X da:" (an embed's two fields, or a layout's two lines).
    assert offer.text.count(" da") >= 2 and all(name in offer.text for name in moved), offer.text
    ed = edition_of(st)
    squares = list(ed.blocks[block])
    assert all(st.owner[i] == taker for i in squares)

    # Build… opens a private menu of where building is possible; picking builds one.
    table = world.table()
    assert table is not None
    menu = await world.fake.click(me, table, world.custom_id_for(table, "menu", "build"))
    await menu.wait()
    assert menu.ephemeral and menu.message is not None
    options = [o["value"] for o in menu.message.component(type=3)["options"]]
    assert set(map(int, options)) <= set(squares)
    picked = await (await world.fake.select(me, menu.message, menu.message.custom_ids()[0], [options[0]]))
    assert picked.response_type == 6
    await world.fake.wait_for(lambda: world.game(gid).state.level[int(options[0])] == 1, what="a building")

    # The menu stays open on the new version, with a pick that builds evenly up to a level on the whole block.
    def even_pick() -> str | None:
        return next((c for c in menu.message.custom_ids() if c.endswith(":pick:build_even")), None)

    await world.fake.wait_for(lambda: even_pick() and world.version_of(menu.message) == world.game(gid).version,
                              what="the build menu refreshed")
    even = next(c for c in menu.message.all_components() if c.get("custom_id") == even_pick())
    level_one = next(o["value"] for o in even["options"] if o["value"].endswith(":1"))
    await (await world.fake.select(me, menu.message, even_pick(), [level_one]))
    await world.fake.wait_for(lambda: all(world.game(gid).state.level[i] == 1 for i in squares),
                              what="a restaurant on each title of the block")

    # /build with autocomplete and a count builds evenly across the block.
    choices = await world.fake.autocomplete(me, world.channel, "build", focused="property")
    assert choices and {int(c["value"]) for c in choices} <= set(squares), (choices, squares)
    answer = await world.slash(me, "build", property=choices[0]["value"], count=2)
    await answer.wait_message()
    levels = [world.game(gid).state.level[i] for i in squares]
    assert sum(levels) == len(squares) + 2 and max(levels) - min(levels) <= 1

    # Sell… from the table's menu sells one back, evenly: only the highest squares are offered.
    table = world.table()
    assert table is not None
    menu = await world.fake.click(me, table, world.custom_id_for(table, "menu", "sell"))
    await menu.wait()
    assert menu.ephemeral and menu.message is not None
    st = world.game(gid).state
    offered = [int(o["value"]) for o in menu.message.component(type=3)["options"]]
    assert offered and all(st.level[i] == max(st.level[j] for j in squares) for i in offered)
    await (await world.fake.select(me, menu.message, menu.message.custom_ids()[0], [str(offered[0])]))
    await world.fake.wait_for(lambda: sum(world.game(gid).state.level[i] for i in squares) == len(squares) + 1,
                              what="a sale")
    # The menu is refreshed: only what may be sold now is offered.
    await world.fake.wait_for(lambda: menu.message.custom_ids()
                              and world.version_of(menu.message) == world.game(gid).version,
                              what="the sell menu refreshed")
    st = world.game(gid).state
    offered = [int(o["value"]) for o in menu.message.component(type=3)["options"]]
    assert offered and all(st.level[i] == max(st.level[j] for j in squares) for i in offered)

    # /sell by name until the block is empty again.
    for _ in range(len(squares) + 1):
        st = world.game(gid).state
        highest = max(squares, key=lambda i: st.level[i])
        answer = await world.slash(me, "sell", property=str(highest))
        await answer.wait_message()
    assert all(world.game(gid).state.level[i] == 0 for i in squares)

    # Mortgage… from the table's menu, then /unmortgage by its name with autocomplete.
    table = await newest_table(world, gid)
    menu = await world.fake.click(me, table, world.custom_id_for(table, "menu", "mortgage"))
    await menu.wait()
    assert menu.message is not None
    square = next(o["value"] for o in menu.message.component(type=3)["options"] if int(o["value"]) in squares)
    await (await world.fake.select(me, menu.message, menu.message.custom_ids()[0], [square]))
    await world.fake.wait_for(lambda: world.game(gid).state.mortgaged[int(square)], what="a mortgage")
    # The menu is refreshed (or closed when nothing is left): the mortgaged title is no longer offered.
    await world.fake.wait_for(lambda: not menu.message.custom_ids()
                              or world.version_of(menu.message) == world.game(gid).version, what="the menu refreshed")
    assert square not in [o["value"] for c in menu.message.all_components() for o in c.get("options", [])]
    choices = await world.fake.autocomplete(me, world.channel, "unmortgage", focused="property")
    assert square in [c["value"] for c in choices]
    name = next(c["name"] for c in choices if c["value"] == square)
    answer = await world.slash(me, "unmortgage", property=name)
    message = await answer.wait_message()
    assert "⚠️" not in message.content
    assert not world.game(gid).state.mortgaged[int(square)]

    # Mortgage again by command, then lift it from the table's Lift mortgage… menu.
    answer = await world.slash(me, "mortgage", property=name)
    await answer.wait_message()
    assert world.game(gid).state.mortgaged[int(square)]
    table = await newest_table(world, gid)
    menu = await world.fake.click(me, table, world.custom_id_for(table, "menu", "unmortgage"))
    await menu.wait()
    assert menu.ephemeral and menu.message is not None
    assert square in [o["value"] for o in menu.message.component(type=3)["options"]]
    await (await world.fake.select(me, menu.message, menu.message.custom_ids()[0], [square]))
    await world.fake.wait_for(lambda: not world.game(gid).state.mortgaged[int(square)], what="a lifted mortgage")
    # The private menu becomes the account of what was done.
    await world.fake.wait_for(lambda: not menu.message.custom_ids(), what="the menu answered")
    assert "⚠️" not in menu.message.content
