"""Fast checks of the bot's pieces that need no Discord: ids, numbers, config, texts, computer moves."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.config import load_config
from bot.face import components, ids
from bot.face.i18n import BOT, CatalogueTranslator
from bot.handlers.acting import parse_amount
from bot.table.computers import choose
from engine import Action, apply_inplace, clone, edition_of, new_game, refusal

ROOT = Path(__file__).resolve().parents[1]


def test_custom_ids_round_trip_and_fit_discord_limits() -> None:
    cid = ids.make(123456789, 4321, "trade_money_set", 5)
    assert cid == "turista:123456789:4321:trade_money_set:5"
    assert ids.parse(cid) == ids.ComponentId(123456789, 4321, "trade_money_set", "5")
    assert ids.parse("turista:1:0:join") == ids.ComponentId(1, 0, "join", "")
    assert len(ids.make(2**53, 10**9, "trade_money_set", 10**9)) <= 100
    for bad in ("", "turista:x:1:roll", "other:1:1:roll", "turista:1:1:Roll", "turista:1:1:roll:<@1>",
                "turista:²:1:roll", "turista:١:1:roll", f"turista:{'9' * 5000}:1:roll", f"turista:{2**64}:1:roll",
                "turista:1:1:roll:²", "turista:1:1:bid:" + "9" * 41):
        assert ids.parse(bad) is None


@pytest.mark.parametrize(("raw", "value"), [("0", 0), ("25", 25), ("26", None), ("²", None), ("١", None),
                                            ("-1", None), ("", None), (" 2", None), ("9" * 5000, None), (3, None)])
def test_numbers_from_custom_ids_and_values(raw: object, value: int | None) -> None:
    assert ids.number(raw, 25) == value


@pytest.mark.parametrize(("raw", "value"), [("1500", 1500), ("$1,500", 1500), (" 20 000 ", 20000), ("", 0)])
def test_amounts_as_people_type_them(raw: str, value: int) -> None:
    assert parse_amount(raw) == value


@pytest.mark.parametrize("raw", ["-5", "1e9", "abc", "12.5", "10000000000", "<@123>"])
def test_amounts_refused(raw: str) -> None:
    with pytest.raises(ValueError):
        parse_amount(raw)


def test_config_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for key in list(os.environ):
        if key.startswith(("TURISTA_", "DISCORD_")):
            monkeypatch.delenv(key)
    # load_dotenv writes into os.environ: registering the keys makes monkeypatch remove them afterwards.
    for key in ("DISCORD_TOKEN", "TURISTA_DB", "TURISTA_DEV_GUILD"):
        monkeypatch.setenv(key, "")
        monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nTURISTA_DB=games.db\nTURISTA_DEV_GUILD=42\n")
    config = load_config()
    assert config.token == "abc" and config.db == "games.db" and config.dev_guild == 42
    assert config.pace > 0 and config.minute == 60
    monkeypatch.setenv("TURISTA_TEST_FAST", "1")
    monkeypatch.setenv("DISCORD_TOKEN", "from-env")
    config = load_config()
    assert config.pace == 0 and config.token == "from-env"


def test_the_cache_folder_is_systemds_else_the_users(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from bot.config import default_cache

    monkeypatch.delenv("CACHE_DIRECTORY", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_cache() == str(tmp_path / ".cache" / "turista")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache() == str(tmp_path / "xdg" / "turista")
    monkeypatch.setenv("CACHE_DIRECTORY", "/var/cache/turista")  # the unit's CacheDirectory=turista
    assert default_cache() == "/var/cache/turista"
    monkeypatch.setenv("TURISTA_CACHE", str(tmp_path / "mine"))
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    assert load_config().cache == str(tmp_path / "mine")


def test_without_a_token_the_bot_explains_and_exits_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TURISTA_", "DISCORD_"))}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    guide = done.stderr
    for needed in ("discord.com/developers/applications", "applications.commands", "DISCORD_TOKEN", ".env",
                   "permissions="):
        assert needed in guide


def test_every_bot_text_exists_in_both_languages() -> None:
    used: set[str] = set()
    for path in (ROOT / "bot").rglob("*.py"):
        if "store" in path.relative_to(ROOT).parts:  # the repository's folders, not the checkout's
            continue
        used |= set(re.findall(r"\bt\((?:self\.)?lang[^,]*, \"([a-z_.]+)\"", path.read_text()))
    assert used
    for lang in ("es", "en"):
        texts = BOT.texts(lang)
        missing = sorted(k for k in used if f"bot.{k}" not in texts)
        assert not missing, (lang, missing)
    es = {k for k in BOT.texts("es") if k.startswith("bot.") and not k.startswith("bot.cmd.")}
    en = {k for k in BOT.texts("en") if k.startswith("bot.") and not k.startswith("bot.cmd.")}
    assert es == en


def test_command_names_translate_for_spanish_and_english_locales() -> None:
    translator = CatalogueTranslator()
    name = app_commands.locale_str("roll", key="roll.name")
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, None)
    assert asyncio.run(translator.translate(name, discord.Locale.spain_spanish, context)) == "tirar"
    assert asyncio.run(translator.translate(name, discord.Locale.latin_american_spanish, context)) == "tirar"
    assert asyncio.run(translator.translate(name, discord.Locale.french, context)) is None


def test_fit_keeps_the_newest_lines_within_discord_limit() -> None:
    lines = [f"line {i} " + "x" * 90 for i in range(100)]
    text = components.fit(lines, head="HEAD", tail="TAIL")
    assert len(text) <= 2000 and text.startswith("HEAD") and text.endswith("TAIL") and "line 99" in text
    assert "line 0 " not in text


@pytest.mark.parametrize("edition", ["turismundo", "mundial", "monopolio"])
def test_the_bots_computers_play_only_legal_moves(edition: str) -> None:
    st, _ = new_game(edition, ["A", "B", "C"], seed=11, computers=["normal"] * 3)
    for _ in range(1500):
        if st.phase == "over":
            break
        seats = list(st.seat_to_act())
        if st.trade is not None:
            seats.insert(0, st.trade.target)
        moves = [m for m in (choose(st, s) for s in seats) if m is not None]
        if not moves:
            # Only the auction's leader is left bidding: the bot's quiet timer closes it.
            assert st.auction is not None
            apply_inplace(st, Action(kind="close_auction"))
            continue
        assert refusal(st, moves[0]) is None
        apply_inplace(st, moves[0])
    assert st.turn > 30 or st.phase == "over"


def test_a_turn_ends_by_itself_only_when_ending_it_is_all_that_is_left() -> None:
    from bot.table.computers import ends_by_itself
    from engine.state import Debt

    # `mundial` with every title still the bank's (a lost turn in Oceanía, say): the trading window is shut,
    # there is nothing to build or mortgage, so ending the turn is all that is left.
    st, _ = new_game("mundial", ["A", "B"], seed=3)
    st.phase = "end"
    assert ends_by_itself(st) == Action(kind="end_turn", seat=st.current)
    # Nor while someone else must decide first.
    st.debts = [Debt(debtor=1 - st.current, creditor=-1, amount=10, reason="tax")]
    assert ends_by_itself(st) is None
    # A classic edition lets the seat trade at any time: the End turn button stays.
    st, _ = new_game("turismundo", ["A", "B"], seed=3)
    st.phase = "end"
    assert ends_by_itself(st) is None
    # So does owning a title one could mortgage.
    st, _ = new_game("mundial", ["A", "B"], seed=3)
    st.phase = "end"
    st.owner[1] = st.current
    assert ends_by_itself(st) is None


def test_club_loan_menu_lists_the_blocks_a_member_may_borrow_for() -> None:
    from bot.face.menus import menu_select
    from engine import rules_in_force

    st, _ = new_game("turismundo", ["A", "B"], seed=3)
    ed = edition_of(st)
    if not rules_in_force(st).club_loans:
        pytest.skip("this edition has no club loans")
    block = next(b for b in ed.blocks if b in ed.economy.club_loans)
    for square in ed.blocks[block]:
        st.owner[square] = 0
    st.seats[0].club = True

    async def build() -> discord.ui.Select | None:
        return menu_select(1, st, 0, "take_loan", "es")

    select = asyncio.run(build())
    assert select is not None and block in [o.value for o in select.options]
    assert all(len(o.label) <= 100 for o in select.options)


def test_the_help_names_the_commands_as_each_language_calls_them() -> None:
    """`/turista ayuda` lists the Spanish names, `/turista help` the English ones: every command it names is one
    the person's client shows."""
    from bot.commands import all_commands

    for lang in ("es", "en"):
        texts = BOT.texts(lang)
        names = set()
        for command in all_commands():
            key = command._locale_name.extras["key"] if command._locale_name else None  # type: ignore[union-attr]
            name = texts.get(f"bot.cmd.{key}", command.name) if key else command.name
            for sub in getattr(command, "commands", []):
                sub_key = sub._locale_name.extras["key"]  # type: ignore[union-attr]
                names.add(f"/{name} {texts.get(f'bot.cmd.{sub_key}', sub.name)}")
            names.add(f"/{name}")
        named = set(re.findall(r"`(/[a-z]+(?: [a-z]+)?)`", texts["bot.help.text"]))
        assert len(named) >= 15 and named <= names, (lang, sorted(named - names))


