"""Every catalogue text, filled with sample values, reads as clean Spanish and English.

Each template is rendered once with the first sample of every field, then once per other sample of each
field (the rest kept at their first), in both languages. The samples are the catalogue's own words where a
field takes them (square names with their gender, the bank and the pot, deck and card names), so what is
checked is what a player can see.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from functools import cache

import pytest

from engine import available, load
from words import LANGUAGES, Catalogue, Name, fill, gender_of, sentence

# Every text of every reader: the game's, the bot's, the pictures', the sandbox's.
catalogue = Catalogue("bot", "render", "sandbox").texts

FORMATTER = string.Formatter()

PEOPLE = ("seat", "who", "name", "proposer", "target", "bidder", "host", "winner", "leader", "was")
PARTIES = ("other", "payer", "payee", "creditor", "owner")
MONEY = ("amount", "price", "cash", "fine", "cost", "worth", "rent", "minimum", "mortgage", "house", "hotel",
         "start", "salary", "fee", "raisable")
NUMBERS = ("count", "turns", "turn", "rank", "max", "seconds", "minutes", "left", "buildings", "houses", "hotels",
           "jail_turns", "id", "wins", "games", "multiplier", "season", "previous", "seasons", "done", "total", "game",
           "hours", "from_hour", "to_hour")
LISTS = ("order", "seats", "players", "rules", "offer", "rents", "multipliers", "people", "titles")

# Texts that are pieces of a sentence (labels, list items, words put into other texts), not sentences.
FRAGMENTS = ("event.item.", "event.level.", "event.party.", "bot.level.", "bot.status.mortgaged", "bot.status.hotel",
             "bot.status.houses", "bot.status.overview_jailed", "bot.trade.nothing", "bot.trade.cards",
             "bot.settings.none",
             "bot.cmd.", "render.", "square.", "deck.", "block.", "gender.", "bot.menu.hint.", "bot.button.",
             "bot.choice.", "bot.rule.", "bot.ending.", "bot.lobby.empty", "edition.", "bot.embed.",
             "bot.lobby.no_thread_", "bot.table.may.", "bot.table.or", "sandbox.time_", "alt.computer", "alt.mortgaged",
             "alt.more", "alt.deed.rent_line", "alt.profile.opponent", "bot.waiting.")

# A person's gender is unknown: no adjective or participle may agree with a player.
PERSON_AGREEMENT = re.compile(
    r"\b(es|está|estás|queda|quedas|sigue|sigues|fue|eres) (deportad[oa]s?|encarcelad[oa]s?|pres[oa]s?|socio|socia)\b",
    re.IGNORECASE)


# A number written before a plural noun of the text's own ("{turns} turns"): with 1 it reads "1 turns", so the
# text needs a plural form ("{turns} {turns:turn|turns}"). The noun may come from a field instead (`house_word`,
# chosen by the count), which is not flagged.
PLURAL_NOUNS = {
    "en": r"(?:rated )?(?:turns|games|rounds|titles|seconds|minutes|frames|players|people|seats|seasons|servers|names)",
    "es": r"(?:turnos|partidas|rondas|títulos|segundos|minutos|cuadros|jugadores|personas|asientos|temporadas|"
          r"servidores|nombres)",
}


def counted_in_plural(lang: str, template: str) -> list[str]:
    return re.findall(r"\{(" + "|".join(NUMBERS) + r")\} " + PLURAL_NOUNS[lang] + r"\b", template)


def test_counts_take_a_plural_form() -> None:
    """"(1 turns)", "1 games": every count the bot or a picture writes before its noun chooses the noun's form.
    `render.board.titles` is drawn only for 2 titles or more (`render.board.title_one` for one)."""
    bad = [f"{lang} {key}: {template!r}" for lang in LANGUAGES for key, template in sorted(catalogue(lang).items())
           if key != "render.board.titles" and counted_in_plural(lang, template)]
    assert not bad, "\n".join(bad)


def _names(lang: str, prefix: str) -> list[str]:
    return [v for k, v in catalogue(lang).items() if k.startswith(prefix)]


@cache
def samples(lang: str) -> dict[str, list[object]]:
    cat = catalogue(lang)
    squares = [Name(cat[f"square.{e}.{sq.id}"], gender_of(lang, e, sq.id)) for e in available()
               for sq in load(e).squares]
    party = [cat["event.party.bank"], cat["event.party.pot"], cat["event.party.owner"]]
    values: dict[str, list[object]] = {
        "square": squares,
        "jail": [Name(cat[f"square.{e}.{load(e).squares[load(e).rules.jail_square].id}"],
                      gender_of(lang, e, load(e).squares[load(e).rules.jail_square].id)) for e in available()],
        "give": ["España, Italia y $5,000", "nada"],
        "take": ["España, Italia y $5,000", "nada"],
        "deadline": ["<t:1700000000:R>"],
        "since": ["<t:1699990000:R>"],
        "zone": ["America/Mexico_City"],
        "where": _names(lang, "bot.notify.mode_"),
        "quiet": [cat["bot.notify.no_quiet"]],
        "what": _names(lang, "bot.waiting."),
        "edition": [cat[f"edition.{e}.name"] for e in available()],
        "item": [fill(lang, v, {"square": squares[0]}) for v in _names(lang, "event.item.")],
        "level": _names(lang, "event.level."),
        "block": _names(lang, "block."),
        "deck": _names(lang, "deck."),
        "card": _names(lang, "card."),
        "house_word": _names(lang, "render.building.house_"),
        "house_one": _names(lang, "render.building.house_one_"),
        "dice": ["3 + 4"],
        "value": [1, 4, "$1,500"],
        "bidder": ["Ana"],
        # The sandbox's own lines (sandbox.*): buttons, commands and options as the terminal shows them.
        "label": ["Tirar dados", "Otra cantidad…"],
        "number": ["12.3"],
        "command": ["turista nueva", "pujar"],
        "option": ["cantidad"],
        "options": ["cantidad, nivel"],
        "choices": ["fácil, normal"],
        "words": ["ahora"],
        "field": ["Cantidad"],
        "title": ["Tu puja"],
        "limit": [1, 1000],
        "min": [1, 0],
        "low": [1, "$1"],
        "high": [5, "$1,000,000,000"],
        "names": ["Ana, Beto"],
        "channel": ["turista"],
        "out": ["sandbox-out"],
        "log": ["sandbox-out/bot.log"],
        "path": ["session.txt"],
        "detail": ["limit POST /callback content too long"],
        "thread": ["<#123>"],
        "date": ["<t:1700000000:d>"],
        "rating": ["1,084", "987"],
        "change": ["1,000 → 1,084 (▲84)"],
        "servers": ["Mesa de pruebas, 123"],
        "why": _names(lang, "bot.lobby.no_thread_"),
        "moves": ["Ana compra España por $1,500.", "(nada que se vea en la mesa)"],
        "span": ["40 s", "2 min"],
        "actions": ["construir, tratar o hipotecar", "hipotecar"] if lang == "es" else ["build, trade or mortgage",
                                                                                      "mortgage"],
    }
    for name in PEOPLE:
        values.setdefault(name, ["Ana", "🤖 Lupita", "<@123>"])
    for name in PARTIES:
        values[name] = ["Ana", *party]
    for name in MONEY:
        values[name] = ["$1,500"]
    for name in NUMBERS:
        values[name] = [2, 1]
    for name in LISTS:
        values[name] = ["Ana, Beto"]
    return values


def fields(template: str) -> list[str]:
    return [f for _, f, _, _ in FORMATTER.parse(template) if f]


def renderings(lang: str, template: str) -> Iterator[str]:
    pool = samples(lang)
    names = sorted({f.split(":")[0] for f in fields(template)})
    assert all(n in pool for n in names), f"no sample values for {[n for n in names if n not in pool]}"
    first = {n: pool[n][0] for n in names}
    yield fill(lang, template, first)
    for n in names:
        for value in pool[n][1:]:
            yield fill(lang, template, {**first, n: value})


def base_key(key: str) -> str:
    """`variant.<edition>.<id>` is the edition's wording of `<id>`."""
    return key.split(".", 2)[2] if key.startswith("variant.") else key


