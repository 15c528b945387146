"""The table message as a Components V2 layout (`bot.face.layout`): Discord's rules on sample positions of every
edition in both languages, and the same JSON discord.py's own `ui.LayoutView` makes. Skipped where discord.py has
no `LayoutView` (before 2.6), where the bot sends the classic embed table."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters

import engine
from bot.face import buttons, components, embeds, ids, layout, league, lobby_message
from bot.store import GameRow, SeatRow
from bot.table.settings import TableSettings
from engine import available
from fakediscord import limits, spec
from render.sample import busy_state, play, simple_choice
from words import LANGUAGES, alt

pytestmark = pytest.mark.skipif(not layout.SUPPORTED, reason="discord.py before 2.6 has no LayoutView")


def _seats(st: engine.State) -> list[SeatRow]:
    return [SeatRow(seat=i, user_id=1000 + i if not s.computer else None, name=s.name, computer=s.computer)
            for i, s in enumerate(st.seats)]


def _positions(edition: str) -> list[tuple[engine.State, list[dict]]]:
    first, steps = play(edition, seed=5, turns=40, seats=4, choose=simple_choice)
    st = engine.clone(first)
    found, turn = [], []
    for k, (action, events) in enumerate(steps):
        engine.apply_inplace(st, action)
        if any(e["code"] == "turn_started" for e in events):
            turn = []
        turn.extend(events)
        if k % 25 == 0:
            found.append((engine.clone(st), list(turn)))
    busy = busy_state(edition)
    busy.debts = []
    return [*found, (busy_state(edition), []), (busy, [])]


def _table(st: engine.State, events: list[dict], lang: str, *, live: bool = True) -> layout.Layout:
    return layout.table(st, _seats(st), events, lang, live=live, game=7, alt=alt.board(st, lang, events),
                        buttons=buttons.table_view(7, st, lang))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("edition", available())
def test_the_layout_keeps_discords_rules(edition: str, lang: str) -> None:
    for st, events in _positions(edition):
        for live in (True, False):
            shown = _table(st, events, lang, live=live)
            assert shown.count() <= layout.MAX_COMPONENTS
            assert shown.text_length() <= layout.MAX_TEXT
            rows = [c for c in shown.walk() if c["type"] == layout.ACTION_ROW]
            assert all(1 <= len(r["components"]) <= layout.BUTTONS_PER_ROW for r in rows), "at most 4 to a row"
            galleries = [c for c in shown.walk() if c["type"] == layout.MEDIA_GALLERY]
            assert len(galleries) == 1
            item = galleries[0]["items"][0]
            assert item["media"]["url"] == f"attachment://{embeds.BOARD}"
            assert item["description"] == alt.board(st, lang, events)
            with handle_message_parameters(view=shown, allowed_mentions=components.NO_MENTIONS) as params:
                payload = params.payload or {}
            assert payload["flags"] & layout.IS_COMPONENTS_V2
            assert not payload.get("content") and not payload.get("embeds")
            assert limits.check_message(payload) == []
            custom_ids = [c["custom_id"] for c in shown.walk() if "custom_id" in c]
            if not live:
                assert not custom_ids, "a retired table keeps no buttons"
            elif st.phase != "over":
                assert any(ids.parse(i).verb == "status" for i in custom_ids)


def test_a_single_decision_sits_beside_its_line_and_several_go_in_a_row() -> None:
    first, _ = engine.new_game("turismundo", ["Ana", "Beto"], seed=1)
    shown = _table(first, [], "es")
    sections = [c for c in shown.walk() if c["type"] == layout.SECTION]
    assert len(sections) == 1 and ids.parse(sections[0]["accessory"]["custom_id"]).verb == "roll"
    assert f"<@{1000 + first.current}>" in sections[0]["components"][0]["content"]
    st = busy_state("turismundo")  # a debt: selling, mortgaging and trading are offered in rows
    assert not [c for c in _table(st, [], "es").walk() if c["type"] == layout.SECTION]


def test_the_turns_ping_says_who_and_what() -> None:
    first, _ = engine.new_game("turismundo", ["Ana", "Beto"], seed=1)
    seats = _seats(first)
    line = layout.ping(first, seats, "en")
    assert line is not None and f"<@{seats[first.current].user_id}>" in line and "roll" in line
    computers, _ = engine.new_game("turismundo", ["Ana", "Beto"], seed=1, computers=["normal", "normal"])
    assert layout.ping(computers, _seats(computers), "en") is None


def _ui(part: dict[str, Any]) -> discord.ui.Item:
    """The same component made with discord.py's own `ui` classes."""
    kind = part["type"]
    if kind == layout.TEXT_DISPLAY:
        return discord.ui.TextDisplay(part["content"])
    if kind == layout.MEDIA_GALLERY:
        return discord.ui.MediaGallery(*(discord.MediaGalleryItem(i["media"]["url"], description=i["description"])
                                         for i in part["items"]))
    if kind == layout.SECTION:
        return discord.ui.Section(*(_ui(c) for c in part["components"]), accessory=_ui(part["accessory"]))
    if kind == layout.SEPARATOR:
        return discord.ui.Separator()
    if kind == layout.ACTION_ROW:
        return discord.ui.ActionRow(*(_ui(c) for c in part["components"]))
    if kind == layout.CONTAINER:
        colour = part["accent_color"]
        return discord.ui.Container(*(_ui(c) for c in part["components"]),
                                    accent_colour=discord.Colour(colour) if colour is not None else None)
    assert kind == 2
    emoji = (part.get("emoji") or {}).get("name")
    return discord.ui.Button(style=discord.ButtonStyle(part["style"]), label=part["label"],
                             custom_id=part["custom_id"], emoji=emoji, disabled=part["disabled"])


