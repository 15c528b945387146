"""The server's league through Discord: ratings as openskill computes them, games that rate nobody, the ranking,
profiles, seasons, the rematch, the replay, the history, and a person's data and forgetting it."""

from __future__ import annotations

import asyncio
import io
import re
import subprocess
import sys

import pytest
from openskill.models import PlackettLuce
from PIL import Image

from bot import league
from bot.face import ids
from devkit.synthetic import stored_game
from devkit.world import ROOT, World
from fakediscord import FakeMessage, FakeUser


@pytest.fixture
def bot_env() -> dict[str, str]:
    # 120 s per decision last 0.24 s here: people who do not play are played for, then a computer takes their
    # seat and plays on for them (their seat, and its rating, stay theirs); auctions close at once.
    return {"TURISTA_TIME_SCALE": "0.002", "TURISTA_AUCTION_QUIET": "1"}


def shown(mu: float, sigma: float) -> int:
    """The rating the ranking shows: openskill's ordinal, 1000 + 20 × (mu − 3 sigma)."""
    return round(1000 + 20 * (mu - 3 * sigma))


def numbers(line: str) -> list[int]:
    return [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", line)]


async def choose(world: World, user: FakeUser, settings: FakeMessage, what: str, chosen: list[str]) -> None:
    cid = next(c for c in settings.custom_ids() if c.endswith(f":set:{what}"))
    await (await world.fake.select(user, settings, cid, chosen))


async def house_rules(world: World, host: FakeUser, gid: int, *, ending: str | None = None,
                      rules: list[str] | None = None) -> None:
    """Choose the lobby's ending and house rules through its House rules button (`rules`: every switch on)."""
    lobby = world.with_verb("start")
    assert lobby is not None
    settings = await world.click(host, lobby, "settings")
    assert settings.ephemeral and settings.message is not None
    if ending is not None:
        await choose(world, host, settings.message, "ending", [ending])
        await world.eventually(lambda: world.game(gid).settings.get("max_turns") == int(ending[5:]),
                               what="the ending to be saved")
    if rules is not None:
        await choose(world, host, settings.message, "rules", rules)
        await world.eventually(lambda: all(world.game(gid).settings.get(r) for r in rules),
                               what="the house rules to be saved")


def the_end(world: World, gid: int) -> FakeMessage:
    """The end-of-game message of game `gid`: the one with its Replay button."""
    for message in reversed(world.bot_messages()):
        if ids.make(gid, 0, "replay") in message.custom_ids():
            return message
    raise AssertionError(f"no end-of-game message for game {gid}")


async def ended(world: World, gid: int, timeout: float = 90) -> FakeMessage:
    await world.fake.wait_for(lambda: world.game(gid).status in ("finished", "abandoned"), timeout,
                              f"game {gid} to end")
    await world.fake.wait_for(lambda: any(ids.make(gid, 0, "replay") in m.custom_ids() for m in world.bot_messages()),
                              10, f"the end of game {gid} to be posted")
    return the_end(world, gid)


async def answer(reply_waiting: object) -> FakeMessage:
    """The message a command or click answered with, once it is no longer "thinking…"."""
    reply = await reply_waiting  # type: ignore[misc]
    return await reply.wait_message(timeout=30)


async def start(world: World, gid: int, host: FakeUser) -> None:
    """Press Start and wait for the game to begin (not for a person's turn: the clock may play for them)."""
    lobby = world.with_verb("start")
    assert lobby is not None
    await world.click(host, lobby, "start")
    await world.eventually(lambda: world.game(gid).status != "lobby", what=f"game {gid} to start")


async def stored(world: World, seats: list, *, turns: int, seed: int) -> int:
    """A game played by computers for every seat and written to the database as the bot writes one, once the
    bot has resumed its open games (the game is open while it is written: a start-up then would take it up)."""
    await world.eventually(lambda: "resumed" in world.bot.log(), 10, "the bot to resume its games")
    return stored_game(world.store, world.guild.id, world.channel.id, seats, turns=turns, seed=seed)


def owner(world: World) -> FakeUser:
    """The server's owner: the one person of the fake who may manage the server."""
    return world.fake.state.owner


# -- ratings --------------------------------------------------------------------------------------------------
async def test_a_rated_game_among_three_people_and_a_computer_changes_the_ranking_as_openskill_computes_it(
        world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto, world.carl], computers=1)
    await house_rules(world, world.ana, gid, ending="turns30")
    await start(world, gid, world.ana)
    # Nobody clicks: the clock plays for each person, then computers stand in for them to the end.
    end = await ended(world, gid)
    final = world.game(gid).state
    assert final is not None and final.phase == "over"
    row = world.game(gid)
    people = {s.seat: s.user_id for s in row.seats if s.user_id is not None}
    assert len(people) == 3 and any(s.computer for s in row.seats if s.user_id is not None)  # stood in for

    # What openskill's Plackett-Luce makes of the placings: newcomers at its defaults, the computer at its level.
    rank = {standing.seat: standing.rank for standing in final.standings}
    model = PlackettLuce()
    seats = sorted(rank)
    teams = [[model.rating(mu=25.0, sigma=2.0) if s not in people else model.rating()] for s in seats]
    after = model.rate(teams, ranks=[float(rank[s]) for s in seats])
    expected = {people[s]: shown(a[0].mu, a[0].sigma) for s, a in zip(seats, after, strict=True) if s in people}
    names = {world.ana.id: "Ana", world.beto.id: "Beto", world.carl.id: "Carl"}

    # The end-of-game message tells each person's change, and offers a rematch and the replay.
    assert "Puntuación" in end.text
    for user_id, rating in expected.items():
        line = next(line for line in end.text.splitlines()
                    if line.startswith(names[user_id]) and "→" in line)
        assert numbers(line)[:2] == [1000, rating], line
    assert {ids.parse(c).verb for c in end.custom_ids()} == {"rematch", "replay"}  # type: ignore[union-attr]

    # The ranking is public; one game each is too few for a place: everyone is listed apart, with that rating.
    ranking = await world.slash(world.dora, "turista ranking")
    assert not ranking.ephemeral and ranking.message is not None
    embed = ranking.message.embeds[0]
    assert "temporada 1" in embed["title"]
    waiting = embed["fields"][0]["value"].splitlines()
    assert len(waiting) == 3
    for user_id, rating in expected.items():
        line = next(line for line in waiting if line.startswith(names[user_id]))
        assert numbers(line)[0] == rating, line

    # A profile: private, drawn as a picture, with a button that shows it to the channel.
    mine = await world.slash(world.beto, "turista profile")
    card = await mine.wait_message(lambda m: bool(m.attachments), timeout=15)
    assert card.ephemeral and card.attachments[0].filename == "profile.png"
    assert Image.open(io.BytesIO(card.attachments[0].data)).size == (1100, 700)
    assert str(expected[world.beto.id]) in card.text.replace(",", "")
    shared = await world.click(world.beto, card, "show_profile")
    public = await world.fake.wait_for(lambda: next(iter(shared.followups), None), 15, "the card for the channel")
    assert not public.ephemeral and public.attachments[0].filename == "profile.png"
    nobody = await world.slash(world.dora, "turista profile")
    assert "Dora" in (await nobody.wait_message()).content

    # A new season: only someone who manages the server, after a confirmation; the old one stays readable.
    refused = await world.slash(world.ana, "turista season new")
    assert refused.ephemeral and "gestionar el servidor" in (refused.content or "")
    asked = await world.slash(owner(world), "turista season new")
    assert asked.ephemeral and asked.message is not None and "temporada 2" in (asked.content or "")
    confirmation = asked.message
    cid = world.custom_id(confirmation, "season_yes")
    done = await world.click(owner(world), confirmation, "season_yes")
    await world.fake.wait_for(lambda: done.followups, 10, "the new season to be announced")
    assert not done.followups[0].ephemeral and "temporada 2" in done.followups[0].text
    assert world.store.current_season(world.guild.id) == 2
    await (await world.fake.forge(owner(world), world.channel, {"custom_id": cid, "component_type": 2},
                                  message=confirmation)).wait()
    await world.fake.wait_for(lambda: "⚠️" in confirmation.content, 10, "the second click to be refused")
    assert world.store.current_season(world.guild.id) == 2  # a second click changes nothing
    fresh = (await world.slash(world.ana, "turista ranking")).message
    assert fresh is not None and "Aún nadie" in fresh.text
    old = (await world.slash(world.ana, "turista ranking", season=1)).message
    assert old is not None and len(old.embeds[0]["fields"][0]["value"].splitlines()) == 3
    nonsense = await world.slash(world.ana, "turista ranking", season=9)
    assert nonsense.ephemeral and "temporada 2" in (nonsense.content or "")


