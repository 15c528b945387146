"""A computer's trade offer waits for the person's answer, and the turn clock turns it down for them."""

from __future__ import annotations

import pytest

from devkit.world import World
from engine import Action, Offer, Trade, apply, legal_actions


@pytest.fixture
def bot_env() -> dict[str, str]:
    # One game minute lasts 0.6 s: a 60 s decision clock runs out in 0.6 s.
    return {"TURISTA_TIME_SCALE": "0.01", "TURISTA_AUCTION_QUIET": "5000"}


async def test_an_unanswered_computer_offer_is_turned_down_not_lost(world: World) -> None:
    gid = await world.open_table(world.ana, [], computers=1, turn_timeout=60)
    await world.start(gid, world.ana)
    await world.bot.stop()
    # The clock may have played for Ana before the bot stopped: go on from what the store holds.
    st = world.game(gid).state
    assert st is not None
    # With the bot down, play straight into the store (Ana buys her first title) until it is the computer's
    # turn with Ana holding a title, then let the computer offer her $1,000 for it: the table the bot finds
    # on its return.
    row = world.game(gid)
    st = row.state  # the computer may have moved before the bot stopped: go on from what was stored
    cpu = next(s.seat for s in row.seats if s.computer)
    ana = next(s.seat for s in row.seats if not s.computer)
    while ana not in st.owner or st.current != cpu or st.phase not in ("roll", "end"):
        mine = legal_actions(st, st.seat_to_act()[0])
        first = ("buy",) if st.current == ana and ana not in st.owner else ()
        kind_order = (*first, "end_turn", "decline", "pass_bid", "roll", "bankrupt")
        action = next(a for k in kind_order for a in mine if a.kind == k)
        new, events = apply(st, action)
        world.store.apply(gid, st.version, None, action, events, new)
        st = new
    title = st.owner.index(ana)
    trade = Trade(proposer=cpu, target=ana, give=Offer(cash=1000), take=Offer(titles=(title,)))
    offer = Action(kind="propose_trade", seat=cpu, trade=trade)
    new, events = apply(st, offer)
    world.store.apply(gid, st.version, None, offer, events, new)
    await world.bot.start()
    # The computer does not end its turn over the offer: Ana's clock runs, she is warned, then it is declined.
    user = world.user_of(gid, ana)
    warning = await world.fake.wait_for_message(world.channel, lambda m: "⏳" in m.text, timeout=15, threads=True)
    assert f"<@{user.id}>" in warning.content
    await world.fake.wait_for(lambda: world.game(gid).state.trade is None, timeout=15, what="the offer answered")
    answer = [entry for entry in world.store.log(gid) if entry.seq > new.version][0]
    assert '"reject_trade"' in answer.action
    assert world.game(gid).state.seats[ana].cash == new.seats[ana].cash  # nothing accepted on her behalf