def test_the_layout_is_what_discord_pys_layout_view_makes() -> None:
    for st, events in _positions("mundial")[-3:]:
        ours = _table(st, events, "en")
        theirs = discord.ui.LayoutView()
        for part in ours.to_components():
            theirs.add_item(_ui(part))
        assert theirs.to_components() == ours.to_components()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("edition", available())
def test_an_auction_as_a_layout(edition: str, lang: str) -> None:
    st = busy_state(edition)
    assert st.auction is not None
    words = alt.deed(edition, st.auction.square, st, lang)
    for shown in (layout.auction(st, lang, 30, game=7, alt=words, buttons=buttons.auction_view(7, st, lang)),
                  layout.auction_result(st, [{"code": "auction_won", "seat": 1, "item": "title",
                                              "square": st.auction.square, "amount": 5000}], lang, game=7,
                                        alt=words)):
        assert shown.count() <= layout.MAX_COMPONENTS and shown.text_length() <= layout.MAX_TEXT
        rows = [c for c in shown.walk() if c["type"] == layout.ACTION_ROW]
        assert all(len(r["components"]) <= layout.BUTTONS_PER_ROW for r in rows)
        (gallery,) = [c for c in shown.walk() if c["type"] == layout.MEDIA_GALLERY]
        assert gallery["items"][0] == {"media": {"url": f"attachment://{embeds.DEED}"}, "description": words,
                                       "spoiler": False}
        with handle_message_parameters(view=shown, allowed_mentions=components.NO_MENTIONS) as params:
            assert limits.check_message(params.payload or {}) == []
    bids = [ids.parse(c["custom_id"]).verb for c in layout.auction(
        st, lang, 30, game=7, alt=words, buttons=buttons.auction_view(7, st, lang)).walk() if "custom_id" in c]
    assert {"bid", "bid_custom", "pass_bid"} <= set(bids)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_offer_as_a_layout(lang: str) -> None:
    st = busy_state("turismundo")
    st.trade = engine.Trade(proposer=0, target=2, give=engine.Offer(titles=(1,), cash=500),
                            take=engine.Offer(cash=1000))
    seats = _seats(st)
    live = layout.offer(st, seats, lang, game=7, buttons=buttons.trade_view(7, st, lang))
    over = layout.offer_outcome(st, [{"code": "trade_rejected", "seat": 2, "target": 0}], lang, game=7)
    for shown in (live, over):
        assert shown.count() <= layout.MAX_COMPONENTS and shown.text_length() <= layout.MAX_TEXT
        with handle_message_parameters(view=shown, allowed_mentions=components.NO_MENTIONS) as params:
            assert limits.check_message(params.payload or {}) == []
    verbs = [ids.parse(c["custom_id"]).verb for c in live.walk() if "custom_id" in c]
    assert verbs == ["accept_trade", "reject_trade", "counter", "cancel_trade"]
    assert not [c for c in over.walk() if "custom_id" in c]
    ping = layout.offer_ping(st, seats, lang)
    mention = f"<@{seats[2].user_id}>"
    assert ping is not None and mention in ping and "<@" not in ping.replace(mention, "")
    # The person left their seat to a computer: the computer answers, and nobody is pinged or named by mention.
    st.seats[2].computer = "normal"
    assert layout.offer_ping(st, seats, lang) is None
    assert "<@" not in embeds.trade_parts(st, seats, lang)[2] and embeds.trade(st, seats, lang)[0] is None