async def test_a_game_ended_by_the_host_and_a_game_with_one_person_rate_nobody_unless_the_house_rule_says_so(
        world: World) -> None:
    # Ended by the host: unrated by default.
    gid = await world.open_table(world.ana, [world.beto])
    await world.start(gid, world.ana)
    asked = await world.slash(world.ana, "turista end")
    await world.click(world.ana, asked.message, "end_game")  # type: ignore[arg-type]
    end = await ended(world, gid)
    assert "Puntuación" not in end.text
    assert world.store.game_ratings(gid) == []
    # One person and computers, played to the end: nobody to rate against.
    solo = await world.open_table(world.carl, [], computers=2)
    await house_rules(world, world.carl, solo, ending="turns30")
    await start(world, solo, world.carl)
    end = await ended(world, solo)
    assert world.game(solo).status == "finished" and "Puntuación" not in end.text
    ranking = (await world.slash(world.dora, "turista ranking")).message
    assert ranking is not None and "Aún nadie" in ranking.text and not ranking.embeds[0].get("fields")
    # The house rule, chosen in the lobby: a game its host ends is rated by the standings then.
    rated = await world.open_table(world.ana, [world.beto])
    lobby = world.with_verb("start")
    assert lobby is not None
    settings = await world.click(world.ana, lobby, "settings")
    option = next(o for o in settings.message.component(type=3, custom_id=next(  # type: ignore[union-attr]
        c for c in settings.message.custom_ids() if c.endswith(":set:rules")))["options"]  # type: ignore[union-attr]
        if o["value"] == "rated_when_ended")
    assert option["label"] == "Puntúa aunque se termine antes" and not option.get("default")
    on = [o["value"] for o in settings.message.component(type=3, custom_id=next(  # type: ignore[union-attr]
        c for c in settings.message.custom_ids() if c.endswith(":set:rules")))["options"]  # type: ignore[union-attr]
        if o.get("default")] + ["rated_when_ended"]
    await house_rules(world, world.ana, rated, rules=on)
    await world.start(rated, world.ana)
    asked = await world.slash(world.ana, "turista end")
    await world.click(world.ana, asked.message, "end_game")  # type: ignore[arg-type]
    end = await ended(world, rated)
    assert "Puntuación" in end.text and len(world.store.game_ratings(rated)) == 2
    ranking = (await world.slash(world.dora, "turista ranking")).message
    assert ranking is not None and "Ana" in ranking.text and "Beto" in ranking.text