def test_every_refusal_of_the_bot_has_a_text() -> None:
    from bot.face.replies import BOT_ERRORS

    for lang in ("es", "en"):
        texts = BOT.texts(lang)
        assert not [code for code in BOT_ERRORS if f"bot.error.{code}" not in texts], lang


def test_house_rule_choices_fold_into_settings_and_refuse_the_rest() -> None:
    from bot.table.settings import NotOffered, TableSettings

    settings = TableSettings({"turn_timeout": 0})
    settings = settings.chosen("rules", ["free_parking_pot", "deal_titles"])
    settings = settings.chosen("ending", ["turns60"]).chosen("time_limit", ["90"]).chosen("edition", ["mundial"])
    engine = settings.rules
    assert engine.free_parking_pot and engine.deal_titles == 2 and not engine.auction_on_decline
    assert engine.max_turns == 60 and engine.time_limit == 90 and settings.values["edition"] == "mundial"
    for what, values in (("rules", ["everything_free"]), ("ending", ["never"]), ("time_limit", ["7"]),
                         ("turn_timeout", ["-1"]), ("edition", ["atlantis"]), ("colour", ["red"])):
        with pytest.raises(NotOffered):
            settings.chosen(what, values)


async def test_pictures_in_a_worker_process_are_drawn_once_per_board() -> None:
    """The pool draws in another process; a board already drawn comes back without drawing; an edit of a
    table that shows this very board keeps its attachment."""
    from bot import pictures
    from engine import new_game

    pool = pictures.start(1, warm=False)
    try:
        st, _ = new_game("turismundo", ["Ana", "Beto"], seed=2)
        key, png = await pool.board(st, "es", table=7)
        assert png.startswith(b"\x89PNG")
        assert await pictures.board_if_changed(st, "es", table=7) is None
        st.seats[0].pos = 5
        changed = await pictures.board_if_changed(st, "es", table=7)
        assert changed is not None and changed != png
        deed = await pool.deed("turismundo", 1, st, "en", table=7)
        assert deed.startswith(b"\x89PNG")
    finally:
        pictures.shutdown()
        pictures.start(0)


