"""The table message as a Components V2 layout: the board in a Media Gallery with its alt text, the turn's ping
as a plain message, the classic embed table as a house rule, and a layout Discord refuses to edit healed by the
classic table while the game goes on."""

from __future__ import annotations

import pytest

from bot.face import ids, layout
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


# -- the lobby and the end of the game ------------------------------------------------------------------------
def _sections(message) -> dict[str, list[str]]:
    """Each button beside its lines: its verb, and the lines of text it sits beside."""
    found = {}
    for c in message.all_components():
        if c.get("type") == 9 and c["accessory"].get("custom_id"):
            found[ids.parse(c["accessory"]["custom_id"]).verb] = [t["content"] for t in c["components"]]
    return found


async def test_the_lobby_and_the_end_of_the_game_are_layouts_and_the_rematch_rebuilds_the_end(world: World) -> None:
    reply = await world.slash(world.ana, "turista new")
    lobby = reply.message
    assert lobby is not None and lobby.flags & IS_COMPONENTS_V2 and not lobby.embeds and not lobby.content
    beside = _sections(lobby)
    assert "(1/6)" in beside["join"][0] and "Ana" in beside["join"][1], "Join beside the seats"
    assert "Empezar" in beside["start"][0], "Start beside the hint"
    await world.click(world.beto, lobby, "join")
    await world.lobby_shows(lobby, 2)
    gid = world.row().id  # type: ignore[union-attr]
    await world.start(gid, world.ana)
    # The lobby stays in the channel as a layout without buttons, telling where the game is played.
    await world.fake.wait_for(lambda: not lobby.custom_ids(), 5, "the lobby to lose its buttons")
    assert lobby.flags & IS_COMPONENTS_V2 and "<#" in lobby.text
    asked = await world.slash(world.ana, "turista end")
    await world.click(world.ana, asked.message, "end_game")  # type: ignore[arg-type]
    end = await world.fake.wait_for(lambda: world.with_verb("rematch"), 15, "the end of the game")
    assert end.flags & IS_COMPONENTS_V2 and not end.embeds and "Ana" in end.text and "Clasificación" in end.text
    picture = _gallery(end)["items"][0]
    assert picture["media"]["url"] == "attachment://summary.png"
    assert picture["description"] == end.attachments[0].description and "Beto" in picture["description"]
    head = end.text.splitlines()[0]
    await world.fake.wait_for(lambda: "terminó la partida" in lobby.text, 10, "the lobby to tell the result")
    assert lobby.flags & IS_COMPONENTS_V2
    # The Rematch click rebuilds the whole layout: the same words and picture, only the Replay left.
    click = await world.click(world.beto, end, "rematch")
    await world.fake.wait_for(lambda: click.followups, 10, "the rematch's note")
    await world.fake.wait_for(lambda: {ids.parse(c).verb for c in end.custom_ids()} == {"replay"}, 5,
                              "the Rematch button to go")
    assert end.flags & IS_COMPONENTS_V2 and end.text.splitlines()[0] == head and "Clasificación" in end.text
    assert _gallery(end)["items"][0]["description"] == picture["description"] and end.attachments
    rematch = world.with_verb("start")
    assert rematch is not None and rematch.flags & IS_COMPONENTS_V2 and "(2/6)" in rematch.text


async def test_the_classic_table_chosen_in_a_layout_lobby_keeps_the_lobby_a_layout(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    lobby = world.with_verb("start")
    assert lobby is not None and lobby.flags & IS_COMPONENTS_V2
    settings = await world.slash(world.ana, "turista settings")
    assert settings.message is not None
    rules = next(c for c in settings.message.all_components() if c.get("custom_id", "").endswith(":set:rules"))
    chosen = [o["value"] for o in rules["options"] if o.get("default")] + ["classic_table"]
    await (await world.fake.select(world.ana, settings.message, rules["custom_id"], chosen))
    await world.eventually(lambda: world.game(gid).settings.get("classic_table") is True, what="the house rule")
    # A layout cannot be edited into an embed: the lobby shows the rule, still a layout (the fake refuses, and
    # its fixture would fail the test on, any edit that tries).
    await world.fake.wait_for(lambda: "Mesa clásica" in lobby.text, 5, "the lobby to show the rule")
    assert lobby.flags & IS_COMPONENTS_V2 and not lobby.embeds
    await world.start(gid, world.ana)
    assert not world.table().flags & IS_COMPONENTS_V2  # type: ignore[union-attr]
    asked = await world.slash(world.ana, "turista end")
    await world.click(world.ana, asked.message, "end_game")  # type: ignore[arg-type]
    end = await world.fake.wait_for(lambda: world.with_verb("rematch"), 15, "the end of the game")
    assert not end.flags & IS_COMPONENTS_V2 and end.embeds[0]["image"]["url"] == "attachment://summary.png"
    await world.fake.wait_for(lambda: "terminó la partida" in lobby.text, 10, "the lobby to tell the result")
    assert lobby.flags & IS_COMPONENTS_V2
