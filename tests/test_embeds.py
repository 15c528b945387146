"""The embeds of every public message (`bot.face.embeds`): Discord's limits, the seats' colours, both languages."""

from __future__ import annotations

import time

import discord
import pytest
from rulekit import act, own, roll
from rulekit import game as rule_game

from bot.face import embeds
from bot.store import GameRow, SeatRow
from engine import Action, State, apply, new_game
from engine.actions import Offer, Trade
from engine.simulate import Driver
from engine.state import Standing, clone
from fakediscord.limits import check_message
from render.style import SEAT_COLOURS
from words import account

SEATS = [SeatRow(0, 111, "Ana"), SeatRow(1, 222, "Beto")]


def game(**settings: object) -> State:
    st = rule_game(**settings)
    for seat, row in zip(st.seats, SEATS, strict=True):
        seat.name = row.name
    return st


def accepted(embed: discord.Embed) -> None:
    """Discord takes it: the fake's copy of Discord's limits finds nothing, and neither does `embeds.fits`."""
    assert check_message({"embeds": [embed.to_dict()]}) == []
    assert embeds.fits(embed)


def long_game(turns: int = 120) -> tuple[State, list[dict]]:
    """A game of computer players, and every event of it: a table account far longer than a message."""
    st, events = new_game("turismundo", ["Ana", "Beto", "Carla"], 5, computers=["normal"] * 3)
    driver = Driver()
    while st.phase != "over" and st.turn < turns:
        action = driver.next_action(st)
        assert action is not None
        st, more = apply(st, action)
        events += more
    return st, events


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_long_account_keeps_the_newest_lines_within_discord_limits(lang: str) -> None:
    st, events = long_game()
    lines = account([e for e in events if e["code"] != "turn_started"], st, lang)
    assert sum(len(line) for line in lines) > embeds.TOTAL_MAX  # far more than one message holds
    content, embed = embeds.table(st, SEATS, events, lang, live=True, game=7)
    accepted(embed)
    values = [f.value or "" for f in embed.fields]
    assert values[0].startswith("…") and lines[-1] in "\n".join(values)
    assert embed.image.url == "attachment://board.png" and "**" not in (embed.title or "")
    # Even with names and a prompt at their longest the total stays under 6,000.
    long = clone(st)
    for seat in long.seats:
        seat.name = "N" * 90
    accepted(embeds.table(long, SEATS, events, lang, live=True, game=7)[1])


def test_the_table_is_coloured_as_the_token_of_the_seat_to_act_and_pings_only_that_person() -> None:
    st = game()
    content, embed = embeds.table(st, SEATS, [], "es", live=True, game=3)
    assert embed.colour == discord.Colour.from_rgb(*SEAT_COLOURS[st.current])
    assert content == f"<@{SEATS[st.current].user_id}>"
    assert embed.title == "🎲 Turno 1 · Ana" and embed.footer.text == "Turista Mundial (Turismundo) · partida #3"
    names = [f.name for f in embed.fields]
    assert names == ["Qué sigue"], names
    st, events = roll(st, 3, 4)
    content, embed = embeds.table(st, SEATS, events, "en", live=True)
    assert [f.name for f in embed.fields] == ["What happened", "What's next"]
    assert "Ana rolls 3 + 4." in (embed.fields[0].value or "")
    # A finished turn is grey, without a prompt, a ping or a picture of its own.
    content, embed = embeds.table(st, SEATS, events, "en", live=False, picture=False)
    assert content is None and embed.colour == embeds.GREY and not embed.image.url
    assert [f.name for f in embed.fields] == ["What happened"]


def test_a_computer_or_an_auction_pings_nobody() -> None:
    st = game()
    st.seats[st.current].computer = "normal"
    assert embeds.table(st, SEATS, [], "es", live=True)[0] is None
    st = game(auction_on_decline=True)
    st, _ = roll(st, 1, 3)
    st, _ = act(st, "decline")
    assert st.auction is not None
    assert embeds.table(st, SEATS, [], "es", live=True)[0] is None


def test_an_auction_shows_the_deed_the_highest_bid_and_who_is_in() -> None:
    st = game(auction_on_decline=True)
    st, _ = roll(st, 1, 3)
    st, _ = act(st, "decline")
    st, _ = act(st, "bid", 1, amount=9000)
    for lang, bid, bidding in (("es", "Puja más alta", "Siguen en la subasta"), ("en", "Highest bid", "Still bidding")):
        embed = embeds.auction(st, lang, 30, game=1)
        accepted(embed)
        fields = {f.name: f.value for f in embed.fields}
        assert fields[bid] == "**$9,000** · Beto" and fields[bidding] == "Ana\nBeto"
        assert embed.image.url == "attachment://deed.png" and embed.colour == embeds.seat_colour(1)
        assert "30 s" in (embed.description or "")


def test_an_auction_won_on_credit_is_told_before_the_debt_it_leaves() -> None:
    st = game(auction_on_decline=True)
    st, _ = roll(st, 1, 3)
    st, _ = act(st, "decline")
    st, _ = act(st, "bid", 1, amount=9000)
    st.seats[1].cash = 100  # spent since bidding: the bid binds, as a debt
    st, events = apply(st, Action(kind="close_auction"))
    assert [e["code"] for e in events][-2:] == ["debt", "auction_won"]  # the engine's own order
    _, embed = embeds.table(st, SEATS, events, "es", live=True)
    told = (embed.fields[0].value or "").splitlines()
    assert "gana la subasta" in told[0] and "no le alcanza" in told[1], told


