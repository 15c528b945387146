"""The table message as a Components V2 layout: the board in a Media Gallery with its alt text, the turn's ping
as a plain message, the classic embed table as a house rule, and a layout Discord refuses to edit healed by the
classic table while the game goes on."""

from __future__ import annotations

import pytest

from bot.face import layout
from devkit.world import World
from fakediscord.models import IS_COMPONENTS_V2

pytestmark = pytest.mark.skipif(not layout.SUPPORTED, reason="discord.py before 2.6 has no LayoutView")


def _gallery(message) -> dict:
    return next(c for c in message.all_components() if c.get("type") == 12)


async def test_the_table_is_a_layout_with_the_board_at_full_width_and_a_ping(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    st = await world.start(gid, world.ana)
    table = world.table()
    assert table is not None and table.flags & IS_COMPONENTS_V2 and not table.embeds and not table.content
    item = _gallery(table)["items"][0]
    assert item["media"]["url"] == "attachment://board.png"
    assert item["description"] == table.attachments[0].description and "Ana" in item["description"]
    assert not table.pings().users, "the layout pings nobody"
    # The turn's ping: a plain message just before the table, for the person whose turn it is, saying what for.
    person = world.user_of(gid, st.current)
    messages = world.bot_messages()
    ping = messages[messages.index(table) - 1]
    assert ping.pings().users == {person.id} and not ping.embeds and "tirar los dados" in ping.content
    await world.act(gid, person, table, "roll")
    after = await world.settled(gid)
    live = world.table()
    assert live is not None and live.flags & IS_COMPONENTS_V2 and world.version_of(live) == after.version
    # The gallery's words are those of the picture the message shows.
    assert _gallery(live)["items"][0]["description"] == live.attachments[0].description
    assert _gallery(table)["items"][0]["description"] == table.attachments[0].description
    assert table.flags & IS_COMPONENTS_V2, "a layout stays a layout"


async def test_the_classic_table_is_a_house_rule(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    settings = await world.slash(world.ana, "turista settings")
    assert settings.message is not None
    rules = next(c for c in settings.message.all_components() if c.get("custom_id", "").endswith(":set:rules"))
    chosen = [o["value"] for o in rules["options"] if o.get("default")] + ["classic_table"]
    await (await world.fake.select(world.ana, settings.message, rules["custom_id"], chosen))
    await world.eventually(lambda: world.game(gid).settings.get("classic_table") is True, what="the house rule")
    await world.start(gid, world.ana)
    table = world.table()
    assert table is not None and not table.flags & IS_COMPONENTS_V2 and table.embeds
    assert table.embeds[0]["image"]["url"] == "attachment://board.png" and table.pings().users


async def test_a_layout_discord_refuses_to_edit_gives_way_to_the_classic_table(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    st = await world.start(gid, world.ana)
    table = world.table()
    assert table is not None and table.flags & IS_COMPONENTS_V2
    # As discord-api-docs #7529 reports: the click's answer and the message's edit that show a new picture in a
    # Media Gallery are refused with a 400.
    refusal = {"status": 400, "code": 50035, "reason": "Invalid Form Body"}
    world.fake.fail("POST", "/interactions/{interaction}/{token}/callback", **refusal)
    edits = world.fake.fail("PATCH", "/channels/{channel}/messages/{message}", times=None, message=table.id,
                            **refusal)
    await world.act(gid, world.user_of(gid, st.current), table, "roll")
    after = await world.settled(gid)
    live = world.table()
    assert live is not None and live is not table and not live.flags & IS_COMPONENTS_V2 and live.embeds
    assert world.version_of(live) == after.version
    edits.clear()
    # The game goes on, on the classic table.
    for _ in range(4):
        st = await world.settled(gid)
        await world.play_turn_step(gid, st)
    assert world.game(gid).state.version > after.version
    assert not world.table().flags & IS_COMPONENTS_V2
    assert world.bot.log().count("Discord refused to edit the table as a layout") == 1
