"""Persistent buttons across a restart of the bot process; refusals that change nothing."""

from __future__ import annotations

import asyncio
import copy
import signal

import pytest

from bot.store.replay import verify
from devkit.world import World


async def test_restart_mid_turn_keeps_old_buttons_working(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], computers=1)
    st = await world.start(gid, world.ana)
    # Play into the middle of a person's turn: the dice rolled, a decision still open.
    st = await world.play_until(gid, lambda st: st.phase in ("buy", "end") and not st.seats[st.current].computer)
    table = world.table()
    assert table is not None and world.version_of(table) == st.version

    await world.bot.kill()
    await world.bot.start()

    # The message from the previous process, clicked as it is.
    user = world.user_of(gid, st.current)
    verb = "buy" if st.phase == "buy" else "end_turn"
    await world.act(gid, user, table, verb)
    after = world.game(gid).state
    assert after is not None and after.version > st.version
    # ...and the game goes on to new turns after the restart.
    final = await world.play_until(gid, lambda s: s.turn >= st.turn + 3)
    assert final.turn >= st.turn + 3 or final.phase == "over"


async def test_non_players_stale_clicks_and_bad_input_change_nothing(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    st = await world.start(gid, world.ana)
    table = world.table()
    assert table is not None
    current = world.user_of(gid, st.current)
    other = world.beto if current is world.ana else world.ana

    # Dora is not playing: an ephemeral refusal in her language, and nothing changes.
    refused = await world.click(world.dora, table, "roll")
    assert refused.ephemeral and "No estás jugando" in (refused.content or "")
    # The other player may not roll for the current one.
    refused = await world.click(other, table, "roll")
    assert refused.ephemeral and "turno" in (refused.content or "").lower()
    # A slash command from a non-player, in English for an English client.
    refused = await world.slash(world.carl, "roll")
    assert refused.ephemeral and "not playing" in (refused.content or "")
    # The other English client, and one of a language the bot does not speak: English too (words.language_of).
    for locale in ("en-GB", "pt-BR"):
        someone = world.fake.add_user(f"Someone {locale}", world.guild, locale=locale)
        refused = await world.slash(someone, "roll")
        assert refused.ephemeral and "not playing" in (refused.content or ""), locale
    assert world.game(gid).version == st.version

    # A client that has not received the edit yet still shows the old buttons.
    old_view = copy.copy(table)
    old_view.components = copy.deepcopy(table.components)
    await world.act(gid, current, table, "roll")
    stale = await world.click(current, old_view, "roll")
    assert stale.ephemeral and "vigente" in (stale.content or "")

    # Nonsense numbers and names are refused before reaching the game.
    version = world.game(gid).version
    for amount in (-5, 0, 10**15):
        answer = await world.slash(current, "bid", amount=amount)
        assert answer.ephemeral and "`cantidad` debe estar entre" in (answer.content or "")
    answer = await world.slash(current, "mortgage", property="Atlántida")
    assert answer.ephemeral and "título" in (answer.content or "")
    answer = await world.slash(current, "build", property="Japón", count=99)
    assert answer.ephemeral
    assert world.game(gid).version == version
    # A bid when there is no auction is the engine's refusal, still ephemeral and harmless.
    answer = await world.slash(current, "bid", amount=1000)
    assert answer.ephemeral
    await asyncio.sleep(0)
    assert world.game(gid).version == version


async def test_two_channels_play_at_once(world: World) -> None:
    first = await world.open_table(world.ana, [world.beto])
    second = await world.open_table(world.carl, [world.dora], channel=world.other)
    assert first != second
    busy = await world.slash(world.beto, "turista new")
    assert busy.ephemeral and "ya tiene una mesa" in (busy.content or "")
    await world.start(first, world.ana)
    await world.start(second, world.carl, world.other)

    async def play(gid: int, channel: object) -> None:
        await world.play_until(gid, lambda st: st.turn >= 6, channel=channel)  # type: ignore[arg-type]

    await asyncio.gather(play(first, world.channel), play(second, world.other))
    one, two = world.game(first).state, world.game(second).state
    assert one is not None and two is not None
    assert one.turn >= 6 and two.turn >= 6
    # Each channel's table only ever showed its own players.
    assert all("Carl" not in m.text for m in world.bot_messages(world.channel))
    assert all("Ana" not in m.text for m in world.bot_messages(world.other))


async def test_restart_during_an_auction_and_a_trade_offer(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto, world.dora])
    await world.start(gid, world.ana)
    st = await world.play_until(gid, lambda st: st.phase == "buy" and not st.debts, buy=lambda st: False)
    await world.act(gid, world.user_of(gid, st.current), world.table(), "decline")  # type: ignore[arg-type]
    st = await world.settled(gid)
    auction = world.with_verb("pass_bid")
    assert st.auction is not None and auction is not None

    await world.bot.kill()
    await world.bot.start()

    bidder = world.user_of(gid, st.auction.active[0])
    await world.act(gid, bidder, auction, "bid")
    st = await world.settled(gid)
    # The auction message from before the restart is the one that shows the new bid.
    assert st.auction is not None and st.auction.bid > 0 and world.version_of(auction) == st.version
    for seat in list(st.auction.active):
        if seat != st.auction.bidder:
            await world.act(gid, world.user_of(gid, seat), auction, "pass_bid")
            st = await world.settled(gid)
    assert st.auction is None and not auction.custom_ids()


@pytest.mark.parametrize("bot_env", [{"TURISTA_STATUS_MINUTES": "0.01"}])  # a status line every 0.6 s
async def test_sigterm_stops_gracefully_and_the_status_line_is_logged(world: World) -> None:
    gid = await world.open_table(world.ana, [], computers=2)
    st = await world.start(gid, world.ana)
    await world.eventually(lambda: "turista.status: 1 open game (1 playing, 0 in the lobby); last action"
                           in world.bot.log(), timeout=10, what="a status line in the log")

    # What systemd sends: the process finishes what it is doing, closes and exits 0 (not killed by -15).
    await world.bot.stop(signal.SIGTERM)
    assert world.bot.process is not None and world.bot.process.returncode == 0
    log = world.bot.log()
    assert "stopping: letting the actions in progress finish" in log and "turista.bot: stopped" in log
    assert all(verdict.ok for verdict in verify(world.store, [gid]))

    await world.bot.start()
    final = await world.play_until(gid, lambda s: s.turn >= st.turn + 2)
    assert final.turn >= st.turn + 2 or final.phase == "over"
