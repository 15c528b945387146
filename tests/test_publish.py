"""The publisher's bookkeeping without Discord: what it posts or edits from what the store holds, with which
nonce, and what it records (the end-to-end and fault suites show the same through the fake Discord)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.http import Route

from bot.face.publisher import Publisher, nonce
from bot.pictures import pool
from bot.store import GameRow, SeatRow, Store
from bot.table.writing import Writer
from engine import State, apply, legal_actions, new_game
from tests.test_wire import read_back

CHANNEL = 555
PLAIN = ("end_turn", "decline", "roll", "pass_bid", "pay_fine")  # the moves that end a turn soonest


class Response:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "injected"


def http_error(status: int) -> discord.HTTPException:
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    if status >= 500:
        kind = discord.DiscordServerError
    return kind(Response(status), {"message": "injected", "code": 0})  # type: ignore[arg-type]


async def payload_of(body: Any) -> dict[str, Any]:
    """The JSON of a request's body: the body itself, or the multipart's `payload_json` when files go with it."""
    if body.content_type == "application/json":
        return json.loads(await body.as_bytes())
    return json.loads((await read_back(body))["payload_json"][2])


@dataclass
class Channel:
    """Records the payloads of posts and edits (what discord.py's HTTP client is asked to send); `failures` are
    raised, first to last, by the next requests."""

    id: int = CHANNEL
    posts: list[dict[str, Any]] = field(default_factory=list)
    edits: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    failures: list[discord.HTTPException] = field(default_factory=list)
    by_nonce: dict[str, int] = field(default_factory=dict)
    next_id: int = 1000

    async def request(self, route: Route, *, data: Any) -> dict[str, Any]:
        """discord.py's `HTTPClient.request`, for a post or an edit of a message of this channel."""
        assert route.channel_id == self.id
        if self.failures:
            raise self.failures.pop(0)
        payload = await payload_of(data)
        if route.method == "PATCH":
            self.edits.append((int(route.url.rsplit("/", 1)[1]), payload))
            return {"id": route.url.rsplit("/", 1)[1]}
        assert route.method == "POST"
        self.posts.append(payload)
        key = self.posts[-1].get("nonce")
        if key in self.by_nonce:  # Discord's enforce_nonce: the message that nonce made
            return {"id": str(self.by_nonce[key])}
        self.next_id += 1
        if key:
            self.by_nonce[key] = self.next_id
        return {"id": str(self.next_id)}


@dataclass
class Config:
    auction_quiet: float = 30.0
    minute: float = 60.0


WRITES = Writer()  # one writer thread for every test's host, as a bot has one


@dataclass
class Host:
    store: Store
    channel: Channel
    writes: Writer = WRITES
    config: Config = field(default_factory=Config)
    allowed_mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)

    @property
    def http(self) -> Channel:
        return self.channel

    def get_partial_messageable(self, id: int, **_: Any) -> Channel:
        return self.channel


@dataclass
class Owner:
    bot: Host
    row: GameRow
    gid: int
    state: State
    lang: str = "es"
    announced: list[State] = field(default_factory=list)

    @property
    def seats(self) -> list[SeatRow]:
        return self.row.seats

    @property
    def channel(self) -> Channel:
        return self.bot.channel

    def user_of(self, seat: int) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    async def announce_winner(self, st: State) -> None:
        self.announced.append(st)

    def show_progress(self, st: State) -> None:
        pass


@pytest.fixture(autouse=True)
def no_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    async def picture(*_: Any, **__: Any) -> discord.File:
        return discord.File(io.BytesIO(b"png"), filename="board.png")

    monkeypatch.setattr(pool, "board_file", picture)
    monkeypatch.setattr(pool, "board_if_changed", picture)
    monkeypatch.setattr(pool, "deed_file", picture)


@pytest.fixture
def host(tmp_path: Path) -> Iterator[Host]:
    with Store(tmp_path / "t.db") as store:
        yield Host(store, Channel())


def a_game(host: Host) -> Owner:
    store = host.store
    gid = store.create_game(1, CHANNEL, 7, "turismundo", {}, 3, host_name="Ana")
    store.add_seat(gid, 8, "Beto")
    state, events = new_game("turismundo", ["Ana", "Beto"], 3)
    store.start_game(gid, state, events)
    return owner_of(host, gid)


def owner_of(host: Host, gid: int) -> Owner:
    """The game as a fresh process finds it: everything from the store."""
    row = host.store.game(gid)
    assert row.state is not None
    return Owner(host, row, gid, row.state)


async def test_a_post_is_marked_before_and_recorded_after(host: Host) -> None:
    owner = a_game(host)
    await Publisher(owner).post_table()  # type: ignore[arg-type]
    (post,) = host.channel.posts
    version = owner.state.version
    assert post["nonce"] == nonce(owner.gid, "table", version, None) and len(post["nonce"]) <= 25
    row = host.store.messages(owner.gid)["table"]
    assert (row.message_id, row.version, row.posting) == (1001, version, None)


