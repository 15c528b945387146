"""The events' codes are a closed list (engine/events.py): the engine emits only those, with the fields
declared; every event it produces reads into its struct; the narration tells every one, in both languages;
the bot and the pictures look only for codes that exist."""

from __future__ import annotations

import ast
import gzip
import json
from pathlib import Path

import msgspec
import pytest

from engine import Action, apply_inplace, load, new_game
from engine.events import CODES, ENDINGS, ITEMS, JAIL_EXITS, REASONS, typed
from engine.simulate import Driver
from engine.state import HOTEL, Settings
from words import GAME, LANGUAGES, SILENT, SILENT_TRANSFERS, describe

ROOT = Path(__file__).resolve().parent.parent
OLD_GAMES = ROOT / "tests" / "data" / "games-rulebook-0.jsonl.gz"


def fields(code: str) -> set[str]:
    """The names an event of `code` carries in its stored form."""
    info = msgspec.inspect.type_info(CODES[code])
    assert isinstance(info, msgspec.inspect.StructType)
    return {f.encode_name for f in info.fields}


def engine_calls(method: str) -> list[tuple[Path, ast.Call]]:
    """Every call of `<something>.<method>(...)` in the engine's sources."""
    found = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == method:
                found.append((path, node))
    return found


def test_every_code_the_engine_emits_is_declared_with_the_fields_it_carries() -> None:
    emitted = set()
    for path, call in engine_calls("emit"):
        assert call.args and isinstance(call.args[0], ast.Constant), f"{path.name}:{call.lineno}: a code, spelt out"
        code = call.args[0].value
        assert code in CODES, f"{path.name}:{call.lineno}: {code!r} is not in engine.events.CODES"
        given = {k.arg for k in call.keywords}
        assert None not in given and given <= fields(code), f"{path.name}:{call.lineno}: {code} {given}"
        emitted.add(code)
    # The rules' `transfer` builds its event itself; every other code is emitted by name.
    assert emitted | {"transfer"} == set(CODES)


def test_money_moves_and_debts_for_declared_reasons_only() -> None:
    for method in ("transfer", "charge"):
        calls = [(path, call) for path, call in engine_calls(method) if len(call.args) >= 4]
        assert calls, method
        for path, call in calls:
            reason = call.args[3]
            if isinstance(reason, ast.Constant):
                assert reason.value in REASONS, f"{path.name}:{call.lineno}: {reason.value!r}"
            extra = {k.arg for k in call.keywords if k.arg is not None}  # (a `**extra` passes on checked ones)
            assert extra <= fields("transfer"), f"{path.name}:{call.lineno}: {extra}"