def problems(lang: str, key: str, line: str) -> list[str]:
    key = base_key(key)
    if key.startswith(("event.", "error.")):
        line = sentence(line)  # as `words.narrate` tells them
    found = []
    if re.search(r"\{|\}", line):
        found.append("a placeholder left")
    if "(s)" in line or "(es)" in line:
        found.append('"(s)" instead of a real plural')
    if re.search(r"(?<!\.)\.\.(?!\.)", line):
        found.append('a double full stop ".."')
    if lang == "es":
        if re.search(r"\b(a|de) el\b", line):
            found.append('"a el" / "de el" instead of "al" / "del"')
        if PERSON_AGREEMENT.search(line):
            found.append("agrees with a player's gender")
    if lang == "en" and re.search(r"\b(Club Platino|Club Tarjeta Platino|Platinum Club)\b", line):
        found.append('the club is the "Platinum Card Club" in English')
    if not key.startswith(FRAGMENTS) and sentence(line) != line and not re.match(r"[{#•(]", line):
        found.append("starts with a small letter")
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_text_renders_cleanly(lang: str) -> None:
    bad = []
    for key, template in sorted(catalogue(lang).items()):
        for line in renderings(lang, template):
            bad += [f"{key}: {why}: {line!r}" for why in problems(lang, key, line)]
    assert not bad, f"{len(bad)} problems:\n" + "\n".join(dict.fromkeys(bad))


