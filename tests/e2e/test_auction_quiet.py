"""An auction nobody finishes closes by itself after the quiet period."""

from __future__ import annotations

import pytest

from devkit.world import World


@pytest.fixture
def bot_env() -> dict[str, str]:
    # Long enough that the bid below lands inside it on a loaded machine, short enough for a quick test.
    return {"TURISTA_AUCTION_QUIET": "3"}


async def test_quiet_auction_closes_with_the_highest_bid(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    await world.start(gid, world.ana)
    st = await world.play_until(gid, lambda st: st.phase == "buy" and not st.debts, buy=lambda st: False)
    square = st.seats[st.current].pos
    bidder = world.user_of(gid, 1 - st.current)
    await world.act(gid, world.user_of(gid, st.current), world.table(), "decline")  # type: ignore[arg-type]
    st = await world.settled(gid)
    auction = world.with_verb("bid")
    assert auction is not None and "3 s" in auction.text
    await world.act(gid, bidder, auction, "bid")
    # Nobody else says anything: when the quiet period ends the bid wins.
    await world.fake.wait_for(lambda: not auction.custom_ids(), timeout=15, what="the auction to close")
    st = world.game(gid).state
    assert st is not None and st.auction is None and st.owner[square] == world.game(gid).seat_of(bidder.id)