# -- the rematch ----------------------------------------------------------------------------------------------
async def test_the_rematch_seats_everyone_and_refuses_a_second_table(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], computers=1, edition="mundial")
    await house_rules(world, world.ana, gid, ending="turns60")
    await world.start(gid, world.ana)
    asked = await world.slash(world.ana, "turista end")
    await world.click(world.ana, asked.message, "end_game")  # type: ignore[arg-type]
    end = await ended(world, gid)
    assert end.channel.id != world.channel.id  # the game was played in its thread
    # Someone who did not play cannot ask for it.
    stranger = await world.click(world.dora, end, "rematch")
    assert stranger.ephemeral and "Solo quien jugó" in (stranger.content or "")
    # Beto asks: a lobby in the channel, the same edition and rules, everyone seated, Beto its host.
    rematch_id = world.custom_id(end, "rematch")
    click = await world.click(world.beto, end, "rematch")
    await world.fake.wait_for(lambda: click.followups, 10, "the rematch's note")
    row = world.row()
    assert row is not None and row.status == "lobby" and row.id != gid
    old = world.game(gid)
    assert row.host_id == world.beto.id and row.edition == "mundial" and row.settings["max_turns"] == 60
    assert [(s.user_id, s.name, s.computer) for s in row.seats] == [
        (world.beto.id, "Beto @\u200beveryone", ""), (world.ana.id, "Ana", ""), (None, "Lupita", "normal")]
    assert "ends_at" not in row.settings and old.settings.get("max_turns") == 60
    lobby = world.with_verb("start")
    assert lobby is not None and lobby.channel.id == world.channel.id and "(3/6)" in lobby.text
    assert f"<#{world.channel.id}>" in click.followups[0].content  # the note says where the lobby is
    # The end-of-game message keeps only its replay; a second click (a stale copy of the button) changes nothing.
    await world.fake.wait_for(lambda: rematch_id not in end.custom_ids(), 5, "the rematch button to go")
    second = await (await world.fake.forge(world.ana, end.channel, {"custom_id": rematch_id, "component_type": 2},
                                           message=end)).wait()
    assert second.ephemeral and "Ya hay una mesa abierta" in (second.content or "")
    assert [r.id for r in [world.row()] if r] == [row.id]
    # Each person may leave before the start.
    await world.click(world.ana, lobby, "leave")
    await world.eventually(lambda: world.game(row.id).seat_of(world.ana.id) is None, what="Ana to leave")
    assert world.game(row.id).status == "lobby"


