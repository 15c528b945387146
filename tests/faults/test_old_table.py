"""A table message Discord will not edit any more (older than an hour, 30046): a fresh table replaces it, the log
says why, and a click on the old one's buttons still acts on the game as it is."""

from __future__ import annotations

from devkit.world import World


async def test_a_table_discord_will_not_edit_is_posted_anew(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], turn_timeout=0)
    st = await world.start(gid, world.ana)
    old = world.table()
    assert old is not None
    # Every message counts as old from now on, and the game's thread has no edits of old messages left.
    limit = world.fake.limit_old_edits(0, older_than=0.0, window=3600, retry_after=0.05, channel=old.channel)
    # A pause edits the table outside any click: the edit is refused, and a new table says the game is paused.
    await world.slash(world.ana, "turista pause")
    new = await world.fake.wait_for(lambda: (m := world.table()) is not None and m.id != old.id and "⏸️" in m.text
                                    and m, timeout=15, what="a new table saying the game is paused")
    assert limit.refused and limit.refused[0] == (old.channel.id, old.id)
    assert "over an hour old (code 30046); a new one replaces it" in world.bot.log()
    assert world.game(gid).messages["table"].message_id == new.id
    await world.slash(world.ana, "turista resume")
    # The old table's button is for the same decision: it acts on the game as it is now.
    await world.act(gid, world.user_of(gid, st.current), old, "roll")
    assert world.game(gid).version > st.version