# -- the lobby and the end of a game -------------------------------------------------------------------------------
def _discords_rules(shown: layout.Layout) -> list:
    """What Discord would refuse in a message that shows `shown`: its documented limits and its OpenAPI schema."""
    assert shown.count() <= layout.MAX_COMPONENTS and shown.text_length() <= layout.MAX_TEXT
    rows = [c for c in shown.walk() if c["type"] == layout.ACTION_ROW]
    buttons_per_row = [sum(1 for b in r["components"] if b["type"] == 2) for r in rows]
    assert all(n <= layout.BUTTONS_PER_ROW for n in buttons_per_row), "at most four buttons to a row at 350 px"
    with handle_message_parameters(view=shown, allowed_mentions=components.NO_MENTIONS) as params:
        payload = params.payload or {}
    assert payload["flags"] & layout.IS_COMPONENTS_V2 and not payload.get("content") and not payload.get("embeds")
    found = limits.check_message(payload)
    checked = spec.load_spec()
    if checked is not None:
        found += checked.problems("POST", "/channels/1/messages", payload)
    return found


def _lobby_row(seats: int, computers: int = 0, **settings: object) -> GameRow:
    people = [SeatRow(seat=i, user_id=2000 + i, name=f"Persona con un nombre largo {i}", computer="")
              for i in range(seats - computers)]
    machines = [SeatRow(seat=len(people) + i, user_id=None, name=f"Lupita {i}", computer="normal")
                for i in range(computers)]
    return GameRow(id=12, guild_id=1, channel_id=2, host_id=2000, status="lobby", edition="turismundo",
                   settings=dict(settings), seed=1, version=0, table_message_id=None, deadline=None, created_at=0.0,
                   updated_at=0.0, started_at=None, finished_at=None, seats=people + machines)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("seats", "computers"), [(1, 0), (2, 1), (6, 3)])
def test_the_lobby_as_a_layout_keeps_discords_rules_with_its_buttons_beside_their_lines(
        lang: str, seats: int, computers: int) -> None:
    row = _lobby_row(seats, computers, free_parking_pot=True, classic_table=True, time_limit=90)
    shown = layout.lobby(row.id, row.host_id, row.seats, TableSettings(row.settings), row.edition, lang,
                         view=buttons.lobby_view(row, lang))
    assert _discords_rules(shown) == []
    beside = {ids.parse(c["accessory"]["custom_id"]).verb: [t["content"] for t in c["components"]]
              for c in shown.walk() if c["type"] == layout.SECTION}
    assert set(beside) == {"join", "start"}
    assert f"({seats}/6)" in beside["join"][0] and all(s.name in beside["join"][1] for s in row.seats)
    verbs = [ids.parse(c["custom_id"]).verb for c in shown.walk() if "custom_id" in c]
    assert sorted(verbs) == sorted(["join", "settings", "start", "leave", "addbot", "addbot"]
                                   + (["dropbot"] if computers else []))
    start = next(c["accessory"] for c in shown.walk() if c["type"] == layout.SECTION
                 and ids.parse(c["accessory"]["custom_id"]).verb == "start")
    assert start["disabled"] is (seats < 2)
    # Once started or closed: the same words and the game's state, no buttons.
    closed = layout.lobby(row.id, row.host_id, row.seats, TableSettings(row.settings), row.edition, lang,
                          closed="🎲 …")
    assert _discords_rules(closed) == [] and not [c for c in closed.walk() if "custom_id" in c]
    assert "🎲 …" in "\n".join(c["content"] for c in closed.walk() if c["type"] == layout.TEXT_DISPLAY)