# -- the replay -----------------------------------------------------------------------------------------------
READING = 0.7  # seconds a person takes to read the table before a click


@pytest.mark.parametrize("bot_env", [{"TURISTA_TIME_SCALE": "0.05", "TURISTA_AUCTION_QUIET": "100"}])
async def test_a_replay_of_a_150_turn_game_is_drawn_while_two_tables_play_on(world: World) -> None:
    """How quickly the boards come meanwhile is `bench/replay_load.py`'s to measure; here, that the tables are
    answered while the replay is drawn, each click in Discord's 3 s (the fake refuses a later answer)."""
    long = await stored(world, [(world.ana.id, "Ana", ""), (world.beto.id, "Beto", ""), (None, "Lupita", "normal"),
                                (None, "Chabelo", "dificil")], turns=150, seed=3)
    assert world.game(long).state.turn == 150  # type: ignore[union-attr]
    first = await world.open_table(world.ana, [world.beto])
    second = await world.open_table(world.carl, [world.dora], channel=world.other)
    await world.start(first, world.ana)
    await world.start(second, world.carl, world.other)
    meanwhile = {first: 0, second: 0}  # clicks answered with their table between the replay's command and picture
    drawing = asyncio.Event()
    done = asyncio.Event()

    async def play(gid: int, channel: object) -> None:
        """Click as the game asks, as people do (a moment to read the table first: clicking at once would spend
        the channel's rate limit, and the tables would wait for Discord, not for the replay), counting the clicks
        whose table came back while the replay was drawn, until the replay is up (and a few clicks more)."""
        after = 0
        while after < 3:
            st = await world.settled(gid, channel)  # type: ignore[arg-type]
            if st.phase == "over":
                return
            await asyncio.sleep(READING)
            await world.play_turn_step(gid, st, channel)  # type: ignore[arg-type]
            await world.settled(gid, channel)  # type: ignore[arg-type]
            meanwhile[gid] += drawing.is_set() and not done.is_set()
            after += done.is_set()

    tables = [asyncio.create_task(play(first, world.channel)), asyncio.create_task(play(second, world.other))]
    await asyncio.sleep(0.5)
    drawing.set()
    reply = await world.slash(world.dora, "turista replay", world.other, game=long)
    message = await reply.wait_message(lambda m: bool(m.attachments), timeout=120)  # a hang, however busy
    done.set()
    await asyncio.gather(*tables)
    gif = message.attachments[0]
    assert gif.filename == "replay.gif" and not message.ephemeral
    assert len(gif.data) < 8 * 1024 * 1024
    picture = Image.open(io.BytesIO(gif.data))
    assert picture.format == "GIF" and picture.n_frames > 20 and picture.width == 550
    assert f"#{long}" in message.text and "150 turnos" in message.text
    # The tables played on meanwhile: a replay drawn in their way would have held their clicks until its end,
    # letting through at most the one under way at each table.
    assert min(meanwhile.values()) >= 2, meanwhile
    # While it was drawn, the answer said how far it got (every 3 s, 0.15 s here).
    progress = [p for p in message.history if "cuadros" in str(p.get("embeds"))]
    assert progress, message.history
    # The same replay asked from the end-of-game's button, and from the history's select, is the same picture.
    again = await world.slash(world.ana, "turista replay", game=long)
    assert (await again.wait_message(lambda m: bool(m.attachments), timeout=30)).attachments[0].data == gif.data
    history = await world.slash(world.beto, "turista history")
    assert history.ephemeral and f"**#{long}**" in (history.content or "")
    assert re.search(r"\d\. (Ana|Beto) [\d,]+ [▲▼±]", history.content or ""), history.content
    pick = history.message.custom_ids()[0]  # type: ignore[union-attr]
    chosen = await (await world.fake.select(world.beto, history.message, pick, [str(long)])).wait()  # type: ignore[arg-type]
    shown_again = await chosen.wait_message(lambda m: bool(m.attachments), timeout=30)
    assert not shown_again.ephemeral and shown_again.attachments[0].data == gif.data
    # A game of another server, or one never played, has no replay here.
    missing = await world.slash(world.ana, "turista replay", game=long + 100)
    assert missing.ephemeral and "No hay una partida" in (missing.content or "")


