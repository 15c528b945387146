"""A thread per game: the game is played in a thread started from its lobby message, the channel keeps the
lobby message with the game's state and result, and without the permission the game stays in the channel."""

from __future__ import annotations

from devkit.world import World


def lobby_message(world: World):  # type: ignore[no-untyped-def]
    return next(m for m in reversed(world.bot_messages()) if world.custom_id_or_none(m, "start"))


async def test_the_game_is_played_in_a_thread_and_the_lobby_shows_the_result(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    lobby = lobby_message(world)
    await world.start(gid, world.ana)

    threads = world.fake.threads(world.channel)
    assert len(threads) == 1
    thread = threads[0]
    assert world.game(gid).thread_id == thread.id == lobby.id  # started from the lobby message
    assert thread.name == f"Turista · mesa {gid}"
    table = world.table()
    assert table is not None and table.channel is thread
    assert f"<#{thread.id}>" in lobby.text and not lobby.custom_ids()
    # Nothing of the game goes to the channel but its lobby message.
    assert [m.id for m in world.fake.messages(world.channel, include_ephemeral=False)] == [lobby.id]

    # Buttons and commands work in the thread, and commands typed in the channel reach the game too.
    await world.play_until(gid, lambda s: s.turn >= 2)
    # The lobby message tells the channel how the game goes (at most once a minute).
    await world.fake.wait_for(lambda: f"En juego en <#{thread.id}> · turno 2 · a la cabeza:" in lobby.text,
                              timeout=10, what="the lobby to show the game's state")
    status = await world.slash(world.beto, "turista status", thread)
    assert status.ephemeral and "Beto" in status.content
    status = await world.slash(world.ana, "turista status", world.channel)
    assert status.ephemeral and "Ana" in status.content

    # The host ends the game from the thread: the ranking goes to the thread, the result to the lobby.
    asked = await world.slash(world.ana, "turista end", thread)
    assert asked.message is not None
    await world.click(world.ana, asked.message, "end_game")
    await world.fake.wait_for(lambda: "terminó la partida en el turno" in lobby.text, timeout=10,
                              what="the lobby to show the result")
    ranking = [m for m in world.bot_messages() if "terminó la partida" in m.text and m.channel is thread]
    assert ranking, "the ranking is posted in the thread"
    assert world.game(gid).status == "abandoned"


async def test_without_the_house_rule_the_game_stays_in_the_channel(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    editable = await world.slash(world.ana, "turista settings")
    assert editable.message is not None
    rules = next(c for c in editable.message.custom_ids() if c.endswith(":set:rules"))
    await (await world.fake.select(world.ana, editable.message, rules, ["auction_on_decline"]))
    await world.eventually(lambda: world.game(gid).settings.get("thread") is False, what="the thread switched off")
    await world.start(gid, world.ana)
    assert world.fake.threads(world.channel) == [] and world.game(gid).thread_id is None
    table = world.table()
    assert table is not None and table.channel is world.channel


async def test_a_refused_thread_leaves_the_game_in_the_channel_and_says_why(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    refused = world.fake.fail("POST", "/channels/{channel}/messages/{message}/threads", status=403, code=50013,
                              reason="Missing Permissions", times=None)
    lobby = lobby_message(world)
    await world.start(gid, world.ana)
    assert refused.hits == 1
    assert world.fake.threads(world.channel) == [] and world.game(gid).thread_id is None
    table = world.table()
    assert table is not None and table.channel is world.channel
    why = "No pude abrir un hilo para la partida (me falta el permiso «Crear hilos públicos»)"
    assert why in lobby.text
    assert "no thread, the game stays in channel" in world.bot.log()

    # The reason stays on the lobby for the game's whole life: with its state, after a restart, with its result.
    await world.play_until(gid, lambda s: s.turn >= 2)
    await world.fake.wait_for(lambda: "En juego · turno 2" in lobby.text, timeout=10,
                              what="the lobby to show the game's state")
    assert why in lobby.text
    await world.bot.stop()
    await world.bot.start()
    asked = await world.slash(world.ana, "turista end")
    assert asked.message is not None
    await world.click(world.ana, asked.message, "end_game")
    await world.fake.wait_for(lambda: "terminó la partida en el turno" in lobby.text, timeout=10,
                              what="the lobby to show the result")
    assert why in lobby.text
