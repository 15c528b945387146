"""Auctions with several bidders, titles managed with menus and commands, jail, debts and bankruptcy."""

from __future__ import annotations

from devkit.world import World
from engine import apply, edition_of, legal_actions
from engine.simulate import Driver
from render import deed


def human_turn(phase: str):  # noqa: ANN201 - a predicate for play_until
    return lambda st: st.phase == phase and not st.seats[st.current].computer and not st.debts


async def test_auction_with_several_bidders(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto, world.dora])
    await world.start(gid, world.ana)
    st = await world.play_until(gid, human_turn("buy"), buy=lambda st: False)
    square = st.seats[st.current].pos
    decliner = world.user_of(gid, st.current)
    await world.act(gid, decliner, world.table(), "decline")  # type: ignore[arg-type]
    st = await world.settled(gid)
    assert st.auction is not None and st.auction.square == square
    auction = world.with_verb("pass_bid")
    assert auction is not None and auction.attachments[0].filename == "deed.png"
    for_sale = auction.attachments[0].data
    bidders = [world.user_of(gid, s) for s in st.auction.active]

    # First bidder: the +step button; second: any amount through the modal.
    await world.act(gid, bidders[0], auction, "bid")
    st = await world.settled(gid)
    assert st.auction is not None and st.auction.bidder == 0 or st.auction.bid > 0
    first_bid = st.auction.bid
    opened = await world.click(bidders[1], auction, "bid_custom")
    assert opened.modal is not None
    too_low = await (await world.fake.submit_modal(bidders[1], world.channel, opened.modal["custom_id"],
                                                   {"amount": str(first_bid)}))
    assert too_low.ephemeral and "mínima" in (too_low.content or "")
    # The modal was drawn for an older version once the first bid landed: open it again on the new one.
    opened = await world.click(bidders[1], auction, "bid_custom")
    assert opened.modal is not None
    raised = await (await world.fake.submit_modal(bidders[1], world.channel, opened.modal["custom_id"],
                                                  {"amount": f"${first_bid + 2500:,}"}))
    assert raised.response_type in (6, 7)  # answered by the auction's edit, or deferred if that was slow
    await world.fake.wait_for(lambda: (world.game(gid).state.auction or st.auction).bid == first_bid + 2500,
                              what="the modal bid")
    st = await world.settled(gid)
    assert st.auction is not None
    assert "$" in auction.text and st.seats[st.auction.bidder].name in auction.text
    # Everybody else withdraws: the highest bidder wins at once.
    for seat in list(st.auction.active):
        if seat != st.auction.bidder:
            await world.act(gid, world.user_of(gid, seat), auction, "pass_bid")
            await world.settled(gid)
    st = await world.settled(gid)
    assert st.auction is None and st.owner[square] >= 0
    assert st.seats[st.owner[square]].cash < 150000
    assert not auction.custom_ids()  # the closed auction keeps its result and loses its buttons
    # Its deed, sent as the bank's title for sale, now names the winner.
    assert auction.attachments[0].data not in (for_sale, deed(st.edition, square, None, "es"))
    assert auction.attachments[0].data == deed(st.edition, square, st, "es")


async def test_jail_pay_fine_and_bail(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    await world.start(gid, world.ana)
    st = await world.play_until(gid, lambda st: human_turn("roll")(st) and st.seats[st.current].jailed, steps=3000)
    table = world.table()
    assert table is not None and world.custom_id_or_none(table, "pay_fine")
    assert "Groenlandia" in table.text
    cash = st.seats[st.current].cash
    user = world.user_of(gid, st.current)
    await world.act(gid, user, table, "use_card" if st.seats[st.current].jail_cards else "pay_fine")
    after = world.game(gid).state
    assert after is not None and not after.seats[st.current].jailed
    assert after.seats[st.current].cash <= cash


async def test_debt_ends_in_bankruptcy(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    st = await world.start(gid, world.ana)
    # Bankruptcy is only for a debt that selling and mortgaging everything cannot pay. With the bot down,
    # both seats play as the computer would, straight into the store, up to such a debt: the table the bot
    # finds on its return.
    await world.bot.stop()
    driver = Driver()
    while not (st.debts and any(a.kind == "bankrupt" for a in legal_actions(st, st.debts[0].debtor))):
        action = driver.next_action(st)
        assert action is not None
        new, events = apply(st, action)
        world.store.apply(gid, st.version, None, action, events, new)
        st = new
    await world.bot.start()
    st = await world.settled(gid)
    debtor = st.debts[0].debtor
    table = world.table()
    assert table is not None
    assert "💸" in table.text and world.custom_id_or_none(table, "bankrupt")
    # Someone else cannot declare it for the debtor.
    other = world.user_of(gid, 1 - debtor)
    refused = await world.click(other, table, "bankrupt")
    assert refused.ephemeral
    # The debtor is asked once more, privately, and nothing happens until they confirm.
    asked = await world.click(world.user_of(gid, debtor), table, "bankrupt")
    assert asked.ephemeral and asked.message is not None and "De verdad" in asked.content, asked.content
    assert world.game(gid).version == st.version
    await world.act(gid, world.user_of(gid, debtor), asked.message, "bankrupt_yes")
    final = await world.settled(gid)
    assert final.seats[debtor].out and final.phase == "over" and final.winner == 1 - debtor
    assert world.game(gid).status == "finished"
    # The confirmation shows the outcome last, after the result is announced: wait for it before stopping.
    confirmation = asked.message
    await world.fake.wait_for(lambda: "De verdad" not in confirmation.content, timeout=10,
                              what="the confirmation to show the outcome")


async def test_a_creditor_lifts_inherited_mortgages_with_the_table_buttons(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto, world.dora])
    st = await world.start(gid, world.ana)
    # With the bot down, the three seats play as the computer would, straight into the store, up to a
    # bankruptcy that hands mortgaged titles to a creditor: the decision the bot finds on its return.
    await world.bot.stop()
    driver = Driver()
    while st.lift is None:
        action = driver.next_action(st)
        assert action is not None, "the game ended before any creditor inherited a mortgage"
        new, events = apply(st, action)
        world.store.apply(gid, st.version, None, action, events, new)
        st = new
    await world.bot.start()
    st = await world.settled(gid)
    assert st.lift is not None
    creditor = world.user_of(gid, st.lift.seat)
    table = world.table()
    assert table is not None and "🔓" in table.text
    # Only the creditor decides.
    bystander = next(u for u in (world.ana, world.beto, world.dora) if u is not creditor)
    refused = await world.click(bystander, table, "keep_mortgaged")
    assert refused.ephemeral
    square = st.lift.squares[0]
    cash = st.seats[st.lift.seat].cash
    mortgage = edition_of(st).squares[square].mortgage
    if cash >= mortgage:
        before = world.game(gid).version
        await world.fake.click(creditor, table, world.custom_id_for(table, "lift", str(square)))
        await world.eventually(lambda: world.game(gid).version > before, what="the lift")
        after = world.game(gid).state
        assert not after.mortgaged[square] and after.seats[st.lift.seat].cash == cash - mortgage
        st = await world.settled(gid)
    if st.lift is not None:
        await world.act(gid, creditor, world.table(), "keep_mortgaged")  # type: ignore[arg-type]
    final = world.game(gid).state
    assert final.lift is None and final.phase != "over"
