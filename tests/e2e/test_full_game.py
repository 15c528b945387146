"""A whole game through Discord only: `/turista new` to the winner, two people and a computer seat."""

from __future__ import annotations

from tests.e2e.conftest import World


async def test_full_game_to_a_winner(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], computers=1)
    lobby = world.with_verb("start")
    assert lobby is not None
    assert "Ana" in lobby.content and "Lupita" in lobby.content
    settings = await world.click(world.ana, lobby, "settings")
    assert settings.ephemeral and settings.message is not None
    ending = world.custom_id(settings.message, "set")  # the first select is the edition
    ending = next(c for c in settings.message.custom_ids() if c.endswith(":set:ending"))
    assert ending
    await (await world.fake.select(world.ana, settings.message, ending, ["turns30"]))
    assert world.game(gid).settings["max_turns"] == 30

    st = await world.start(gid, world.ana)
    assert [s.name for s in st.seats] == ["Ana", "Beto @everyone", "Lupita"]
    table = world.table()
    assert table is not None and table.attachments and table.attachments[0].filename == "board.png"
    assert table.allowed_mentions is not None and table.allowed_mentions.get("parse") == []

    final = await world.play_until(gid, lambda st: False)
    assert final.phase == "over" and final.winner >= 0
    row = world.game(gid)
    assert row.status == "finished"
    winner = world.bot_messages()[-1]
    assert "🏆" in winner.content and final.seats[final.winner].name in winner.content
    # Computer turns were played and narrated on the table, and only the last table keeps no buttons.
    assert any("Lupita" in m.content for m in world.bot_messages())
    assert world.table() is None
