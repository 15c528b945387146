"""A whole game through Discord only: `/turista new` to the winner, two people and a computer seat."""

from __future__ import annotations

import pytest

from devkit.world import World


async def test_full_game_to_a_winner(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], computers=1)
    lobby = world.with_verb("start")
    assert lobby is not None
    assert "Ana" in lobby.text and "Lupita" in lobby.text
    settings = await world.click(world.ana, lobby, "settings")
    assert settings.ephemeral and settings.message is not None
    ending = next(c for c in settings.message.custom_ids() if c.endswith(":set:ending"))
    assert ending
    await (await world.fake.select(world.ana, settings.message, ending, ["turns30"]))
    await world.eventually(lambda: world.game(gid).settings.get("max_turns") == 30, what="the ending to be saved")

    st = await world.start(gid, world.ana)
    assert [s.name for s in st.seats] == ["Ana", "Beto @\u200beveryone", "Lupita"]
    table = world.table()
    assert table is not None and table.attachments and table.attachments[0].filename == "board.png"
    assert table.allowed_mentions is not None and table.allowed_mentions.get("parse") == []

    final = await world.play_until(gid, lambda st: False)
    assert final.phase == "over" and final.winner >= 0
    row = world.game(gid)
    assert row.status == "finished"
    winner = world.bot_messages()[-1]
    assert "🏆" in winner.text and final.seats[final.winner].name in winner.text
    # Computer turns were played and narrated on the table, and only the last table keeps no buttons.
    assert any("Lupita" in m.text for m in world.bot_messages())
    # (The last table's edit may wait for the channel's rate limit, after the standings' post.)
    await world.fake.wait_for(lambda: world.table() is None, timeout=10, what="the last table without buttons")
    assert any(a.filename == "summary.png" for a in winner.attachments)
    stats = await world.slash(world.beto, "turista stats")
    # The leaderboard counts people (a computer may have won).
    assert stats.ephemeral and "Ana" in (stats.content or "") and "Beto" in (stats.content or "")


@pytest.mark.parametrize("edition", ["mundial", "monopolio"])
async def test_other_editions_play_to_the_end(world: World, edition: str) -> None:
    gid = await world.open_table(world.carl, [], computers=2, edition=edition)
    lobby = world.with_verb("start")
    assert lobby is not None
    settings = await world.click(world.carl, lobby, "settings")
    assert settings.message is not None
    rules = next(c for c in settings.message.custom_ids() if c.endswith(":set:rules"))
    ending = next(c for c in settings.message.custom_ids() if c.endswith(":set:ending"))
    await (await world.fake.select(world.carl, settings.message, ending, ["turns30"]))
    await (await world.fake.select(world.carl, settings.message, rules,
                                   ["auction_on_decline", "free_parking_pot", "deal_titles", "staggered_start"]))
    st = await world.start(gid, world.carl)
    assert st.edition == edition and st.settings.deal_titles == 2 and st.settings.max_turns == 30
    final = await world.play_until(gid, lambda st: False)
    assert final.phase == "over"
    # An English client gets the shared table in the server's language and its own answers in English.
    status = await world.slash(world.carl, "turista rules")
    assert "Everyone starts with" in (status.content or "")
