"""At start-up every open game shows each pending decision on a message with live buttons, from what the
store holds: here the game moved on while the bot was down (an auction opened, a person made an offer) and
someone deleted the table; no message of those decisions was ever posted."""

from __future__ import annotations

from devkit.world import World
from engine import Action, State, apply, refusal
from engine.actions import Offer, Trade


def record(world: World, gid: int, st: State, action: Action) -> State:
    """Play `action` straight into the store, as a bot that died right after recording it would leave it."""
    assert refusal(st, action) is None, action
    new, events = apply(st, action)
    world.store.apply(gid, st.version, None, action, events, new)
    return new


async def test_a_restart_posts_the_auction_and_the_offer_the_bot_never_showed(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    await world.start(gid, world.ana)
    st = await world.play_until(gid, lambda st: st.phase == "buy" and not st.debts, buy=lambda st: False)

    await world.bot.stop()
    st = record(world, gid, st, Action(kind="decline", seat=st.current))
    assert st.auction is not None
    table = world.table()
    assert table is not None
    await world.fake.delete_message(table)
    await world.bot.start()

    st = await world.settled(gid, timeout=30)  # a fresh table, and the auction with its buttons
    assert st.auction is not None and world.table() is not None and world.table() is not table
    while st.auction is not None:
        await world.play_turn_step(gid, st)
        st = await world.settled(gid)

    # The bot tried the deleted table first (Discord: unknown message), then posted a fresh one.
    gone = [e for e in world.fake.errors if e.status == 404 and e.path.endswith(f"/messages/{table.id}")]
    assert gone and len(gone) == len(world.fake.errors), world.fake.errors
    world.fake.errors.clear()

    # Next, a person's offer made while the bot is down: its target answers it after the restart.
    st = await world.play_until(gid, lambda st: offer_of(st) is not None, buy=lambda st: True)
    action = offer_of(st)
    assert action is not None and action.trade is not None
    await world.bot.stop()
    st = record(world, gid, st, action)
    await world.bot.start()
    st = await world.settled(gid, timeout=30)
    offer = world.with_verb("reject_trade")
    assert st.trade is not None and offer is not None and world.version_of(offer) == st.version
    await world.act(gid, world.user_of(gid, action.trade.target), offer, "reject_trade")
    st = await world.settled(gid)
    assert st.trade is None
    await world.fake.wait_for(lambda: not offer.custom_ids(), timeout=10, what="the answered offer's buttons to go")


def offer_of(st: State) -> Action | None:
    """A title of the seat to play for a little cash from the other seat, if the rules allow it now."""
    if st.debts or st.auction is not None or st.trade is not None:
        return None
    proposer = st.current
    for square, owner in enumerate(st.owner):
        if owner == proposer:
            trade = Trade(proposer=proposer, target=1 - proposer, give=Offer(titles=(square,)), take=Offer(cash=10))
            action = Action(kind="propose_trade", seat=proposer, trade=trade)
            if refusal(st, action) is None:
                return action
    return None
