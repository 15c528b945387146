"""The lobby by commands, the host's powers, the read-only commands, localisation and ending a game."""

from __future__ import annotations

import re

from devkit.world import World


async def test_commands_are_registered_in_spanish_and_english(world: World) -> None:
    commands = {c["name"]: c for c in world.fake.commands()}
    expected = {"turista", "roll", "buy", "decline", "bid", "build", "sell", "mortgage", "unmortgage", "trade",
                "bail", "endturn", "bankrupt"}
    assert expected <= set(commands)
    turista = commands["turista"]
    subs = {o["name"]: o for o in turista["options"]}
    assert {"new", "join", "leave", "start", "addbot", "kick", "end", "board", "status", "property", "rules",
            "settings", "help"} <= set(subs)
    assert subs["new"]["name_localizations"]["es-ES"] == "nueva"
    assert subs["new"]["description_localizations"]["es-419"] == "Abre una mesa nueva en este canal"
    assert commands["roll"]["name_localizations"]["es-419"] == "tirar"
    assert commands["roll"]["description_localizations"]["en-US"] == "Roll the dice"
    build = {o["name"]: o for o in commands["build"]["options"]}
    assert build["property"]["autocomplete"] and build["property"]["name_localizations"]["es-ES"] == "título"


async def test_lobby_by_commands_and_host_powers(world: World) -> None:
    opened = await world.slash(world.ana, "turista new", edition="mundial")
    assert opened.message is not None and "moderna" in opened.message.text
    assert "Tiempo por decisión: 120 s" in opened.message.text  # the decision clock is on unless the host says not
    lobby = opened.message
    joined = await world.slash(world.beto, "turista join")
    assert joined.ephemeral and "Beto @\u200beveryone" in lobby.text
    again = await world.slash(world.beto, "turista join")
    assert again.ephemeral and "Ya estás" in (again.content or "")
    await world.slash(world.ana, "turista addbot", level="facil")
    assert "fácil" in lobby.text
    refused = await world.click(world.beto, lobby, "dropbot")
    assert refused.ephemeral and "organiza" in (refused.content or "")
    await world.click(world.ana, lobby, "dropbot")  # answered at once; the lobby is edited after the write
    await world.eventually(lambda: "fácil" not in lobby.text and world.custom_id_or_none(lobby, "dropbot") is None,
                           what="the computer to stand up")
    await world.slash(world.ana, "turista addbot", level="facil")
    # The lobby's level select seats a computer of the level picked.
    picker = next(c for c in lobby.custom_ids() if c.endswith(":addbot:level"))
    await (await world.fake.select(world.ana, lobby, picker, ["dificil"]))
    await world.eventually(lambda: "difícil" in lobby.text, what="a difícil computer to sit down")
    await world.slash(world.dora, "turista join")
    await world.slash(world.dora, "turista leave")
    assert "Dora" not in lobby.text

    # Only the host (or a channel manager) starts, kicks and ends.
    refused = await world.slash(world.beto, "turista kick", user=world.ana)
    assert refused.ephemeral and "organiza" in (refused.content or "")
    refused = await world.slash(world.beto, "turista start")
    assert refused.ephemeral and "organiza" in (refused.content or "")
    summary = await world.slash(world.beto, "turista settings")
    assert summary.ephemeral and not (summary.message and summary.message.custom_ids())
    editable = await world.slash(world.ana, "turista settings")
    assert editable.message is not None and len(editable.message.custom_ids()) == 5
    rules = next(c for c in editable.message.custom_ids() if c.endswith(":set:rules"))
    await (await world.fake.select(world.ana, editable.message, rules, ["free_parking_pot", "auction_on_decline"]))
    await world.eventually(lambda: "Bote en el descanso" in lobby.text, what="the house rules to be saved")
    row = world.row()
    assert row is not None and row.settings["free_parking_pot"] is True and row.settings["staggered_start"] is False
    assert "Bote en el descanso" in lobby.text
    kicked = await world.slash(world.ana, "turista kick", user=world.beto)
    assert kicked.ephemeral and "Beto" not in lobby.text
    await world.click(world.beto, lobby, "join")
    await world.seated(row.id, world.beto.id)

    started = await world.slash(world.ana, "turista start")
    assert started.response_type == 5
    # The typed command's "thinking…" is completed, not left pending.
    assert "empezó" in (await started.wait_message()).content
    gid = row.id
    st = await world.settled(gid)
    assert st.edition == "mundial" and st.settings.free_parking_pot
    assert not lobby.custom_ids()  # the lobby keeps its text and loses its buttons

    # Read-only commands answer privately, in the asker's language.
    board = await world.slash(world.beto, "turista board")
    message = await board.wait_message()
    assert board.ephemeral and message.attachments[0].filename == "board.png"
    # Someone watching gets every seat at a glance; asking for a person who does not play is refused.
    status = await world.slash(world.carl, "turista status")
    assert status.ephemeral and "The table" in (status.content or "")
    assert all(name in (status.content or "") for name in ("Ana", "Beto", "🤖"))
    refused = await world.slash(world.carl, "turista status", user=world.dora)
    assert refused.ephemeral and "not playing" in (refused.content or "")
    status = await world.slash(world.carl, "turista status", user=world.ana)
    assert status.ephemeral and "Cash" in (status.content or "")
    choices = await world.fake.autocomplete(world.ana, world.channel, "turista property", focused="name", value="arg")
    assert choices and {c["name"] for c in choices} == {"Argentina", "Argelia"}
    deed = await world.slash(world.ana, "turista property", name=choices[0]["value"])
    message = await deed.wait_message()
    assert message.attachments[0].filename == "deed.png" and "Precio" in message.content
    unknown = await world.slash(world.ana, "turista property", name="Atlántida")
    assert unknown.ephemeral and "No encuentro" in (unknown.content or "")
    rules_text = await world.slash(world.carl, "turista rules")
    assert rules_text.ephemeral and "Everyone starts with $1,500" in (rules_text.content or "")
    help_text = await world.slash(world.dora, "turista help")
    assert help_text.ephemeral and "/turista nueva" in (help_text.content or "")  # Dora reads Spanish

    # The host ends the game after confirming: the table loses its buttons, the standings as they are are
    # posted with the end-of-game picture, and the channel is free again.
    refused = await world.slash(world.beto, "turista end")
    assert refused.ephemeral
    table = world.table()
    assert table is not None
    asked = await world.slash(world.ana, "turista end")
    assert asked.ephemeral and asked.message is not None and "Terminar la partida" in asked.content
    assert world.game(gid).status == "active" and table.custom_ids()
    stranger = await world.click(world.beto, asked.message, "end_game")
    assert stranger.ephemeral and "organiza" in (stranger.content or "")
    ended = await world.click(world.ana, asked.message, "end_game")
    await ended.wait_message(lambda m: "terminó" in m.content and not m.custom_ids())
    await world.fake.wait_for(lambda: not table.custom_ids(), what="the table to lose its buttons")
    assert world.game(gid).status == "abandoned"
    result = await world.fake.wait_for_message(world.channel, lambda m: any(
        a.filename == "summary.png" for a in m.attachments), threads=True)
    assert "Ana terminó la partida" in result.text and "1. " in result.text and "Beto" in result.text
    history = await world.slash(world.ana, "turista history")
    assert history.ephemeral and f"#{gid}" in (history.content or "")
    assert "Terminada por quien la organizaba" in (history.content or "") and "ganó" not in (history.content or "")
    # The profile and the stats count games played to their end, and say where the ended one is.
    stats = await world.slash(world.ana, "turista stats")
    assert "hasta el final" in (stats.content or "") and "/turista historial" in (stats.content or "")
    profile = await world.slash(world.ana, "turista profile")
    assert "/turista historial" in (profile.content or "")
    again = await world.slash(world.dora, "turista new")
    assert not again.ephemeral
    await world.eventually(lambda: (world.row() or row).table_message_id is not None, what="the new lobby")