# -- the rules to the letter at the table ------------------------------------------------------------------


def _components(view: components.Rows | None) -> list[tuple[str, str, str]]:
    """(verb, arg, label) of each component of a table's buttons, as Discord gets them."""
    assert view is not None
    out = []
    for row in view.to_components():
        for item in row["components"]:
            cid = ids.parse(item.get("custom_id", ""))
            assert cid is not None
            out.append((cid.verb, cid.arg, str(item.get("label", ""))))
    return out


def test_the_lobby_offers_the_modern_rulebook_switches_off_in_mundial_and_on_elsewhere() -> None:
    from bot.face.texts import settings_summary
    from bot.table.settings import TOGGLES, TableSettings
    from engine import load

    switches = ("doubles_roll_again", "three_doubles_jail", "auction_on_decline", "mortgage_interest", "even_building")
    assert set(switches) <= set(TOGGLES) and len(TOGGLES) <= 25
    none = TableSettings({})
    for name in switches:
        assert not none.switch(load("mundial"), name)
        assert none.switch(load("turismundo"), name) and none.switch(load("monopolio"), name)
    even = TableSettings({"even_building": True})
    assert even.switch(load("mundial"), "even_building")
    assert "Construir parejo" in "\n".join(settings_summary(even, "mundial", "es"))


