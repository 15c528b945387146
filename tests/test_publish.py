"""The publisher's bookkeeping without Discord: what it posts or edits from what the store holds, with which
nonce, and what it records (the end-to-end and fault suites show the same through the fake Discord)."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.http import Route

from bot.face import adapter, attachments, layout
from bot.face.publisher import Publisher, nonce
from bot.store import GameRow, Store
from bot.table.book import Book
from bot.table.face import Table
from bot.table.settings import TableSettings
from bot.table.storage import Storage
from engine import State, apply, legal_actions, new_game
from fakediscord.models import walk_components
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


# The ids of messages posted now (Discord's ids hold the time): an edit of a message over an hour old goes out
# another way (`adapter.edit_message_once`).
FIRST_ID = discord.utils.time_snowflake(discord.utils.utcnow())
TABLE_ID, AUCTION_ID, CUT_ID = FIRST_ID - 77, FIRST_ID - 88, FIRST_ID - 4242  # messages of a game in play


@dataclass
class Channel:
    """Records the payloads of posts and edits (what discord.py's HTTP client is asked to send), a layout table's
    ping (a plain message) apart from the posts; `failures` are raised, first to last, by the next requests."""

    id: int = CHANNEL
    posts: list[dict[str, Any]] = field(default_factory=list)
    pings: list[dict[str, Any]] = field(default_factory=list)
    edits: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    failures: list[discord.HTTPException] = field(default_factory=list)
    by_nonce: dict[str, int] = field(default_factory=dict)
    next_id: int = FIRST_ID

    async def request(self, route: Route, *, data: Any) -> dict[str, Any]:
        """discord.py's `HTTPClient.request`, for a post or an edit of a message of this channel."""
        assert route.channel_id == self.id
        payload = await payload_of(data)
        if route.method == "POST" and "embeds" not in payload and "components" not in payload:
            self.pings.append(payload)  # never failed: the game does not wait on a ping
            return {"id": "1"}
        if self.failures:
            raise self.failures.pop(0)
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


@dataclass
class Client:
    """The part of the Discord client a publisher uses: its HTTP client (here, the channel) and mentions."""

    http: Channel
    allowed_mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)


@dataclass
class Host:
    store: Store
    storage: Storage
    channel: Channel


@dataclass
class Owner:
    """A game as its session keeps it: the store's row, the book, and the publisher that shows it."""

    host: Host
    row: GameRow
    gid: int
    state: State
    book: Book = field(init=False)
    publisher: Publisher = field(init=False)

    def __post_init__(self) -> None:
        self.book = Book(self.row.messages)
        self.publisher = Publisher(self.gid, self.book, client=Client(self.host.channel),  # type: ignore[arg-type]
                                   storage=self.host.storage, config=Config())  # type: ignore[arg-type]

    def table(self) -> Table:
        row = self.row
        return Table(self.gid, row.guild_id, row.host_id, row.edition, row.channel_id, row.where, "es", self.state,
                     row.seats,
                     TableSettings(row.settings), row.messages.get("lobby"))

    async def restore(self) -> None:
        """As a session restores its messages: the face shows them, then their edits are recorded."""
        await self.publisher.restore(self.table())
        await self.host.storage.shown(self.gid, self.book.take_unrecorded())


@pytest.fixture(autouse=True)
def no_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    async def picture(*_: Any, **__: Any) -> discord.File:
        return discord.File(io.BytesIO(b"png"), filename="board.png")

    monkeypatch.setattr(attachments, "board_file", picture)
    monkeypatch.setattr(attachments, "board_if_changed", picture)
    monkeypatch.setattr(attachments, "deed_file", picture)


@pytest.fixture(autouse=True)
def edits_through_the_channel(monkeypatch: pytest.MonkeyPatch) -> None:
    # The game's edits go out once, on the client's HTTP session (`bot.face.edits`); here they reach the channel
    # as discord.py's own edits do (no rate-limit headers: a bucket that never runs out).
    monkeypatch.setattr(adapter, "edit_message_once", adapter.edit_message)


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    with Store(tmp_path / "t.db") as store:
        storage = Storage(store)
        try:
            yield Host(store, storage, Channel())
        finally:
            storage.close()


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
    await owner.publisher.post_table(owner.table())
    (post,) = host.channel.posts
    version = owner.state.version
    assert post["nonce"] == nonce(owner.gid, "table", version, None) and len(post["nonce"]) <= 25
    row = host.store.messages(owner.gid)["table"]
    assert (row.message_id, row.version, row.posting) == (FIRST_ID + 1, version, None)