async def test_mentions_in_names_never_ping(world: World) -> None:
    gid = await world.open_table(world.beto, [world.ana])
    await world.start(gid, world.beto)
    for message in world.bot_messages():
        mentions = message.allowed_mentions or {}
        assert mentions.get("parse", []) == [], (message.content, mentions)
        assert "everyone" not in str(mentions.get("parse", []))


async def test_leaving_a_game_in_play_asks_first(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    await world.start(gid, world.ana)
    # Asked, and answered No: the question goes away and nothing changes.
    version = world.game(gid).version
    asked = await world.slash(world.beto, "turista leave")
    assert asked.ephemeral and asked.message is not None and "Cómo dejas" in asked.content
    no = await world.click(world.beto, asked.message, "dismiss")
    assert no.message is asked.message and "no se hizo nada" in asked.message.content
    assert not asked.message.custom_ids() and world.game(gid).version == version
    asked = await world.slash(world.beto, "turista leave")
    await world.act(gid, world.beto, asked.message, "withdraw")
    final = await world.settled(gid)
    assert final.phase == "over" and final.seats[1].out and final.winner == 0
    # The confirmation shows what happened, without its button.
    await world.fake.wait_for(lambda: not asked.message.custom_ids(), what="the confirmation answered")
    history = await world.slash(world.ana, "turista history")
    # Ana first, and both rated: a game of two people played to its end.
    assert re.search(r"\n1\. Ana [\d,]+ ▲", history.content or ""), history.content


async def test_kicking_during_a_game_hands_the_seat_to_a_computer(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    st = await world.start(gid, world.ana)
    beto_seat = world.game(gid).seat_of(world.beto.id)
    refused = await world.slash(world.beto, "turista kick", user=world.ana)
    assert refused.ephemeral and "organiza" in (refused.content or "")
    kicked = await world.slash(world.ana, "turista kick", user=world.beto)
    await kicked.wait_message()
    row = world.game(gid)
    assert row.seats[beto_seat].user_id is None and row.seats[beto_seat].computer == "normal"
    table = world.table()
    assert table is not None
    watching = await world.click(world.beto, table, "status")
    assert watching.ephemeral and "La mesa" in (watching.content or "") and "Ana" in (watching.content or "")
    # The computer now plays Beto's turns: Ana's turns keep coming back to her.
    turn = st.turn
    for _ in range(40):
        st = await world.settled(gid)
        if st.turn >= turn + 4 or st.phase == "over":
            break
        await world.play_turn_step(gid, st)
    assert st.turn >= turn + 4 or st.phase == "over"


async def test_house_rule_starting_cash_from_the_new_command(world: World) -> None:
    opened = await world.slash(world.ana, "turista new", start_cash=99000)
    assert opened.message is not None and "$99,000" in opened.message.text
    await world.slash(world.beto, "turista join")
    gid = world.row().id
    st = await world.start(gid, world.ana)
    assert st.settings.start_cash == 99000
    assert all(s.cash <= 99000 for s in st.seats) and max(s.cash for s in st.seats) > 90000


async def test_trading_outside_the_window_is_refused_at_once(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], edition="mundial")
    st = await world.start(gid, world.ana)
    current = world.user_of(gid, st.current)
    other = world.beto if current is world.ana else world.ana
    # Every title is still the bank's: the window is closed, and the builder never opens.
    closed = await world.slash(current, "trade", user=other)
    assert closed.ephemeral and "Los tratos se abren" in (closed.content or ""), closed.content
    assert not (closed.message and closed.message.custom_ids())
    waiting = await world.slash(other, "trade", user=current)
    assert waiting.ephemeral and "solo puedes tratar en tu turno" in (waiting.content or ""), waiting.content


async def test_trade_with_someone_not_at_the_table_says_computers_trade_through_the_button(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], computers=1)
    await world.start(gid, world.ana)
    st = await world.play_until(gid, lambda st: not st.seats[st.current].computer)
    current = world.user_of(gid, st.current)
    refused = await world.slash(current, "trade", user=world.carl)
    assert refused.ephemeral and "solo para personas" in (refused.content or "") and "*Tratos…*" in (
        refused.content or ""), refused.content


async def test_a_host_who_leaves_the_lobby_hands_it_to_the_next_person(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto, world.dora])
    lobby = world.with_verb("join")
    assert lobby is not None and f"Organiza: <@{world.ana.id}>" in lobby.text
    left = await world.click(world.ana, lobby, "leave")
    assert left.response_type in (6, 7) and not left.followups  # answered at once, the lobby edited after the write
    await world.fake.wait_for(lambda: f"Organiza: <@{world.beto.id}>" in lobby.text, what="the new host")
    assert world.game(gid).host_id == world.beto.id
    # The new host's powers come with the role: Dora may not start, Beto may.
    refused = await world.click(world.dora, lobby, "start")
    assert refused.ephemeral and "organiza" in (refused.content or "")
    st = await world.start(gid, world.beto)
    assert len(st.seats) == 2 and st.phase != "over"
