"""A game driven by typed commands only, and the buttons the other tests do not press."""

from __future__ import annotations

from devkit.world import World
from engine import State, legal_actions


async def command_step(world: World, gid: int, st: State) -> None:
    """One decision made with slash commands instead of buttons (withdrawing from an auction has no
    command: it is the auction's button)."""
    if st.auction is not None:
        seat = next(s for s in st.auction.active if s != st.auction.bidder)
        user = world.user_of(gid, seat)
        if st.auction.bidder < 0:
            answer = await world.slash(user, "bid", amount=st.auction.minimum + 1000)
        else:
            bidder_table = world.with_verb("pass_bid")
            assert bidder_table is not None
            await world.act(gid, user, bidder_table, "pass_bid")
            return
    elif st.debts:
        debtor = st.debts[0].debtor
        # Bankruptcy only when selling and mortgaging cannot pay; until then, sell or mortgage.
        moves = [a for a in legal_actions(st, debtor) if a.kind in ("bankrupt", "sell", "mortgage")]
        move = min(moves, key=lambda a: ("bankrupt", "sell", "mortgage").index(a.kind))
        options = {} if move.kind == "bankrupt" else {"property": str(move.square)}
        answer = await world.slash(world.user_of(gid, debtor), move.kind, **options)
        if move.kind == "bankrupt":
            # /bankrupt asks once more, privately; the confirmation's button declares it.
            assert answer.ephemeral and answer.message is not None and answer.message.custom_ids(), answer.content
            await world.act(gid, world.user_of(gid, debtor), answer.message, "bankrupt_yes")
            return
    else:
        user = world.user_of(gid, st.current)
        command = {"roll": "roll", "customs": "roll", "end": "endturn"}.get(st.phase)
        if st.phase == "buy":
            command = "buy" if st.seats[st.current].cash > 100000 else "decline"
        elif st.phase == "roll" and st.seats[st.current].jailed:
            command = "bail"
        assert command is not None
        answer = await world.slash(user, command)
    message = await answer.wait_message()
    assert answer.ephemeral and "⚠️" not in message.content, message.content


async def test_a_game_played_with_commands_only(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    st = await world.start(gid, world.ana)
    # Commands that do not apply now are refused privately.
    answer = await world.slash(world.user_of(gid, st.current), "endturn")
    assert answer.ephemeral
    assert "⚠️" in (await answer.wait_message()).content
    answer = await world.slash(world.user_of(gid, st.current), "bankrupt")
    assert "⚠️" in (await answer.wait_message()).content
    for _ in range(120):
        st = await world.settled(gid)
        if st.phase == "over" or st.turn > 12:
            break
        await command_step(world, gid, st)
    assert st.turn > 12 or st.phase == "over"
    # /trade opens the private builder with that player.
    other = world.beto if world.user_of(gid, st.current) is world.ana else world.ana
    builder = await world.slash(world.user_of(gid, st.current), "trade", user=other)
    assert builder.ephemeral and builder.message is not None and world.custom_id_or_none(builder.message,
                                                                                         "trade_send")


async def test_buttons_status_leave_trade_give_and_cancel(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto, world.dora])
    lobby = world.with_verb("start")
    assert lobby is not None
    await world.click(world.dora, lobby, "leave")
    await world.eventually(lambda: "Dora" not in lobby.text, what="Dora to leave the lobby")
    st = await world.start(gid, world.ana)
    st = await world.play_until(gid, lambda st: st.phase == "end" and any(o == st.current for o in st.owner))
    me = world.user_of(gid, st.current)
    other = world.beto if me is world.ana else world.ana
    status = await world.click(me, world.table(), "status")  # type: ignore[arg-type]
    assert status.ephemeral and "Efectivo" in (status.content or "")

    picker = await world.click(me, world.table(), "trade")  # type: ignore[arg-type]
    assert picker.message is not None
    other_seat = world.game(gid).seat_of(other.id)
    await (await world.fake.select(me, picker.message, picker.message.custom_ids()[0], [str(other_seat)]))
    give = next(c for c in picker.message.custom_ids() if ":trade_give:" in c)
    mine = [o["value"] for o in picker.message.component(custom_id=give)["options"]]
    await (await world.fake.select(me, picker.message, give, mine[:1]))
    assert "Das:" in picker.message.content
    # A title for nothing is a gift, which the rules forbid: refused privately, the draft stays.
    gift = await world.click(me, picker.message, "trade_send")
    assert gift.ephemeral and "regalar" in (gift.content or "") and world.game(gid).state.trade is None
    money = await world.click(me, picker.message, "trade_money")
    assert money.modal is not None
    await (await world.fake.submit_modal(me, world.channel, money.modal["custom_id"], {"take_cash": "1,000"}))
    await world.act(gid, me, picker.message, "trade_send")
    st = await world.settled(gid)
    assert st.trade is not None and st.trade.give.titles == (int(mine[0]),)
    offer = world.with_verb("cancel_trade")
    assert offer is not None
    refused = await world.click(other, offer, "cancel_trade")
    assert refused.ephemeral
    await world.act(gid, me, offer, "cancel_trade")
    st = await world.settled(gid)
    assert st.trade is None and not offer.custom_ids()