def test_debt_panel_says_what_can_still_be_raised_and_offers_bankruptcy_only_when_it_is_not_enough() -> None:
    from rulekit import game, own, roll

    from bot.face.buttons import table_view
    from bot.face.texts import prompt

    st = own(game(), 1, 6, 7, 9)
    own(st, 0, 12)
    st.seats[0].cash = 0
    st, _ = roll(st, 3, 4)  # 3,000 of rent; mortgaging Italia raises 9,000
    assert "$9,000" in prompt(st, [], "es") and "bancarrota es solo" in prompt(st, [], "es")
    panel = _components(table_view(1, st, "es"))
    assert ("menu", "mortgage", "Hipotecar…") in panel and not any(v == "bankrupt" for v, _, _ in panel)
    st.mortgaged[12] = True  # nothing left to raise
    assert "no alcanza" in prompt(st, [], "es") and "not enough" in prompt(st, [], "en")
    assert any(v == "bankrupt" for v, _, _ in _components(table_view(1, st, "es")))


def test_a_creditor_decides_on_inherited_mortgages_with_buttons() -> None:
    from rulekit import act, game, own, roll

    from bot.face.buttons import table_view
    from bot.face.texts import prompt

    st = own(game(players=3), 1, 6, 7, 9)
    own(st, 0, 12, 14)
    st.mortgaged[12] = st.mortgaged[14] = True
    st.seats[0].cash = 0
    st, _ = roll(st, 3, 4)
    st, _ = act(st, "bankrupt")
    assert "10 %" in prompt(st, [], "es")
    panel = _components(table_view(1, st, "es"))
    assert ("lift", "12", "Levantar Italia · $9,000") in panel and ("lift", "14", "Levantar Francia · $10,000") in panel
    assert any(v == "keep_mortgaged" for v, _, _ in panel) and not any(v == "roll" for v, _, _ in panel)
    st.seats[1].computer = "normal"  # a computer decides by itself: nobody gets its buttons
    assert not any(v in ("lift", "keep_mortgaged") for v, _, _ in _components(table_view(1, st, "es")))
    decided = choose(st, 1)
    assert decided is not None and decided.kind in ("unmortgage", "keep_mortgaged")


def test_monopolio_debt_panel_hands_a_mortgaged_title_to_the_bank() -> None:
    from rulekit import game, own, roll

    from bot.face.buttons import table_view
    from bot.face.menus import menu_select

    st = own(game("monopolio", players=3), 1, 37)
    own(st, 0, 39)
    st.mortgaged[39] = True
    st.seats[0].cash = 0
    st.seats[0].pos = 30
    st, _ = roll(st, 3, 4)
    assert ("menu", "title_to_bank", "Entregar título hipotecado…") in _components(table_view(1, st, "es"))
    menu = menu_select(1, st, 0, "title_to_bank", "es")
    assert menu is not None and [(o.value, o.description) for o in menu.options] == [
        ("39", "El banco te abona $18,000 y lo subasta")
    ]


def test_the_trade_builder_warns_of_a_gift_or_a_loan_before_it_is_sent() -> None:
    from rulekit import game, own

    from bot.face.trade_builder import builder
    from bot.table.draft import Draft

    st = own(game(), 0, 7)
    content, _ = builder(1, st, 0, Draft(target=1), "es")
    assert "⚠️" not in content  # nothing chosen yet: nothing to warn about
    content, _ = builder(1, st, 0, Draft(target=1, give={7}), "es")
    assert "⚠️" in content and "regalar" in content
    content, _ = builder(1, st, 0, Draft(target=1, give_cash=100, take_cash=50), "en")
    assert "No loans" in content
    content, _ = builder(1, st, 0, Draft(target=1, give={7}, take_cash=5000), "es")
    assert "⚠️" not in content


