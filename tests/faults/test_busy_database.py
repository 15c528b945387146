"""While another process holds the database's write lock, every command and click is answered at once
(the fake counts an answer after 3 s as an error); what needs a write says why it could not be made, and
works again as soon as the lock is gone. One channel's waiting write delays no other channel's answer."""

from __future__ import annotations

from devkit.world import World
from tests.faults.database import write_lock

BUSY = "La base de datos está ocupada"


async def test_commands_and_clicks_answer_at_once_while_the_database_is_locked(world: World) -> None:
    lobby_gid = await world.open_table(world.carl, [], channel=world.other)
    lobby = next(m for m in world.bot_messages(world.other) if world.custom_id_or_none(m, "join"))

    with write_lock(world.bot.db_path):
        # Two channels at once: a new table here, a seat at the lobby there, and a read of the history.
        new = await world.fake.slash(world.ana, world.channel, "turista new")
        join = await world.fake.click(world.dora, lobby, world.custom_id(lobby, "join"))
        history = await world.fake.slash(world.beto, world.channel, "turista history")
        end = await world.fake.slash(world.carl, world.other, "turista end")
        for reply in (new, join, history, end):
            await reply.wait()
        assert history.response_type == 4 and history.ephemeral and history.content, history.content
        assert new.response_type == 5 and join.response_type == 6 and end.response_type == 5

        # The writes wait for the lock, give up, and say so privately: never "no open table".
        refused = (await new.wait_followups(1, timeout=30))[0]
        assert refused.ephemeral and BUSY in refused.content, refused.content
        assert new.message is None or new.message.deleted  # no "thinking…" left behind in the channel
        refused = (await join.wait_followups(1, timeout=30))[0]
        assert refused.ephemeral and BUSY in refused.content, refused.content
        # Carl's /turista end waited for the Join of his channel, then for the database, already answered.
        await world.eventually(lambda: end.message is not None and not end.message.loading, timeout=30,
                               what="the answer to /turista end")
        assert end.ephemeral and "The database is busy" in (end.content or ""), end.content
    assert world.row() is None and len(world.game(lobby_gid).seats) == 1
    assert "could not open a table in channel" in world.bot.log()

    # The lock is gone: the same command and click work.
    gid = await world.open_table(world.ana, [world.beto])
    answer = await world.click(world.dora, lobby, "join")
    assert answer.response_type in (6, 7) and not answer.followups, answer.content
    await world.seated(lobby_gid, world.dora.id)
    assert len(world.game(gid).seats) == 2