def test_a_lobby_is_a_layout_unless_the_classic_table_is_chosen_and_stays_one_once_posted() -> None:
    assert lobby_message.wanted(TableSettings({}))
    assert not lobby_message.wanted(TableSettings({"classic_table": True}))
    row = _lobby_row(2)
    as_layout = lobby_message.fields(row.id, row.host_id, row.seats, TableSettings({}), row.edition, "es",
                                     as_layout=True)
    classic = lobby_message.fields(row.id, row.host_id, row.seats, TableSettings({}), row.edition, "es",
                                   as_layout=False)
    # Each clears what the other would leave: an embed lobby edited into a layout, never the reverse.
    assert as_layout["embed"] is None and as_layout["content"] is None
    assert isinstance(as_layout["view"], layout.Layout) and isinstance(classic["embed"], discord.Embed)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("edition", available())
def test_the_end_of_a_game_as_a_layout_shows_its_picture_at_full_width_with_its_alt_text(edition: str,
                                                                                        lang: str) -> None:
    st = busy_state(edition)
    ranking = engine.standings(st)
    words = alt.summary(st, lang)
    ratings = [f"{s.name}: 1,000 → 1,012 (▲12)" for s in st.seats]
    for rematch in (True, False):
        shown = layout.end_of_game(st, "🏁 Ana terminó la partida", ranking, lang, game=7, alt=words, ratings=ratings,
                                   view=league.end_view(7, lang, rematch=rematch))
        assert _discords_rules(shown) == []
        (gallery,) = [c for c in shown.walk() if c["type"] == layout.MEDIA_GALLERY]
        assert gallery["items"][0]["media"]["url"] == f"attachment://{embeds.SUMMARY}"
        assert gallery["items"][0]["description"] == words and 0 < len(words) <= 1024
        verbs = [ids.parse(c["custom_id"]).verb for c in shown.walk() if "custom_id" in c]
        assert verbs == (["rematch", "replay"] if rematch else ["replay"])
        said = "\n".join(c["content"] for c in shown.walk() if c["type"] == layout.TEXT_DISPLAY)
        assert all(s.name in said for s in st.seats) and ratings[0] in said
        assert layout.heading(_read(shown)) == "🏁 Ana terminó la partida"
    unpictured = layout.end_of_game(st, "🏁", ranking, lang, game=7, alt=None)
    assert _discords_rules(unpictured) == []
    assert not [c for c in unpictured.walk() if c["type"] == layout.MEDIA_GALLERY]


def _read(shown: layout.Layout) -> object:
    """The message as discord.py reads it back (its components parsed into its own classes)."""
    from discord.components import _component_factory

    class Read:
        components = [_component_factory(part) for part in shown.to_components()]  # noqa: RUF012

    return Read()


class _Channel:
    def __init__(self, flags: int) -> None:
        self.flags, self.fetched = flags, 0

    async def fetch_message(self, message_id: int) -> object:
        self.fetched += 1
        return type("Message", (), {"flags": discord.MessageFlags._from_value(self.flags)})()


class _Client:
    def __init__(self, flags: int) -> None:
        self.channel = _Channel(flags)

    def get_partial_messageable(self, channel_id: int) -> _Channel:
        return self.channel


async def test_which_a_lobby_message_is_as_the_rules_want_it_or_as_discord_says_it_is() -> None:
    classic, default = TableSettings({"classic_table": True}), TableSettings({})
    # The rules want a layout: any lobby may become one by an edit, nothing is asked.
    client: Any = _Client(0)
    assert await lobby_message.is_layout(client, 2, 9001, default) and client.channel.fetched == 0
    # The rules want an embed: a lobby this process posted as a layout stays one...
    lobby_message.note(9002, True)
    assert await lobby_message.is_layout(client, 2, 9002, classic) and client.channel.fetched == 0
    # ...and of one it does not know, Discord is asked once.
    layout_lobby: Any = _Client(layout.IS_COMPONENTS_V2)
    assert await lobby_message.is_layout(layout_lobby, 2, 9003, classic)
    assert await lobby_message.is_layout(layout_lobby, 2, 9003, classic) and layout_lobby.channel.fetched == 1
    embed_lobby: Any = _Client(0)
    assert not await lobby_message.is_layout(embed_lobby, 2, 9004, classic)
    assert embed_lobby.channel.fetched == 1
