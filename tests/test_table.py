"""The table core without Discord: the lobby as a model, sessions applying moves and telling a face what changed,
the clocks. A face here is a recording of what it was told (`bot.table.face.Face`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config
from bot.store import LeaseLost, Store, StoreError
from bot.table.book import Book
from bot.table.face import Notice, NotShown, Table
from bot.table.lobby import Actor, Lobby, Refusal, check
from bot.table.sessions import Sessions
from bot.table.settings import NotOffered, TableSettings
from bot.table.storage import Storage
from engine import Action, legal_actions

GUILD, CHANNEL, HOST, GUEST = 1, 10, 100, 200


@dataclass(eq=False)  # hashable, as a face is: the sessions keep those of games they forgot
class RecordedFace:
    """What a table told its face, in order; `failures` make the next calls of `show` raise NotShown."""

    game: int
    book: Book
    told: list[tuple[str, Any]] = field(default_factory=list)
    failures: int = 0

    async def show(self, table: Table, events: list[dict], click: object | None = None) -> None:
        if self.failures:
            self.failures -= 1
            raise NotShown("injected")
        self.told.append(("show", (table.state.version, [e["code"] for e in events], click)))

    async def opened(self, table: Table, events: list[dict]) -> None:
        self.told.append(("opened", [e["code"] for e in events]))

    async def restore(self, table: Table) -> None:
        self.told.append(("restore", table.state.version))

    async def tell(self, table: Table, notice: Notice) -> None:
        self.told.append(("tell", notice))

    async def remind_directly(self, table: Table, notice: Notice) -> list[int]:
        self.told.append(("dm", notice))
        return []

    async def ended(self, table: Table, ended_by: str) -> None:
        self.told.append(("ended", ended_by))

    async def close(self) -> None:
        pass


@dataclass
class Place:
    store: Store
    storage: Storage
    sessions: Sessions
    lobby: Lobby
    faces: dict[int, RecordedFace]


async def eventually(happened: Callable[[], bool], what: str, within: float = 60.0) -> None:
    """Wait until `happened()`, however busy the machine: `within` seconds only tell a hang from a slow run."""
    try:
        async with asyncio.timeout(within):
            while not happened():
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"not within {within:.0f} s: {what}") from None


CONFIG = Config(token="", db="", dev_guild=None, pace=0.0, auction_quiet=30.0, time_scale=1.0, seed=7,
                log_level="INFO", render_workers=0, local=True)


@pytest.fixture
async def place(tmp_path: Path) -> AsyncIterator[Place]:
    with Store(tmp_path / "t.db") as store:
        storage = Storage(store)
        faces: dict[int, RecordedFace] = {}

        def make_face(game: int, book: Book) -> RecordedFace:
            faces[game] = RecordedFace(game, book)
            return faces[game]

        sessions = Sessions(CONFIG, storage, make_face, lambda guild: "es")  # type: ignore[arg-type]
        try:
            yield Place(store, storage, sessions, Lobby(CONFIG, storage, sessions.lock_for), faces)
        finally:
            sessions.closing = True
            for session in list(sessions.by_game.values()):
                session.cancel_tasks()
            storage.close()


async def opened_table(place: Place, computers: int = 0, **settings: Any) -> int:
    lobby = place.lobby
    async with lobby.lock_for(CHANNEL):
        row = await lobby.open(GUILD, CHANNEL, HOST, "Ana", "turismundo", TableSettings.opened(0, 0))
    if settings:
        place.store.update_settings(row.id, {**row.settings, **settings})
    async with lobby.changing(CHANNEL, row.id) as row:
        row = await lobby.join(row, GUEST, "Beto")
        for _ in range(computers):
            row, _ = await lobby.add_computer(row, "normal")
    return row.id


async def started(place: Place, computers: int = 0, **settings: Any) -> int:
    gid = await opened_table(place, computers, **settings)
    async with place.lobby.changing(CHANNEL, gid, Actor(HOST)) as row:
        start = await place.lobby.start(row)
        session = await place.sessions.for_game(gid)
        assert session is not None
        session.adopt(start.row)
        await session.opened(start.events)
    return gid


async def test_the_lobby_seats_people_and_refuses_what_it_cannot_do(place: Place) -> None:
    gid = await opened_table(place)
    lobby = place.lobby
    row = await lobby.of_channel(CHANNEL)
    assert row is not None and [s.name for s in row.seats] == ["Ana", "Beto"]
    with pytest.raises(Refusal, match="already_seated"):
        async with lobby.changing(CHANNEL, gid) as row:
            await lobby.join(row, GUEST, "Beto")
    with pytest.raises(Refusal, match="no_lobby"):  # a button of another table
        async with lobby.changing(CHANNEL, gid + 1) as row:
            pass
    with pytest.raises(Refusal, match="not_host"):
        async with lobby.changing(CHANNEL, gid, Actor(GUEST)) as row:
            pass
    async with lobby.changing(CHANNEL, gid, Actor(GUEST, manages_channel=True)) as row:
        row, name = await lobby.add_computer(row, "facil")
    assert name == "Lupita" and row.seats[-1].computer == "facil"
    async with lobby.changing(CHANNEL, gid) as row:
        with pytest.raises(Refusal, match="invalid"):
            await lobby.choose(row, "time_limit", ["61"])
        row = await lobby.choose(row, "time_limit", ["90"])
    assert TableSettings(row.settings).time_limit == 90
    async with lobby.changing(CHANNEL, gid) as row:
        row, closed = await lobby.leave(row, GUEST)
        assert not closed
        row, closed = await lobby.leave(row, HOST)
    assert closed and place.store.game(gid).status == "abandoned"  # only a computer was left


async def test_a_start_shows_the_first_table_with_the_starts_events(place: Place) -> None:
    gid = await started(place)
    face = place.faces[gid]
    assert face.told[0][0] == "opened" and face.told[0][1][-1] == "turn_started"
    row = place.store.game(gid)
    assert row.status == "active" and row.state is not None
    with pytest.raises(Refusal, match="game_running"):
        check(row, gid)


async def test_a_move_is_stored_then_shown_with_the_click_untouched(place: Place) -> None:
    gid = await started(place)
    session = await place.sessions.for_game(gid)
    assert session is not None and session.state is not None
    st = session.state
    user = session.user_of(st.current)
    click = object()
    events = await session.run(Action(kind="roll", seat=st.current), user, st.version, click=click)
    assert isinstance(events, list) and events
    assert place.store.game(gid).version == st.version + 1
    kind, (version, codes, handed) = place.faces[gid].told[-1]
    assert (kind, version, handed) == ("show", st.version + 1, click) and codes == [e["code"] for e in events]
    # The same button again is outdated, and nothing is shown.
    told = len(place.faces[gid].told)
    assert await session.run(Action(kind="roll", seat=st.current), user, st.version) == ("outdated", {})
    assert len(place.faces[gid].told) == told


async def test_a_move_the_face_could_not_show_is_kept_and_shown_later(place: Place,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.table.session.HEAL_FIRST", 0.01)
    gid = await started(place)
    session = await place.sessions.for_game(gid)
    assert session is not None and session.state is not None
    st = session.state
    place.faces[gid].failures = 1
    events = await session.run(Action(kind="roll", seat=st.current), session.user_of(st.current))
    assert isinstance(events, list)
    assert place.store.game(gid).version == st.version + 1
    await eventually(lambda: ("restore", st.version + 1) in place.faces[gid].told, "the move shown later")


async def test_a_move_stored_though_the_database_said_otherwise_is_shown_at_the_next_click(
        place: Place, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database went away during the commit: the move was stored, the bot heard `db_unavailable`. The next
    click finds the stored game ahead (outdated), and the table then shows the stored move; nothing is made twice."""
    monkeypatch.setattr("bot.table.session.HEAL_FIRST", 0.01)
    gid = await started(place)
    session = await place.sessions.for_game(gid)
    assert session is not None and session.state is not None
    st = session.state
    user = session.user_of(st.current)
    stored = place.storage.apply

    async def answer_lost(*args: Any, **kwargs: Any) -> int:
        await stored(*args, **kwargs)
        raise StoreError("db_unavailable", detail="the connection broke during the commit")

    place.storage.apply = answer_lost  # type: ignore[method-assign]
    with pytest.raises(StoreError):
        await session.run(Action(kind="roll", seat=st.current), user, st.version)
    del place.storage.apply
    assert place.store.game(gid).version == st.version + 1 and session.state.version == st.version
    assert await session.run(Action(kind="roll", seat=st.current), user, st.version) == ("outdated", {})
    assert session.state.version == st.version + 1 == place.store.game(gid).version
    await eventually(lambda: ("restore", st.version + 1) in place.faces[gid].told, "the stored move shown")


