"""Discord limits the edits of messages older than an hour (429, JSON code 30046), and a long game's lobby
message is such a message: the bot edits it once and never again for a while when refused, nothing else of the
game waits on it, the game's result reaches the channel in a new message, and the log says it once."""

from __future__ import annotations

from devkit.world import World


async def test_a_lobby_discord_will_not_edit_costs_the_game_nothing(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    lobby = next(m for m in reversed(world.bot_messages()) if world.custom_id_or_none(m, "start"))
    await world.start(gid, world.ana)
    # From now on the lobby message counts as old, and its channel has no edits of old messages left.
    limit = world.fake.limit_old_edits(0, older_than=0.0, window=3600, retry_after=60, channel=world.channel)
    await world.play_until(gid, lambda s: s.turn >= 2)
    await world.eventually(lambda: limit.refused, what="the lobby's progress line to be refused")
    await world.play_until(gid, lambda s: s.turn >= 4)  # the game goes on, its table in the thread edited
    assert len(limit.refused) == 1, "a refused edit was tried again"

    asked = await world.slash(world.ana, "turista end", world.fake.threads(world.channel)[0])
    assert asked.message is not None
    await world.click(world.ana, asked.message, "end_game")
    result = await world.fake.wait_for(
        lambda: next((m for m in world.fake.messages(world.channel, include_ephemeral=False)
                      if m.id != lobby.id and "terminó la partida en el turno" in m.text), None),
        timeout=10, what="the game's result in a new message of the channel")
    assert result.author.id == world.fake.bot_user.id and "terminó la partida" not in lobby.text
    assert len(limit.refused) == 1  # the result did not try the edit Discord had just refused
    log = world.bot.log()
    assert log.count("Discord refuses to edit the lobby message, an old one (429") == 1
    assert "code 30046" in log and "We are being rate limited" not in log