async def test_a_new_turns_table_is_marked_with_the_action_that_starts_the_turn(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    owner = a_game(host)
    publisher = Publisher(owner)  # type: ignore[arg-type]
    await publisher.post_table()
    st = owner.state
    while True:  # the first turn, played to its end
        options = [a for seat in st.seat_to_act() for a in legal_actions(st, seat)]
        action = min(options, key=lambda a: PLAIN.index(a.kind) if a.kind in PLAIN else len(PLAIN))
        new, events = apply(st, action)
        if any(e["code"] == "turn_started" for e in events):
            break
        host.store.apply(owner.gid, st.version, None, action, events, new)
        st = owner.state = new
    posting = publisher.posts_ahead(events)
    assert posting == [("table", CHANNEL)]
    host.store.apply(owner.gid, st.version, None, action, events, new, posting=posting)
    publisher.marked(posting, new.version)
    owner.state = new
    # A crash from here on finds the new table in doubt, and sends it again with its nonce (as above).
    assert host.store.messages(owner.gid)["table"].posting == new.version
    marks: list[int] = []
    monkeypatch.setattr(host.store, "intend_post", lambda *args, **_: marks.append(args[-1]))
    await publisher.publish(events)
    assert marks == []  # no write of its own for the mark
    assert host.channel.posts[-1]["nonce"] == nonce(owner.gid, "table", new.version, 1001)
    row = host.store.messages(owner.gid)["table"]
    assert (row.message_id, row.version, row.posting) == (1002, new.version, None)


async def test_a_post_cut_by_a_crash_is_sent_again_with_its_nonce(host: Host) -> None:
    owner = a_game(host)
    version = owner.state.version
    host.store.intend_post(owner.gid, "table", CHANNEL, version)
    # Discord made the message; the bot died before hearing back.
    host.channel.by_nonce[nonce(owner.gid, "table", version, None)] = 4242
    await Publisher(owner_of(host, owner.gid)).restore()  # type: ignore[arg-type]
    assert len(host.channel.posts) == 1 and host.channel.edits == []
    row = host.store.messages(owner.gid)["table"]
    assert (row.message_id, row.version, row.posting) == (4242, version, None)


async def test_a_start_leaves_up_to_date_messages_alone_and_edits_outdated_ones(host: Host) -> None:
    owner = a_game(host)
    version = owner.state.version
    host.store.posted(owner.gid, "table", CHANNEL, 77, version)
    await Publisher(owner_of(host, owner.gid)).restore()  # type: ignore[arg-type]
    assert host.channel.posts == [] and host.channel.edits == []
    host.store.posted(owner.gid, "table", CHANNEL, 77, version - 1)
    await Publisher(owner_of(host, owner.gid)).restore()  # type: ignore[arg-type]
    assert [m for m, _ in host.channel.edits] == [77] and host.channel.edits[0][1]["components"]
    assert host.store.messages(owner.gid)["table"].version == version


@pytest.mark.parametrize("status", [403, 404])
async def test_a_message_that_cannot_be_edited_is_replaced(host: Host, status: int,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    owner = a_game(host)
    host.store.posted(owner.gid, "table", CHANNEL, 77, owner.state.version - 1)
    host.channel.failures.append(http_error(status))
    await Publisher(owner_of(host, owner.gid)).restore()  # type: ignore[arg-type]
    (post,) = host.channel.posts
    assert post["nonce"] == nonce(owner.gid, "table", owner.state.version, 77)
    assert host.store.messages(owner.gid)["table"].message_id == 1001
    assert "the table message 77 cannot be edited" in caplog.text


async def test_server_errors_are_tried_again(host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.face.publisher.RETRY_DELAYS", (0.0, 0.0, 0.0))
    owner = a_game(host)
    host.channel.failures += [http_error(503), http_error(500)]
    await Publisher(owner).post_table()  # type: ignore[arg-type]
    assert len(host.channel.posts) == 1
    host.channel.failures += [http_error(503)] * 4
    with pytest.raises(discord.DiscordServerError):
        await Publisher(owner).post_table()  # type: ignore[arg-type]
    # The failed post stays marked: the next try (a heal, or a start) sends it with the same nonce.
    assert host.store.messages(owner.gid)["table"].posting == owner.state.version


async def test_a_decision_that_is_over_loses_its_buttons_and_its_record(host: Host) -> None:
    owner = a_game(host)
    host.store.posted(owner.gid, "auction", CHANNEL, 88, owner.state.version)
    host.store.posted(owner.gid, "table", CHANNEL, 77, owner.state.version)
    await Publisher(owner_of(host, owner.gid)).restore()  # type: ignore[arg-type]
    assert [(m, e["components"], "embeds" in e) for m, e in host.channel.edits] == [(88, [], False)]
    assert set(host.store.messages(owner.gid)) == {"table"}
