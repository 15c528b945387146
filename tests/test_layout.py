"""The table message as a Components V2 layout (`bot.face.layout`): Discord's rules on sample positions of every
edition in both languages, and the same JSON discord.py's own `ui.LayoutView` makes. Skipped where discord.py has
no `LayoutView` (before 2.6), where the bot sends the classic embed table."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters

import engine
from bot.face import buttons, components, embeds, ids, layout
from bot.store import SeatRow
from engine import available
from fakediscord import limits
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