def test_the_lobby_line_names_the_winner_or_who_ended_the_game() -> None:
    from bot.face import threads
    from bot.table.face import Table
    from bot.table.settings import TableSettings

    st, _ = new_game("turismundo", ["Ana", "Beto"], seed=3)

    def table(lang: str) -> Table:
        return Table(1, 2, 4, "turismundo", 3, 3, lang, st, [], TableSettings({}), None)

    ended = threads.result(table("es"), "Ana")
    assert ended.startswith("🏁 Ana terminó la partida en el turno") and "a la cabeza:" in ended
    st.winner, st.phase = 1, "over"
    assert st.turn == 1 and threads.result(table("en")) == "🏆 Beto won the game (1 turn)."  # not "(1 turns)"
    st.turn = 12
    assert threads.result(table("en")) == "🏆 Beto won the game (12 turns)."


class _Response:
    """The part of `discord.InteractionResponse` a `ClickAnswer` uses: deferrals, each taking a moment, refused
    first with `refusals` (a status and the wait asked) if any."""

    def __init__(self, refusals: tuple[tuple[int, float], ...] = ()) -> None:
        self.deferrals = 0
        self.tries: list[float] = []  # when each deferral was sent (loop time)
        self.refusals = list(refusals)

    def is_done(self) -> bool:
        return self.deferrals > 0

    async def defer(self) -> None:
        self.tries.append(asyncio.get_running_loop().time())
        await asyncio.sleep(0.01)
        if self.refusals:
            from bot.face.adapter import Refused

            status, wait = self.refusals.pop(0)
            raise Refused(_Refusal(status), {"message": "refused", "code": 0, "retry_after": wait})
        self.deferrals += 1


class _Refusal:
    def __init__(self, status: int) -> None:
        self.status, self.reason, self.headers = status, "refused", {}


class _Click:
    def __init__(self, refusals: tuple[tuple[int, float], ...] = ()) -> None:
        self.message = discord.Object(42)
        self.response = _Response(refusals)


@pytest.fixture
def deferring(monkeypatch: pytest.MonkeyPatch) -> None:
    """A click's deferral goes to its `_Response` (as `bot.face.adapter.defer_click` sends it to Discord)."""
    from bot.face import adapter

    async def defer_click(interaction: _Click, within: float | None = None) -> None:
        await interaction.response.defer()

    monkeypatch.setattr(adapter, "defer_click", defer_click)


async def test_a_click_answered_by_its_message_edit_is_never_deferred(deferring: None) -> None:
    from bot.face.replies import ClickAnswer

    click = _Click()
    answer = ClickAnswer(click, within=0.05)  # type: ignore[arg-type]
    assert not answer.take(41)  # another message's edit is not the answer
    assert answer.take(42) and not answer.take(42)  # the clicked message's first edit is, once
    await asyncio.sleep(0.1)
    await answer.release()
    assert click.response.deferrals == 0


async def test_a_click_not_answered_in_time_is_deferred_once(deferring: None) -> None:
    from bot.face.replies import ClickAnswer

    click = _Click()
    answer = ClickAnswer(click, within=0.02)  # type: ignore[arg-type]
    await asyncio.sleep(0.025)  # the deferral has started, not ended
    assert not answer.take(42)  # the edit comes too late to be the answer
    await answer.release()  # waits for the deferral under way
    assert click.response.deferrals == 1 and click.response.is_done()
    await answer.settle()
    assert click.response.deferrals == 1


async def test_an_action_that_edits_another_message_defers_the_click_at_its_end(deferring: None) -> None:
    from bot.face.replies import ClickAnswer

    click = _Click()
    answer = ClickAnswer(click, within=5.0)  # type: ignore[arg-type]
    await answer.settle()
    assert click.response.deferrals == 1
    await asyncio.sleep(0)
    assert not answer.take(42)