def recorded_events() -> list[dict]:
    out = []
    with gzip.open(OLD_GAMES, "rt", encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            if record["record"] == "action":
                out += record["events"]
    return out


def played_events(edition: str, settings: Settings, seed: int) -> list[dict]:
    st, events = new_game(edition, ["Ana", "Beto", "Carla", "Diego"], seed=seed, settings=settings,
                          computers=["normal", "dificil", "normal", "facil"])  # fmt: skip
    driver = Driver()
    while (action := driver.next_action(st)) is not None:
        events += apply_inplace(st, action)
    return events


HOUSE_RULES = (
    Settings(max_turns=250),
    Settings(max_turns=250, free_parking_pot=True, no_rent_in_jail=True, auction_only=True, random_order=True,
             deal_titles=2, staggered_start=True),
    Settings(time_limit=30, end_at_bankruptcy=1, max_turns=400, auction_on_decline=False, club_loans=True),
)  # fmt: skip


@pytest.mark.parametrize("edition", ["turismundo", "mundial", "monopolio"])
def test_every_event_of_played_and_recorded_games_reads_into_its_struct(edition: str) -> None:
    events = [e for k, settings in enumerate(HOUSE_RULES) for e in played_events(edition, settings, 11 + k)]
    events += recorded_events() if edition == "monopolio" else []
    seen = set()
    for event in events:
        typed(event)  # raises on an unknown code, field or value
        seen.add(event["code"])
    assert {"turn_started", "rolled", "moved", "transfer", "game_over"} <= seen


def test_the_reader_refuses_what_is_not_declared() -> None:
    assert typed({"code": "rolled", "seat": 1, "dice": [3, 4]}).dice == (3, 4)
    for wrong in ({"code": "rolled", "seat": 1}, {"code": "rolled", "seat": 1, "dice": [3, 4], "extra": 1},
                  {"code": "sneezed", "seat": 1}, {"code": "transfer", "from": -1, "to": 0, "amount": 1,
                                                   "reason": "gift"}):  # fmt: skip
        with pytest.raises(msgspec.ValidationError):
            typed(wrong)


# -- the narration and the catalogues ------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_both_catalogues_have_a_sentence_for_every_code(lang: str) -> None:
    texts = GAME.texts(lang)
    keys = [f"event.{code}" for code in CODES if code not in SILENT and code not in ("transfer", "left_jail")]
    keys += [f"event.transfer.{reason}" for reason in REASONS if reason not in SILENT_TRANSFERS]
    keys += [f"event.left_jail.{how}" for how in JAIL_EXITS]
    keys += [f"event.item.{item}" for item in ITEMS] + [f"event.level.{level}" for level in range(1, HOTEL + 1)]
    keys += ["event.trade_closed"]  # a trade logged before it was told in full (rulebook 0)
    missing = [key for key in keys if key not in texts]
    assert not missing, missing


def sample(code: str, st_edition: str) -> dict:
    """An event of `code` with plausible values on the board of `st_edition`."""
    ed = load(st_edition)
    title = next(sq.index for sq in ed.squares if sq.kind == "country")
    deck = ed.decks[0]
    block = ed.squares[title].block
    values: dict[str, object] = {
        "seat": 0, "target": 1, "creditor": -1, "owner": 1, "winner": 0, "square": title, "frm": 0, "to": title,
        "from": 0, "amount": 1000, "price": 1000, "dice": [3, 4], "value": 5, "turn": 3, "turns": 1, "left": 1,
        "max": 3, "level": 2, "buildings": 2, "item": "title", "how": "fine", "deck": deck.id,
        "card": deck.cards[0].id, "block": block, "edition": ed.id, "seats": 4, "order": [1, 0, 2, 3],
        "reason": "rent", "shortage": 1, "give": {"cash": 1000}, "take": {"titles": [title]}, "standings": [],
        "count": 2, "kinds": ["buy", "end_turn"], "was": "Lupita",
    }  # fmt: skip
    event = {"code": code, **{name: values[name] for name in fields(code) if name != "code"}}
    if code == "game_over":
        event["reason"] = ENDINGS[0]
    return event


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("edition", ["turismundo", "mundial", "monopolio"])
def test_the_narration_tells_every_code(edition: str, lang: str) -> None:
    st, _ = new_game(edition, ["Ana", "Beto", "Carla", "Diego"], seed=3)
    st.owner[sample("built", edition)["square"]] = 1
    for code in CODES:
        events = [sample(code, edition)]
        if code == "transfer":
            events = [{**events[0], "reason": reason} for reason in REASONS]
        elif code == "left_jail":
            events = [{**events[0], "how": how} for how in JAIL_EXITS]
        for event in events:
            typed(event)
            line = describe(event, st, lang)
            silent = code in SILENT or (code == "transfer" and event["reason"] in SILENT_TRANSFERS)
            assert (line == "") == silent, (event, line)
            assert "event." not in line and "{" not in line, (event, line)


def test_the_bot_and_the_pictures_look_only_for_codes_that_exist() -> None:
    """Wherever the bot or the pictures compare an event's code with a literal, that code exists."""
    looked_for = set()
    for package in ("bot", "render"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Compare):
                    continue
                sides = [node.left, *node.comparators]
                if not any(_is_code_of_an_event(side) for side in sides):
                    continue
                for side in sides:
                    for constant in ast.walk(side):
                        if isinstance(constant, ast.Constant) and isinstance(constant.value, str):
                            looked_for.add((path.relative_to(ROOT).as_posix(), constant.value))
    assert len(looked_for) > 10
    unknown = sorted((path, code) for path, code in looked_for if code not in CODES and code != "code")
    assert not unknown, unknown


def _is_code_of_an_event(node: ast.expr) -> bool:
    """`event["code"]` or `event.get("code")`."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "code"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "code"
    return False


def test_the_code_list_names_every_transfer_reason_and_no_other() -> None:
    """The reasons are a closed list too: each one the engine passes by name is declared, and each declared
    one is passed somewhere (or is a debt's, settled later under its own reason)."""
    named = set()
    for method in ("transfer", "charge"):
        for _, call in engine_calls(method):
            if len(call.args) >= 4 and isinstance(call.args[3], ast.Constant):
                named.add(call.args[3].value)
    assert named == set(REASONS)


def test_an_action_emits_its_events_as_before() -> None:
    """The stored form is a plain JSON object with the code last, as the logs of every rulebook hold it."""
    st, _ = new_game("turismundo", ["Ana", "Beto"], seed=7)
    events = apply_inplace(st, Action(kind="roll", seat=st.current))
    assert all(type(e) is dict and list(e)[-1] == "code" for e in events)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_person_back_in_their_own_seat_is_told_so_not_as_sitting_in_their_own_seat(lang: str) -> None:
    st, _ = new_game("turismundo", ["Ana", "Carla"], seed=3)
    back = describe({"code": "seat_taken", "seat": 0, "was": "Ana"}, st, lang)
    late = describe({"code": "seat_taken", "seat": 1, "was": "Lupita"}, st, lang)
    assert back.count("Ana") == 1 and "Lupita" in late and "Carla" in late
