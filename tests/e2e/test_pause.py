"""A correspondence game (time scaled) paused: nobody acts, no clock runs, a restart keeps it paused, and resuming
gives the clock the time it had left; and a trade offer that waits on the clock of the person it is for."""

from __future__ import annotations

import asyncio
import time

import pytest

from devkit.world import World

FOUR_HOURS = 4 * 3600
SCALE = 0.00025  # four hours last 3.6 s


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"TURISTA_TIME_SCALE": str(SCALE), "TURISTA_AUCTION_QUIET": "3000"}


def answer(reply) -> str:  # type: ignore[no-untyped-def]
    return " ".join([reply.content or "", *(f.content or "" for f in reply.followups)])


async def test_a_pause_stops_the_clocks_across_a_restart_and_a_resume_gives_back_the_time(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], turn_timeout=FOUR_HOURS)
    st = await world.start(gid, world.ana)
    player = world.user_of(gid, st.current)
    # Beto alone is not a majority of two: his vote counts, and the game goes on.
    vote = await world.slash(world.beto, "turista pause")
    assert vote.ephemeral and "1 de los 2" in answer(vote), answer(vote)
    assert world.game(gid).paused_at is None
    paused = await world.slash(world.ana, "turista pause")
    assert paused.ephemeral and "pausa" in answer(paused).lower(), answer(paused)
    row = world.game(gid)
    assert row.paused_at is not None and row.paused_left is not None and 0 < row.paused_left <= FOUR_HOURS * SCALE
    left = row.paused_left
    reminded = [m.id for m in world.bot_messages() if (m.content or "").startswith("⏰")]
    table = world.table()
    assert table is not None
    await world.fake.wait_for(lambda: "⏸️" in table.text, timeout=10, what="the table to say it is paused")
    # Nobody can act: a private refusal in the player's language.
    refused = await world.click(player, table, "roll")
    assert "en pausa" in answer(refused), answer(refused)
    undo = await world.slash(player, "turista undo")
    assert undo.ephemeral and "en pausa" in answer(undo), answer(undo)
    assert world.game(gid).version == st.version
    # Past the clock's old end, with a restart in the middle: still paused, nothing played, no reminder.
    await world.bot.kill()
    await world.bot.start()
    await asyncio.sleep(FOUR_HOURS * SCALE + 0.5)
    row = world.game(gid)
    assert row.paused_at is not None and row.version == st.version
    assert [m.id for m in world.bot_messages() if (m.content or "").startswith("⏰")] == reminded
    listed = await world.slash(world.beto, "turista my-games")
    assert "En pausa desde" in (listed.content or ""), listed.content
    resumed = await world.slash(world.ana, "turista resume")
    assert resumed.ephemeral and "reanudada" in answer(resumed).lower(), answer(resumed)
    row = world.game(gid)
    assert row.paused_at is None and row.deadline is not None
    assert abs(row.deadline - (time.time() + left)) < 1.0  # the time it had left, not a fresh clock
    await world.fake.wait_for(lambda: world.game(gid).version > st.version, timeout=15, what="the move played")
    assert time.time() >= row.deadline - 0.1


async def test_a_trade_offer_waits_on_the_clock_of_the_person_it_is_for(world: World) -> None:
    from engine import edition_of
    from tests.e2e.test_trades_and_building import open_builder

    def their_title(st) -> int | None:  # type: ignore[no-untyped-def]
        if st.phase != "end" or st.debts:
            return None
        titles = [i for i, owner in enumerate(st.owner) if owner == 1 - st.current and not st.level[i]
                  and not st.mortgaged[i] and edition_of(st).squares[i].price]
        return titles[0] if titles else None

    gid = await world.open_table(world.ana, [world.beto], turn_timeout=FOUR_HOURS)
    await world.start(gid, world.ana)
    st = await world.play_until(gid, lambda st: their_title(st) is not None, steps=600)
    square = their_title(st)
    me, them = world.user_of(gid, st.current), world.user_of(gid, 1 - st.current)
    builder = await open_builder(world, gid, me, them)
    take = next(c for c in builder.custom_ids() if ":trade_take:" in c)
    await (await world.fake.select(me, builder, take, [str(square)]))
    money = await world.click(me, builder, "trade_money")
    assert money.modal is not None
    await (await world.fake.submit_modal(me, world.channel, money.modal["custom_id"], {"give_cash": "100"}))
    before = len([m for m in world.bot_messages() if (m.content or "").startswith("⏰")])
    await world.act(gid, me, builder, "trade_send")
    sent = time.time()
    # The reminder is for the person the offer is for; at the end of their clock the offer is turned down.
    reminder = await world.fake.wait_for(
        lambda: next((m for m in world.bot_messages()[::-1] if (m.content or "").startswith("⏰")), None)
        if len([m for m in world.bot_messages() if (m.content or "").startswith("⏰")]) > before else None,
        timeout=15, what="a reminder of the offer")
    assert f"<@{them.id}>" in reminder.content and f"<@{me.id}>" not in reminder.content
    assert "oferta" in reminder.content
    await world.fake.wait_for(lambda: (s := world.game(gid).state) is not None and s.trade is None, timeout=15,
                              what="the offer turned down on its clock")
    assert time.time() - sent >= FOUR_HOURS * SCALE - 0.5
    assert world.game(gid).state.owner[square] == 1 - st.current  # type: ignore[union-attr]
