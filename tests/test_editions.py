"""Every edition file loads, is a well-formed 40-square board, and has all its texts in both catalogues."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import words
from engine import edition as ed_mod
from engine.edition import CARD_EFFECTS, SQUARE_KINDS, TITLE_KINDS

EDITIONS = ed_mod.available()
REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference"
SLUG = re.compile(r"^[a-z0-9_]+$")
HEX = re.compile(r"^#[0-9a-f]{6}$")


@pytest.fixture(params=EDITIONS)
def ed(request):
    return ed_mod.load(request.param)


def test_the_three_editions_exist():
    assert {"turismundo", "mundial", "monopolio"} <= set(EDITIONS)


def test_forty_squares_in_order(ed):
    assert [sq.index for sq in ed.squares] == list(range(40))
    ids = [sq.id for sq in ed.squares]
    assert len(set(ids)) == 40, "square ids are unique within an edition"
    assert all(SLUG.match(i) for i in ids), ids


def test_one_go_at_zero_and_a_real_jail(ed):
    assert [sq.index for sq in ed.squares if sq.kind == "go"] == [0]
    assert ed.squares[ed.rules.jail_square].kind == "jail"
    assert [sq.index for sq in ed.squares if sq.kind == "jail"] == [ed.rules.jail_square]
    assert any(sq.kind == "go_to_jail" for sq in ed.squares)


def test_kinds_and_square_fields(ed):
    deck_ids = {d.id for d in ed.decks}
    for sq in ed.squares:
        assert sq.kind in SQUARE_KINDS, sq
        if sq.kind in TITLE_KINDS:
            assert sq.price > 0, sq
            assert sq.mortgage == sq.price // 2, sq
        if sq.kind == "country":
            assert len(sq.rents) == 6 and sq.block, sq
            assert sq.house_cost > 0 and sq.hotel_cost > 0, sq
        if sq.kind == "airline":
            assert len(sq.rents) == 4, sq
        if sq.kind == "card":
            assert sq.deck in deck_ids, sq
        if sq.kind in ("tax", "customs", "club"):
            assert sq.amount > 0, sq
        if sq.kind == "lose_turns":
            assert sq.turns > 0, sq
    assert len(ed.economy.utility_multipliers) == 2
    assert any(sq.kind == "utility" for sq in ed.squares)


def test_rents_never_decrease(ed):
    for sq in ed.squares:
        if sq.kind in ("country", "airline"):
            assert all(a <= b for a, b in zip(sq.rents, sq.rents[1:], strict=False)), sq
            assert sq.rents[0] > 0, sq
    mult = ed.economy.utility_multipliers
    assert 0 < mult[0] <= mult[1]


def test_blocks_complete_and_share_building_costs(ed):
    blocks = ed.blocks
    assert blocks
    for block, indices in blocks.items():
        assert SLUG.match(block), block
        assert 2 <= len(indices) <= 3, (block, indices)
        squares = [ed.squares[i] for i in indices]
        assert len({sq.house_cost for sq in squares}) == 1, block
        assert len({sq.hotel_cost for sq in squares}) == 1, block
    assert set(ed.colors) == set(blocks)
    assert all(HEX.match(c) for c in ed.colors.values()), ed.colors
    if ed.rules.club_loans:
        assert set(ed.economy.club_loans) == set(blocks)
        assert any(sq.kind == "club" for sq in ed.squares)


def test_decks_and_cards(ed):
    assert ed.decks
    card_ids = []
    for deck in ed.decks:
        assert SLUG.match(deck.id)
        assert deck.cards, deck.id
        card_ids += [c.id for c in deck.cards]
        for card in deck.cards:
            assert SLUG.match(card.id), card
            assert card.effect in CARD_EFFECTS, card
            if card.effect == "move_to":
                assert 0 <= card.square < 40, card
            if card.effect == "move_by":
                assert card.steps != 0, card
            if card.effect in ("collect", "pay", "pay_each", "collect_each"):
                assert card.amount > 0, card
            if card.effect == "repairs":
                assert 0 < card.amount <= card.amount2, card
            if card.effect == "nearest":
                assert card.kind in ("airline", "utility"), card
                assert any(sq.kind == card.kind for sq in ed.squares), card
    assert len(card_ids) == len(set(card_ids)), "card ids are unique within an edition"
    assert any(c.effect == "jail_free" for d in ed.decks for c in d.cards)
    # Every deck is reachable from the board.
    assert {d.id for d in ed.decks} == {sq.deck for sq in ed.squares if sq.kind == "card"}


def _text_ids(ed):
    ids = [f"edition.{ed.id}.name", f"edition.{ed.id}.description"]
    ids += [f"square.{ed.id}.{sq.id}" for sq in ed.squares]
    # The board picture writes the short name on the squares of the edges (corners have room for the full one).
    ids += [f"square_short.{ed.id}.{sq.id}" for sq in ed.squares if sq.index % 10]
    ids += [f"deck.{ed.id}.{d.id}" for d in ed.decks]
    ids += [f"card.{ed.id}.{c.id}" for d in ed.decks for c in d.cards]
    ids += [f"block.{b}" for b in ed.blocks]
    return ids


@pytest.mark.parametrize("lang", words.LANGUAGES)
def test_every_text_in_both_catalogues(ed, lang):
    cat = words.GAME.texts(lang)
    missing = [k for k in _text_ids(ed) if not isinstance(cat.get(k), str) or not cat[k].strip()]
    assert not missing, missing


def test_amounts_written_out_in_card_texts(ed):
    # The texts write the money out ("Cobre $5,000 ..."): a money card's amount appears in both languages.
    for deck in ed.decks:
        for card in deck.cards:
            if card.effect in ("collect", "pay", "pay_each", "collect_each", "repairs"):
                for lang in words.LANGUAGES:
                    text = words.text(lang, f"card.{ed.id}.{card.id}")
                    assert words.money(card.amount) in text, (lang, card.id, text)


def test_estimated_values_flagged_in_mundial():
    ed = ed_mod.load("mundial")
    titles = [sq for sq in ed.squares if sq.kind in TITLE_KINDS]
    assert titles and all(sq.estimated for sq in titles)
    assert not any(sq.estimated for sq in ed.squares if sq.kind not in TITLE_KINDS)
    for other in ("turismundo", "monopolio"):
        assert not any(sq.estimated for sq in ed_mod.load(other).squares)


def test_mundial_rule_switches():
    ed = ed_mod.load("mundial")
    assert (ed.economy.start_cash, ed.economy.salary, ed.economy.jail_fine) == (1500, 200, 50)
    assert (ed.economy.houses, ed.economy.hotels) == (36, 12)
    assert ed.rules.bank_buys_titles and ed.rules.trading_window and not ed.rules.club_loans
    assert not ed.rules.jail_doubles_release and not ed.rules.jail_forced_fine
    assert ed.squares[20].kind == "lose_turns" and ed.squares[20].turns == 3
    assert len(ed.decks) == 2 and all(len(d.cards) == 15 for d in ed.decks)


def _reference(name):
    return json.loads((REFERENCE / f"board-{name}.json").read_text(encoding="utf-8"))


# Corrections to the Turismundo transcription (see the comments in data/editions/turismundo.toml).
TURISMUNDO_FIXES = {
    "espana": {"rents": {5: 72500}},
    "italia": {"rents": {5: 72500}},
    "etiopia": {"rents": {2: 45000}},
    "china": {"mortgage": 13500},
    "japon": {"mortgage": 12500},
}


def test_turismundo_matches_reference():
    ref = _reference("turismundo")
    ed = ed_mod.load("turismundo")
    es = words.GAME.texts("es")
    assert len(ref["squares"]) == 40
    for r, sq in zip(ref["squares"], ed.squares, strict=True):
        assert r["index"] == sq.index
        assert es[f"square.turismundo.{sq.id}"] == r["name"], (sq.index, sq.id, r["name"])
        if "price" in r:
            assert sq.price == r["price"], sq.id
        if r["kind"] == "country":
            fix = TURISMUNDO_FIXES.get(sq.id, {})
            rents = list(r["rents"])
            for i, v in fix.get("rents", {}).items():
                rents[i] = v
            assert list(sq.rents) == rents, sq.id
            assert sq.mortgage == fix.get("mortgage", r["mortgage"]), sq.id
            assert sq.house_cost == sq.hotel_cost == r["restaurant_cost"], sq.id
            assert sq.block == r["block"].replace("é", "e"), sq.id
        elif r["kind"] == "airline":
            assert list(sq.rents) == [2500, 5000, 10000, 20000]
    kinds = {
        0: "go",
        3: "club",
        10: "go_to_jail",
        20: "free",
        28: "customs",
        30: "jail",
        13: "utility",
        32: "utility",
    }
    for i, kind in kinds.items():
        assert ed.squares[i].kind == kind, i
    assert ed.economy.club_loans == {
        "rojo": 19000,
        "morado": 45000,
        "verde": 53000,
        "naranja": 60000,
        "azul": 72000,
        "rosa": 79000,
        "cafe": 82000,
        "amarillo": 97000,
    }
    assert (ed.squares[3].amount, ed.squares[3].amount2) == (10000, 2000)
    assert ed.squares[28].amount == 10000
    assert ed.economy.utility_multipliers == (500, 1000)
    assert ed.rules.jail_square == 30 and ed.rules.club_loans
    assert (ed.economy.start_cash, ed.economy.salary, ed.economy.jail_fine) == (150000, 20000, 5000)
    assert len(ed.decks) == 2 and all(len(d.cards) == 16 for d in ed.decks)
    assert {c.id for d in ed.decks for c in d.cards if c.effect == "jail_free"} == {
        "fax_reivindicacion",
        "email_reivindicacion",
    }


def test_mundial_matches_reference():
    ref = _reference("mundial-moderno")
    ed = ed_mod.load("mundial")
    es = words.GAME.texts("es")
    for r, sq in zip(ref["squares"], ed.squares, strict=True):
        assert es[f"square.mundial.{sq.id}"] == r["name"], (sq.index, sq.id)
        if "price" in r:
            assert sq.price == r["price"], sq.id
        if r["kind"] == "country":
            assert sq.block == r["block"].replace("é", "e"), sq.id


def test_monopolio_classic_values():
    ed = ed_mod.load("monopolio")
    assert ed.rules.jail_square == 10
    assert ed.squares[30].kind == "go_to_jail"
    assert ed.squares[20].kind == "free"
    assert [sq.amount for sq in ed.squares if sq.kind == "tax"] == [20000, 10000]
    assert ed.squares[39].rents == (5000, 20000, 60000, 140000, 170000, 200000)
    assert [sq.index for sq in ed.squares if sq.kind == "airline"] == [5, 15, 25, 35]
    assert [sq.index for sq in ed.squares if sq.kind == "utility"] == [12, 28]
    assert ed.economy.utility_multipliers == (400, 1000)
    assert (ed.economy.houses, ed.economy.hotels) == (32, 12)
    assert not ed.rules.double_rent_with_mortgaged
    utility_card = ed.card("suerte_compania")
    assert (utility_card.effect, utility_card.kind, utility_card.amount) == ("nearest", "utility", 1000)
    assert sum(c.effect == "nearest" and c.kind == "airline" for c in ed.deck("suerte").cards) == 2
    assert words.text("en", "square.monopolio.paseo_prado") == "Boardwalk"