def test_a_trade_offer_shows_both_sides_and_pings_the_person_who_answers() -> None:
    st = own(game(), 0, 1, 2)
    offer = Trade(proposer=0, target=1, give=Offer(titles=(1, 2), cash=500), take=Offer(cash=20000))
    st, _ = apply(st, Action(kind="propose_trade", seat=0, trade=offer))
    content, embed = embeds.trade(st, SEATS, "es", game=2)
    accepted(embed)
    assert content == "<@222>"
    assert [(f.name, f.value) for f in embed.fields] == [
        ("Ana da", "Canadá, E.U.A. y $500"), ("Beto da", "$20,000")]
    st, events = apply(st, Action(kind="accept_trade", seat=1))
    outcome = embeds.trade_outcome(st, events, "en")
    accepted(outcome)
    assert outcome.colour == embeds.GREEN and "Trade settled" in (outcome.title or "")
    assert [(f.name, f.value) for f in outcome.fields] == [
        ("Ana gives", "Canada, U.S.A. and $500"), ("Beto gives", "$20,000")]


def test_the_lobby_shows_edition_seats_host_rules_and_clock_then_its_state() -> None:
    now = time.time()
    row = GameRow(9, 1, 2, 111, "lobby", "turismundo", {"turn_timeout": 120}, 1, 0, None, None, now, now, None,
                  None, seats=[SeatRow(0, 111, "Ana"), SeatRow(1, None, "Lupita", "facil")])
    embed = embeds.lobby(row, "es")
    accepted(embed)
    assert "Turismundo" in (embed.title or "") and "**" not in (embed.title or "")
    assert "Organiza: <@111>" in (embed.description or "")
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Jugadores (2/6)"] == "1. Ana\n2. 🤖 Lupita (fácil)"
    assert "Tiempo por decisión: 120 s" in fields["Reglas de la casa"]
    closed = embeds.lobby(row, "en", closed="The game is on!")
    assert closed.colour == embeds.GREY and "The game is on!" in (closed.description or "")
    assert "Players (2/6)" in [f.name for f in closed.fields]


def test_notices_carry_their_mentions_outside_the_embed_and_the_end_its_chart() -> None:
    content, embed = embeds.notice("⏳ <@5> <@6>, la mesa te espera <t:1:R>.")
    assert content == "<@5> <@6>" and embed.description and "<t:1:R>" in embed.description
    assert embeds.notice("🤖 La computadora jugó por Ana.")[0] is None
    st = game()
    rows = [Standing(seat=1, rank=1, net_worth=5000, cash=100, titles=1, buildings=0, out=False),
            Standing(seat=0, rank=2, net_worth=0, cash=0, titles=0, buildings=0, out=True)]
    embed = embeds.standings(st, "🏆 **¡Beto gana la partida!**", rows, "es", picture=True, game=4)
    accepted(embed)
    assert embed.title == "🏆 ¡Beto gana la partida!" and embed.colour == embeds.seat_colour(1)
    assert embed.fields[0].name == "Clasificación" and embed.fields[0].value.startswith("1. Beto: vale $5,000")
    assert embed.image.url == "attachment://summary.png"


def test_cutting_keeps_the_newest_lines_and_marks_the_cut() -> None:
    lines = [f"línea {k} " + "x" * 300 for k in range(100)]
    kept = embeds.newest(lines, 2000)
    assert kept[0] == "…" and kept[-1] == lines[-1] and sum(len(line) + 1 for line in kept) <= 2000
    packed = embeds.chunks(kept)
    assert all(len(value) <= embeds.FIELD_VALUE_MAX for value in packed) and "\n".join(packed) == "\n".join(kept)
    assert embeds.cut("a" * 300, 256) == "a" * 255 + "…"
    assert embeds.plain("🔨 **Subasta: *España***") == "🔨 Subasta: España"


def test_a_narration_tells_a_turn_as_the_account_does_each_event_worked_out_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    st, events = new_game("turismundo", ["Ana", "Beto", "Carla"], 5, computers=["normal"] * 3)
    narration = embeds.Narration()
    told: list[str] = []
    real = embeds.describe
    monkeypatch.setattr(embeds, "describe", lambda e, s, lang: told.append(e["code"]) or real(e, s, lang))
    driver = Driver()
    while st.turn < 30:
        st, more = apply(st, driver.next_action(st))  # type: ignore[arg-type]
        events += more
        for lang in ("es", "en"):  # a table edited after each action, in either language
            assert narration.lines(events, st, lang) == account(events, st, lang)
            assert embeds.table(st, SEATS * 2, events, lang, live=True, narration=narration)[1].to_dict() == \
                embeds.table(st, SEATS * 2, events, lang, live=True)[1].to_dict()
    # Once per language for each event, however many times the turn was told; again each time only for those
    # told from the state (where a seat stands, who owns a square).
    again = [code for code in told if code in embeds.TOLD_FROM_STATE]
    assert len(told) - len(again) == 2 * len([e for e in events if e["code"] not in embeds.TOLD_FROM_STATE])
    narration.forget()
    assert narration.lines(events[:1], st, "es") == account(events[:1], st, "es")