# -- a person's data ----------------------------------------------------------------------------------------
async def test_forget_me_replaces_the_person_everywhere_and_store_verify_still_passes(world: World) -> None:
    played = await stored(world, [(world.ana.id, "Ana", ""), (world.beto.id, "Beto", ""), (None, "Lupita", "normal")],
                          turns=40, seed=5)
    mine = await world.slash(world.ana, "turista privacy")
    assert mine.ephemeral and "1 partida" in (mine.content or "") and "Mesa de pruebas" in (mine.content or "")
    # Not while she sits at an open table.
    gid = await world.open_table(world.ana, [world.beto])
    # Refused at once, before any "this cannot be undone", with what to do.
    asked = await world.slash(world.ana, "turista forget-me")
    assert asked.ephemeral and "mesas abiertas" in (asked.content or "")
    assert asked.message is None or not asked.message.custom_ids()
    assert world.store.personal_data(world.ana.id).seats
    asked = await world.slash(world.ana, "turista end")
    await world.fake.wait_for(lambda: world.game(gid).status == "abandoned", 10, "the lobby to close")
    # Cancelled, then confirmed.
    asked = await world.slash(world.ana, "turista forget-me")
    await world.click(world.ana, asked.message, "forget_no")  # type: ignore[arg-type]
    assert world.store.personal_data(world.ana.id).ratings
    asked = await world.slash(world.ana, "turista forget-me")
    confirmation = asked.message
    assert confirmation is not None
    await world.click(world.ana, confirmation, "forget_yes")
    await world.fake.wait_for(lambda: "Listo" in confirmation.content, 10, "forgetting to be done")
    assert "2 partidas" in confirmation.content  # the game played and the lobby she opened
    data = world.store.personal_data(world.ana.id)
    assert not data.seats and not data.ratings and data.actions == 0
    assert any(league.is_former(s.name) for s in world.game(played).seats)
    ranking = (await world.slash(world.beto, "turista ranking")).message
    assert ranking is not None and "Ana" not in ranking.text and "Beto" in ranking.text
    history = await world.slash(world.carl, "turista history")
    assert "Former player" in (history.content or "") and "Ana" not in (history.content or "")
    # The game still replays: its log, its picture.
    replay = await world.slash(world.beto, "turista replay", game=played)
    assert (await replay.wait_message(lambda m: bool(m.attachments), timeout=30)).attachments[0].filename \
        == "replay.gif"
    verify = subprocess.run([sys.executable, "-m", "bot.store", "verify", "--db", str(world.bot.db_path)],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert verify.returncode == 0, verify.stdout + verify.stderr