async def test_a_refused_deferral_is_tried_again_only_while_it_can_be_in_time(
        deferring: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from bot.face import replies

    monkeypatch.setattr(replies, "ANSWER_DEADLINE", 0.5)
    # A server error, then a rate limit asking 0.1 s: tried again soon, then after the wait asked; in time.
    click = _Click(refusals=((500, 0.0), (429, 0.1)))
    answer = replies.ClickAnswer(click, within=0.0)  # type: ignore[arg-type]
    await asyncio.sleep(0.005)  # the deferral has started
    await answer.release()
    first, *again = click.response.tries
    assert click.response.deferrals == 1 and len(again) == 2
    assert again[0] - first >= replies.RETRY_SOON and again[1] - again[0] >= 0.1
    # A rate limit asking more than is left of the time: the click is not deferred late, and the log says so.
    click = _Click(refusals=((429, 0.6),))
    answer = replies.ClickAnswer(click, within=0.0)  # type: ignore[arg-type]
    await asyncio.sleep(0.005)
    await answer.release()
    assert len(click.response.tries) == 1 and click.response.deferrals == 0
    assert "not answered within Discord's 3 s (429 refused)" in caplog.text
    # An action over after the time is up sends no deferral at all.
    click = _Click()
    answer = replies.ClickAnswer(click, within=5.0)  # type: ignore[arg-type]
    await asyncio.sleep(0.55)
    await answer.settle()
    assert click.response.tries == [] and "the action took too long" in caplog.text


@pytest.mark.parametrize("edition", ["turismundo", "monopolio"])
def test_the_table_menus_offer_what_any_seat_may_do(edition: str) -> None:
    from bot.face.buttons import OFFERED_TO_ANYONE, _kinds_of_anyone
    from engine import apply_inplace, clone, legal_kinds
    from render.sample import play, simple_choice

    first, steps = play(edition, seed=5, turns=3_000, choose=simple_choice)
    st = clone(first)
    for action, _ in steps:
        apply_inplace(st, action)
        everyone = set().union(*(legal_kinds(st, seat) for seat in range(len(st.seats))))
        assert _kinds_of_anyone(st, legal_kinds(st, st.current)) == everyone & OFFERED_TO_ANYONE, st.version


def test_the_bot_runs_on_uvloop_unless_told_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvloop

    from bot.run import event_loop_factory

    monkeypatch.delenv("TURISTA_EVENT_LOOP", raising=False)
    assert event_loop_factory() is uvloop.new_event_loop
    monkeypatch.setenv("TURISTA_EVENT_LOOP", "asyncio")
    assert event_loop_factory() is None
    monkeypatch.setitem(sys.modules, "uvloop", None)  # where it cannot be installed
    monkeypatch.delenv("TURISTA_EVENT_LOOP")
    assert event_loop_factory() is None


def test_a_click_reaches_discord_py_without_the_clicked_messages_embeds_and_components() -> None:
    from types import SimpleNamespace

    from bot.face.adapter import lighter_clicks

    parsed: list[dict] = []
    client = SimpleNamespace(_connection=SimpleNamespace(parsers={"INTERACTION_CREATE": parsed.append}))
    lighter_clicks(client)  # type: ignore[arg-type]
    parse = client._connection.parsers["INTERACTION_CREATE"]
    message = {"id": "7", "channel_id": "3", "type": 0, "content": "", "flags": 64, "author": {"id": "1"},
               "embeds": [{"title": "Turno 4"}], "attachments": [{"id": "9"}], "components": [{"type": 1}]}
    data = {"id": "11", "type": 3, "message": message, "data": {"custom_id": "t:1:2:roll"}}
    parse(data)
    assert parsed[0]["message"] == {"id": "7", "channel_id": "3", "type": 0, "content": "", "flags": 64,
                                    "author": {"id": "1"}, "embeds": [], "attachments": [], "components": []}
    assert parsed[0]["data"] == data["data"] and "embeds" in message  # the gateway's own payload is left as it was
    parse({"id": "12", "type": 2, "data": {"name": "roll"}})  # a command has no message
    assert "message" not in parsed[1]


def test_the_tables_buttons_are_the_json_discord_py_would_send_for_them() -> None:
    from bot.face.buttons import table_view
    from render.sample import play, simple_choice

    first, steps = play("turismundo", seed=5, turns=10_000, choose=simple_choice)
    st = clone(first)
    checked = 0
    for k, (action, _) in enumerate(steps):
        apply_inplace(st, action)
        rows = table_view(7, st, "es") if k % 7 == 0 else None
        if rows is None:
            continue
        same = []
        for button in rows.buttons:
            cid = ids.parse(button["custom_id"])
            assert cid is not None
            emoji = button.get("emoji", {}).get("name")
            same.append(components.button(cid.game, cid.version, cid.verb, button["label"], arg=cid.arg,
                                          row=button["row"], style=discord.ButtonStyle(button["style"]),
                                          emoji=emoji, disabled=button["disabled"]))
        assert rows.to_components() == components.view(*same).to_components(), st.version
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("edition", ["turismundo", "mundial", "monopolio"])
def test_the_table_offers_a_menu_only_when_someone_finds_something_in_it(edition: str) -> None:
    """Every menu button of the table (Build…, Mortgage…, Sell title to the bank…) opens a menu with something in
    it for at least one seat; on the first row, the debtor's own, for the debtor."""
    from bot.face.buttons import table_view
    from bot.face.menus import menu_items
    from render.sample import play

    first, steps = play(edition, seed=6, turns=80, seats=2)
    st, menus = clone(first), 0
    for action, _ in steps:
        view = clone(st)
        for seat in view.seats:
            seat.computer = ""  # people's tables: computers get no buttons of their own
        rows = table_view(1, view, "es")
        for button in rows.buttons if rows else []:
            cid = ids.parse(button["custom_id"])
            if cid is not None and cid.verb == "menu":
                menus += 1
                who = [view.debts[0].debtor] if button["row"] == 0 and view.debts else range(len(view.seats))
                assert any(menu_items(1, view, seat, cid.arg, "es") for seat in who), (view.version, cid.arg)
        apply_inplace(st, action)
    assert menus > 100


def test_a_title_is_found_by_the_start_of_any_word_of_its_name() -> None:
    """`/construir fuencarral` was refused: only the whole name, or its beginning, named a title."""
    from bot.face.answers import find_square
    from words import square_name

    def named(edition: str, raw: str) -> str | None:
        found = find_square(edition, raw)
        return None if found is None else square_name(edition, found, "es")

    assert named("monopolio", "fuencarral") == "Calle Fuencarral"
    assert named("monopolio", "Velazquez") == "Calle Velázquez"
    assert named("monopolio", "glorieta de bilbao") == "Glorieta de Bilbao"
    assert named("monopolio", "calle fuen") == "Calle Fuencarral"
    assert named("monopolio", "calle") is None  # many streets: the start of the name comes before any word
    assert named("monopolio", "Glorieta") is None  # Glorieta de Bilbao or Glorieta Cuatro Caminos
    assert named("mundial", "americana") == "Línea Aérea Americana"
    assert named("mundial", "aerea") is None


def test_the_end_of_a_turn_names_only_what_the_seat_may_do() -> None:
    """"you may build, trade or mortgage" was said where nobody could do any of it."""
    from rulekit import game, own, roll

    from bot.face.texts import prompt

    st, _ = roll(game("mundial"), 2, 1)  # nothing owned, the trading window closed
    assert st.phase == "end"
    assert prompt(st, [], "en") == "➡️ P0, end your turn when you are ready."
    st, _ = roll(own(game(), 0, 1), 2, 1)  # a title and no block
    assert prompt(st, [], "en") == "➡️ P0, you may trade or mortgage; then end your turn."
    st, _ = roll(own(game(), 0, *range(40)), 2, 1)
    assert prompt(st, [], "es") == "➡️ P0, puedes construir, tratar o hipotecar; luego termina tu turno."


def test_an_offer_waits_for_its_answer_not_for_the_computer_that_made_it() -> None:
    from rulekit import game, roll

    from bot.face.texts import prompt
    from bot.store import SeatRow
    from engine.actions import Trade

    st, _ = roll(game(), 2, 1)
    st.seats[0].computer, st.seats[0].name, st.seats[1].name = "normal", "Lupita", "Carla"
    st.trade = Trade(proposer=0, target=1)
    seats = [SeatRow(1, 222, "Carla")]
    assert prompt(st, seats, "en") == "🤝 <@222>, 🤖 Lupita offers you a trade: answer it on the offer's message."
    st.seats[1].computer = "facil"  # a computer answering: that one thinks
    assert prompt(st, seats, "en") == "🤖 Carla is thinking…"