def printed(template: str) -> set[str]:
    """The fields whose value is written out (not those that only choose a word form)."""
    return {f for _, f, spec, _ in FORMATTER.parse(template) if f and not (spec and "|" in spec)}


def test_both_languages_have_the_same_texts_and_fields() -> None:
    es, en = catalogue("es"), catalogue("en")
    # Only Spanish nouns have a gender; English command names are the ones in the code.
    skip = ("gender.", "bot.cmd.")
    assert sorted(k for k in es if not k.startswith(skip)) == sorted(k for k in en if not k.startswith(skip))
    differ = [k for k in es if k in en and printed(es[k]) != printed(en[k])]
    assert not differ, differ


def test_spelling_rules_of_filled_texts() -> None:
    assert fill("es", "{seat} paga {amount} a {other}.", {"seat": "Ana", "amount": "$5", "other": "el banco"}) \
        == "Ana paga $5 al banco."
    assert fill("es", "Cobra de {other}.", {"other": "el bote"}) == "Cobra del bote."
    assert fill("es", "Paga a {other}.", {"other": "El Profe"}) == "Paga a El Profe."
    assert fill("es", "Llega a {square}.", {"square": "E.U.A."}) == "Llega a E.U.A."
    assert fill("es", "{n} {n:turno|turnos}", {"n": 1}) == "1 turno"
    assert fill("es", "{n} {n:turno|turnos}", {"n": 3}) == "3 turnos"
    assert fill("es", "{s} está {s:hipotecado|hipotecada}", {"s": Name("España", "f")}) == "España está hipotecada"
    assert fill("es", "{s} está {s:hipotecado|hipotecada}", {"s": Name("México")}) == "México está hipotecado"
    assert sentence("el banco paga $5.") == "El banco paga $5."


def test_monopolio_tells_of_houses_where_turista_tells_of_restaurants() -> None:
    """An edition's own words reach every sentence: the account of a move says what "Mis cosas" says."""
    import engine
    from words import describe

    built = {"code": "built", "seat": 0, "square": 1, "level": 1, "count": 1, "cost": 50}
    auction = {"code": "auction_opened", "item": "house", "square": 1, "minimum": 1}
    for edition, word in (("monopolio", "casa"), ("turismundo", "restaurante")):
        st, _ = engine.new_game(edition, ["A", "B"], 3)
        assert word in describe(built, st, "es") and word in describe(auction, st, "es"), edition
