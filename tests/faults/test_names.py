"""Names people choose: never a mention, never reversing a line, never invisible, never two alike, in
the lobby, on the table, in the trade picker and on the board picture."""

from __future__ import annotations

import re

from devkit.world import World

PILL = re.compile(r"<(@[!&]?|#)\d+>")


def readable(text: str) -> bool:
    """No mention pill but the bot's own (the host, the player to act, alone outside the embed), no @everyone,
    no reversal."""
    text = re.sub(r"\A<@\d+>\n|(Organiza: |➡️ )<@\d+>", "", text)
    return not PILL.search(text) and "@everyone" not in text and "\u202e" not in text


async def test_names_are_inert_visible_and_distinct_everywhere(world: World) -> None:
    fake, guild = world.fake, world.guild
    pill = fake.add_user(f"<@{world.ana.id}> <@&{guild.id}> <#{world.channel.id}>", guild)
    other_ana = fake.add_user("ana", guild, nick="ANA")  # looks the same as "Ana" already at the table
    flipped = fake.add_user("\u202eolleH", guild)
    blank = fake.add_user("\u200b\u200d\u3164", guild)
    gid = await world.open_table(world.ana, [world.beto, pill, other_ana, flipped, blank])
    names = [s.name for s in world.game(gid).seats]
    assert names[3] == "ANA (2)" and names[4] == "olleH" and names[5] == f"#{blank.id % 10000:04d}"
    lobby = next(m for m in world.bot_messages() if world.custom_id_or_none(m, "join"))
    assert "ANA (2)" in lobby.text and readable(lobby.text), lobby.text

    st = await world.start(gid, world.ana)
    table = world.table()
    assert table is not None and readable(table.text), table.text
    picker = await world.click(world.user_of(gid, st.current), table, "trade")
    assert picker.message is not None
    labels = [o["label"] for c in picker.message.all_components() for o in c.get("options", [])]
    assert "ANA (2)" in labels and len(set(labels)) == len(labels) and all(readable(x) for x in labels), labels
    assert all("\\" not in label for label in labels)  # labels show no markdown, so nothing is escaped