async def test_a_layout_table_comes_after_a_plain_ping_and_pings_nobody_itself(host: Host) -> None:
    owner = a_game(host)
    await owner.publisher.post_table(owner.table())
    (post,) = host.channel.posts
    if not layout.SUPPORTED:
        assert post["embeds"] and not host.channel.pings
        return
    (ping,) = host.channel.pings
    user = owner.table().user_of(owner.state.current)
    assert ping["allowed_mentions"]["users"] == [user] and f"<@{user}>" in ping["content"]
    assert post["flags"] & layout.IS_COMPONENTS_V2 and "content" not in post and "embeds" not in post
    assert post["allowed_mentions"] == {"parse": []}


async def test_a_new_turns_table_is_marked_with_the_action_that_starts_the_turn(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    owner = a_game(host)
    await owner.publisher.post_table(owner.table())
    st = owner.state
    while True:  # the first turn, played to its end
        options = [a for seat in st.seat_to_act() for a in legal_actions(st, seat)]
        action = min(options, key=lambda a: PLAIN.index(a.kind) if a.kind in PLAIN else len(PLAIN))
        new, events = apply(st, action)
        if any(e["code"] == "turn_started" for e in events):
            break
        host.store.apply(owner.gid, st.version, None, action, events, new)
        st = owner.state = new
    posting = owner.book.posts_ahead(events, CHANNEL)
    assert posting == [("table", CHANNEL)]
    host.store.apply(owner.gid, st.version, None, action, events, new, posting=posting)
    owner.book.marked(posting, new.version)
    owner.state = new
    # A crash from here on finds the new table in doubt, and sends it again with its nonce (as above).
    assert host.store.messages(owner.gid)["table"].posting == new.version
    marks: list[int] = []
    monkeypatch.setattr(host.store, "intend_post", lambda *args, **_: marks.append(args[-1]))
    await owner.publisher.show(owner.table(), events)
    assert marks == []  # no write of its own for the mark
    assert host.channel.posts[-1]["nonce"] == nonce(owner.gid, "table", new.version, FIRST_ID + 1)
    row = host.store.messages(owner.gid)["table"]
    assert (row.message_id, row.version, row.posting) == (FIRST_ID + 2, new.version, None)


async def test_a_post_cut_by_a_crash_is_sent_again_with_its_nonce(host: Host) -> None:
    owner = a_game(host)
    version = owner.state.version
    host.store.intend_post(owner.gid, "table", CHANNEL, version)
    # Discord made the message; the bot died before hearing back.
    host.channel.by_nonce[nonce(owner.gid, "table", version, None)] = CUT_ID
    await owner_of(host, owner.gid).restore()
    assert len(host.channel.posts) == 1 and host.channel.edits == []
    row = host.store.messages(owner.gid)["table"]
    assert (row.message_id, row.version, row.posting) == (CUT_ID, version, None)


async def test_a_start_leaves_up_to_date_messages_alone_and_edits_outdated_ones(host: Host) -> None:
    owner = a_game(host)
    version = owner.state.version
    host.store.posted(owner.gid, "table", CHANNEL, TABLE_ID, version)
    await owner_of(host, owner.gid).restore()
    assert host.channel.posts == [] and host.channel.edits == []
    host.store.posted(owner.gid, "table", CHANNEL, TABLE_ID, version - 1)
    await owner_of(host, owner.gid).restore()
    assert [m for m, _ in host.channel.edits] == [TABLE_ID] and host.channel.edits[0][1]["components"]
    assert host.store.messages(owner.gid)["table"].version == version


@pytest.mark.parametrize("status", [403, 404])
async def test_a_message_that_cannot_be_edited_is_replaced(host: Host, status: int,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    owner = a_game(host)
    host.store.posted(owner.gid, "table", CHANNEL, TABLE_ID, owner.state.version - 1)
    host.channel.failures.append(http_error(status))
    await owner_of(host, owner.gid).restore()
    (post,) = host.channel.posts
    assert post["nonce"] == nonce(owner.gid, "table", owner.state.version, TABLE_ID)
    assert host.store.messages(owner.gid)["table"].message_id == FIRST_ID + 1
    assert f"the table message {TABLE_ID} cannot be edited" in caplog.text


async def test_server_errors_are_tried_again(host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.face.publisher.RETRY_DELAYS", (0.0, 0.0, 0.0))
    owner = a_game(host)
    host.channel.failures += [http_error(503), http_error(500)]
    await owner.publisher.post_table(owner.table())
    assert len(host.channel.posts) == 1
    host.channel.failures += [http_error(503)] * 4
    with pytest.raises(discord.DiscordServerError):
        await owner.publisher.post_table(owner.table())
    # The failed post stays marked: the next try (a heal, or a start) sends it with the same nonce.
    assert host.store.messages(owner.gid)["table"].posting == owner.state.version


async def test_a_decision_that_is_over_loses_its_buttons_and_its_record(host: Host) -> None:
    owner = a_game(host)
    host.store.posted(owner.gid, "auction", CHANNEL, AUCTION_ID, owner.state.version)
    host.store.posted(owner.gid, "table", CHANNEL, TABLE_ID, owner.state.version)
    await owner_of(host, owner.gid).restore()
    ((message, edit),) = host.channel.edits
    assert message == AUCTION_ID and "embeds" not in edit
    # No buttons left: none at all, or a layout without them (a layout without components would be empty).
    assert not [c for c in walk_components(edit["components"]) if c.get("type") in (2, 3)]
    assert bool(edit["components"]) == layout.SUPPORTED
    assert set(host.store.messages(owner.gid)) == {"table"}


async def test_the_lobby_of_a_long_game_tells_its_state_less_often(host: Host,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A lobby message older than an hour is one whose edits Discord limits: its line changes every ten minutes,
    not every minute, and not at all for a while after Discord refused it."""
    import time
    from dataclasses import replace
    from datetime import timedelta

    from bot.face import publisher as module
    from bot.store import MessageRow

    owner = a_game(host)
    shown: list[str] = []
    monkeypatch.setattr(owner.publisher, "_in_lobby", lambda table, line, final=False: shown.append(line))

    def progress(age: float, since_last: float) -> bool:
        """Whether a lobby message `age` seconds old, last edited `since_last` seconds ago, is edited now."""
        posted = discord.utils.utcnow() - timedelta(seconds=age)
        lobby = MessageRow("lobby", CHANNEL, discord.utils.time_snowflake(posted), 0)
        owner.publisher.lobby_shown = time.monotonic() - since_last
        before = len(shown)
        owner.publisher._show_progress(replace(owner.table(), lobby=lobby))
        return len(shown) > before

    young, old = 600.0, module.OLD_MESSAGE + 60
    assert progress(young, module.LOBBY_EVERY + 1) and not progress(young, module.LOBBY_EVERY - 5)
    assert progress(old, module.LOBBY_EVERY_OLD + 1) and not progress(old, module.LOBBY_EVERY_OLD - 5)
    owner.publisher.lobby_refused = time.monotonic() - module.LOBBY_REFUSED_PAUSE + 60
    assert not progress(old, module.LOBBY_EVERY_OLD + 1) and not progress(young, module.LOBBY_EVERY + 1)
    owner.publisher.lobby_refused = time.monotonic() - module.LOBBY_REFUSED_PAUSE - 1
    assert progress(old, module.LOBBY_EVERY_OLD + 1)


async def test_a_layout_discord_refuses_to_edit_at_a_start_gives_way_to_the_classic_table(
        host: Host, caplog: pytest.LogCaptureFixture) -> None:
    if not layout.SUPPORTED:
        pytest.skip("discord.py before 2.6 has no LayoutView")
    owner = a_game(host)
    host.store.posted(owner.gid, "table", CHANNEL, TABLE_ID, owner.state.version - 1)
    # The table's edit, and the edit that would take its buttons off, refused as discord-api-docs #7529 reports.
    host.channel.failures += [http_error(400), http_error(400)]
    restored = owner_of(host, owner.gid)
    await restored.restore()
    assert [m for m, _ in host.channel.edits] == []
    (post,) = host.channel.posts
    assert post["embeds"] and not post.get("flags", 0) & layout.IS_COMPONENTS_V2
    assert host.store.messages(owner.gid)["table"].message_id == FIRST_ID + 1
    assert caplog.text.count("Discord refused to edit the table as a layout") == 1
    assert restored.publisher.healed