async def test_a_process_whose_shard_was_taken_over_steps_aside(place: Place, tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    place.storage.on_lease_lost = place.sessions.step_aside
    place.store.take_shards(1, [0], "old")
    gid = await started(place)
    session = await place.sessions.for_game(gid)
    assert session is not None and session.state is not None
    st = session.state
    with Store(tmp_path / "t.db") as newer:
        newer.take_shards(1, [0], "new")  # a newer process on the same shard and database
    with pytest.raises(LeaseLost):
        await session.run(Action(kind="roll", seat=st.current), session.user_of(st.current), st.version)
    assert place.store.game(gid).version == st.version  # refused by the database: nothing written
    assert session.closed and gid not in place.sessions.by_game and (0, 1) in place.sessions.lost
    assert "shard 0 of 1: another process took it over (new, epoch 2" in caplog.text
    with pytest.raises(LeaseLost):  # a later click on the game is answered so, without loading it again
        await place.sessions.for_game(gid)


async def test_the_clock_warns_then_plays_for_an_absent_person(place: Place) -> None:
    gid = await started(place, turn_timeout=60)
    session = await place.sessions.for_game(gid)
    assert session is not None and session.state is not None
    session.config = replace(CONFIG, time_scale=0.001)  # a minute lasts 60 ms
    st = session.state
    session.row.deadline = None
    session.arm_timers()
    face = place.faces[gid]
    await eventually(lambda: any(kind == "show" for kind, _ in face.told), "the move played for the absent seat")
    notices = [told.key for kind, told in face.told if kind == "tell"]
    assert notices[:2] == ["table.timeout_warning", "table.played_for"]
    assert session.state is not None and session.state.version > st.version


def test_settings_read_the_stored_dict_and_refuse_what_was_not_offered() -> None:
    settings = TableSettings({"turn_timeout": 120, "ends_at": 1234.5, "thread": False, "edition": "mundial"})
    assert (settings.turn_timeout, settings.ends_at, settings.thread) == (120, 1234.5, False)
    assert settings.edition("turismundo") == "mundial" and TableSettings({}).edition("monopolio") == "monopolio"
    assert TableSettings({}).thread and TableSettings({}).ending == "last"
    with pytest.raises(NotOffered):
        TableSettings.opened(7, 0)
    assert TableSettings.opened(30, 60, 5000).values == {"time_limit": 30, "turn_timeout": 60, "start_cash": 5000}


async def test_a_computer_seat_plays_its_own_turns(place: Place) -> None:
    gid = await started(place, computers=1)
    session = await place.sessions.for_game(gid)
    assert session is not None
    session.after_change()
    # People play cautiously until a computer has moved (a minute only tells a hang from a busy machine).

    def a_computer_moved() -> bool:
        return any(e.actor is None for e in place.store.log(gid) if e.action)

    async with asyncio.timeout(60):
        while not a_computer_moved():
            st = session.state
            assert st is not None
            people = [s for s in st.seat_to_act() if not session.plays_itself(s)]
            if people:
                seat = people[0]
                kinds = {a.kind: a for a in legal_actions(st, seat)}
                action = next((kinds[k] for k in ("end_turn", "decline", "pass_bid", "roll", "pay_fine")
                               if k in kinds), None)
                if action is not None:
                    await session.run(action, session.user_of(seat))
            await asyncio.sleep(0.005)


async def test_a_rematch_seats_everyone_again_with_the_same_rules_and_refuses_a_second_table(place: Place) -> None:
    third = 300
    gid = await opened_table(place, time_limit=60, free_parking_pot=True, edition="mundial")
    lobby = place.lobby
    async with lobby.changing(CHANNEL, gid) as row:
        await lobby.join(row, third, "Carl")
        await lobby.add_computer(row, "dificil")
    async with lobby.changing(CHANNEL, gid, Actor(HOST)) as row:
        await lobby.start(row)
    # The host hands Carl's seat to a computer; the game then ends.
    place.store.update_seat(gid, 2, user_id=None, computer="normal")
    place.store.set_status(gid, "abandoned")
    old = place.store.game(gid)
    assert old.settings["ends_at"] > 0
    async with lobby.lock_for(CHANNEL):
        row = await lobby.rematch(old, GUEST, "Beto")
    # The person who asked is the host; the people and the computer seated from the start sit again, in their
    # order; the seat handed to a computer stays empty. The same edition and house rules, a new clock.
    assert row.status == "lobby" and row.host_id == GUEST and row.channel_id == CHANNEL and row.id != gid
    assert [(s.user_id, s.name, s.computer) for s in row.seats] == [
        (GUEST, "Beto", ""), (HOST, "Ana", ""), (None, "Lupita", "dificil")]
    settings = TableSettings(row.settings)
    assert settings.edition(row.edition) == "mundial" and settings.time_limit == 60
    assert settings.rules.free_parking_pot and settings.ends_at is None
    with pytest.raises(Refusal, match="rematch_busy"):
        async with lobby.lock_for(CHANNEL):
            await lobby.rematch(old, HOST, "Ana")
    assert [g.id for g in place.store.open_games()] == [row.id]


async def _until_a_person_may_buy(session: Any) -> int:
    """Play the table's moves (as a cautious player would) until its current person may buy; their id."""
    from engine import choose

    for _ in range(500):
        st = session.state
        if st.phase == "buy" and not st.debts and st.auction is None:
            return session.user_of(st.current)
        seat = st.trade.target if st.trade is not None else st.seat_to_act()[0]
        action = choose(st, seat, "normal")
        if action.kind == "buy":
            action = Action(kind="decline", seat=seat)
        result = await session.run(action, session.user_of(seat), st.version)
        assert isinstance(result, list), result
    raise AssertionError("nobody could buy")


async def test_a_take_back_needs_the_last_movers_own_moves_and_stops_at_the_tables_limit(place: Place) -> None:
    from bot.table.takebacks import TAKE_BACK_LIMIT

    gid = await started(place, auction_on_decline=False)
    session = await place.sessions.for_game(gid)
    assert session is not None
    for made in range(TAKE_BACK_LIMIT + 1):
        user = await _until_a_person_may_buy(session)
        st = session.state
        other = HOST if user == GUEST else GUEST
        square = st.seats[st.current].pos
        assert isinstance(await session.run(Action(kind="buy", seat=st.current), user, st.version), list)
        why, events = await session.take_back_refusal(user, 1)
        if made == TAKE_BACK_LIMIT:
            assert why == ("take_back_limit", {"count": TAKE_BACK_LIMIT})
            break
        assert (await session.take_back_refusal(other, 1))[0] == ("cannot_take_back", {})
        assert (await session.take_back_refusal(user, 2))[0] == ("take_back_too_many", {"count": 1})
        assert why is None and any(e.get("reason") == "buy" for e in events)
        assert session.people_asked(st.current) == [other]
        version = session.state.version
        result = await session.take_back(version, st.current, 1, user, agreed=[other])
        assert isinstance(result, list) and result[0]["code"] == "taken_back"
        assert session.state.owner[square] == -1 and session.state.phase == "buy"
        assert place.faces[gid].told[-1][1][1] == ["taken_back"]
        # Taken back: the same state but its version, which moved on; the rating is untouched by it.
        assert session.state.version == version + 1 and "host_took_back" not in place.store.game(gid).settings
        assert isinstance(await session.run(Action(kind="decline", seat=st.current), user, session.state.version),
                          list)
    off = await started_elsewhere(place, take_backs=False)
    assert (await off.take_back_refusal(HOST + 1, 1))[0] == ("take_backs_off", {})


async def started_elsewhere(place: Place, **settings: Any) -> Any:
    lobby = place.lobby
    async with lobby.lock_for(CHANNEL + 1):
        row = await lobby.open(GUILD, CHANNEL + 1, HOST + 1, "Ana", "turismundo", TableSettings.opened(0, 0))
    place.store.update_settings(row.id, {**row.settings, **settings})
    async with lobby.changing(CHANNEL + 1, row.id) as row:
        row = await lobby.join(row, GUEST + 1, "Beto")
    async with lobby.changing(CHANNEL + 1, row.id, Actor(HOST + 1)) as row:
        start = await lobby.start(row)
    session = await place.sessions.for_game(row.id)
    assert session is not None
    session.adopt(start.row)
    return session
