"""Player names: visible, one line, inert in Discord text, distinct at a table."""

from __future__ import annotations

import re
import unicodedata

import pytest

from bot.table.names import MAX_LENGTH, ZWSP, clean, inert, player_name, safe, unique
from words import LANGUAGES, Catalogue, fill

EVERY_TEXT = Catalogue("bot", "render", "sandbox")  # the game's texts and every reader's own

# What Discord would turn into a pill, a ping, a link or formatting in message text.
MENTION = re.compile(r"<(@[!&]?|#|/[\w -]+:|t:|a?:\w+:)\d*")
MASS = re.compile(r"@(everyone|here)", re.IGNORECASE)
MARKDOWN = re.compile(r"(\*\*?|__?|~~|\|\||`)[^*_~|`]+\1|\[[^\]]+\]\([^)]+\)|https?://|^\s*(#|>|-|\+|\d+\.)\s")
# A backslash escapes the character after it (anything but a letter, a digit or a space), and at the end of a
# name the text that follows it: the `**` that closes a bold name.
ESCAPE = re.compile(r"\\(?:[^0-9A-Za-z\s]|$)")


def acts_in_discord(name: str) -> bool:
    return bool(MENTION.search(name) or MASS.search(name) or MARKDOWN.search(name) or ESCAPE.search(name))


def shown(name: str) -> str:
    """What a reader sees: the zero-width breaks draw nothing."""
    return name.replace(ZWSP, "")


# Names that would act in Discord text: mentions, pings, markdown, links, headings, escapes.
ACTING = [
    "<@123456789012345678>", "<@!123456789012345678>", "<@&123456789012345678>", "<#123456789012345678>",
    "</turista new:123456789012345678>", "<t:1700000000:R>", "<:pepe:123456789012345678>",
    "<a:dance:123456789012345678>", "@everyone", "@here", "Beto @Everyone", "**Ana**", "__Ana__", "~~Ana~~",
    "||Ana||", "`Ana`", "[gratis](https://example.com)", "https://example.com", "# Ana", "> Ana", "- Ana",
    "1. Ana", "Ana *y* Beto", "Beto\\", "\\*\\*Ana\\*\\*", "Ana\\_Beto\\_",
]
# Names that hide, reverse or break a line.
INVISIBLE = [
    "\u202eAna", "Ana\u202e olleH", "\u2066Ana\u2069", "\u200fAna\u200e", "A\u200bn\u200da\u2060", "Ana\u00ad",
    "An\u0000a\u0007", "Ana\nBeto", "Ana\u2028Beto", "Ana\tBeto",
]
# Names with nothing visible at all.
BLANK = [
    "", " ", "\u200b\u200b\u200b", "\u3164\u3164", "\u2800", "\u115f\u1160", "\u202e", "\ufe0f\u200d", "\u0301\u0301",
    "\u00a0\u2003\u3000",
]
HOSTILE = ACTING + INVISIBLE + BLANK


@pytest.mark.parametrize("raw", ACTING)
def test_nothing_in_a_name_acts_in_discord(raw: str) -> None:
    assert acts_in_discord(raw)
    name = safe(raw)
    assert not acts_in_discord(name), repr(name)
    assert "\\" not in name  # labels and pictures would show a backslash


def test_inert_names_look_like_what_was_typed() -> None:
    assert shown(safe("<@123>")) == "<@123>"
    assert shown(safe("@everyone")) == "@everyone"
    assert safe("el_chido") == "el\u2017chido"  # a look-alike of "_" that the pictures' fonts draw
    assert safe("Ana María") == "Ana María"
    assert safe("Zoë 🎲") == "Zoë 🎲"


@pytest.mark.parametrize("raw", INVISIBLE)
def test_controls_and_invisible_characters_are_dropped(raw: str) -> None:
    name = clean(raw)
    assert all(unicodedata.category(c)[0] != "C" for c in name), repr(name)
    assert "\n" not in name and "\u2028" not in name
    assert name.replace(" ", "") in {"Ana", "AnaolleH", "AnaBeto"}


@pytest.mark.parametrize("raw", BLANK)
def test_a_name_with_nothing_visible_falls_back(raw: str) -> None:
    assert clean(raw) == ""
    assert player_name([raw, None, "ana_g"], 1234567) == "ana\u2017g"
    assert player_name([raw], 1234567) == "#4567"


def test_whitespace_is_folded_and_length_bounded() -> None:
    assert clean("  Ana \u3000\u00a0 María  ") == "Ana María"
    assert len(clean("x" * 500)) == MAX_LENGTH
    zalgo = "A" + "\u0301" * 40 + "na"
    assert sum(unicodedata.combining(c) > 0 for c in clean(zalgo)) <= 2
    assert unicodedata.normalize("NFKD", clean(zalgo)).replace("\u0301", "") == "Ana"


def test_look_alike_names_are_told_apart() -> None:
    taken = ["Ana", "Beto"]
    assert unique("Carla", taken) == "Carla"
    assert unique("Ana", taken) == "Ana (2)"
    assert unique("ANA", taken) == "ANA (2)"
    assert unique("\uff21\uff4e\uff41", taken) == "\uff21\uff4e\uff41 (2)"  # fullwidth "Ana"
    assert unique("Ana", [*taken, "Ana (2)"]) == "Ana (3)"
    assert unique("Ana (2)", [*taken, "Ana (2)"]) == "Ana (3)"
    long = "x" * MAX_LENGTH
    assert unique(long, [long]) == "x" * (MAX_LENGTH - 4) + " (2)"
    assert unique(safe("@everyone"), [safe("@Everyone")]).endswith(" (2)")


def test_the_pictures_draw_every_character_a_name_is_given() -> None:
    from render.fonts import FILES, drawable, font

    name = safe("_*~|`\\x")
    assert drawable(name) == name
    for weight in FILES:
        for char in name:
            assert font(40, weight).getmask(char).getbbox() is not None, (weight, hex(ord(char)))


def test_inert_keeps_ordinary_names_unchanged() -> None:
    for name in ("Ana", "Don Ramón", "Doña Florinda", "El Profe", "李小龙", "محمد", "Ana-María", "O'Brien", "Ana (2)"):
        assert inert(name) == name


# -- in the catalogues' bold -----------------------------------------------------------------------------------
NAME_FIELDS = ("seat", "who", "proposer", "target")  # the catalogues' fields that hold a player's name
BOLD_NAME = re.compile(r"\*\*[^*]*\{(?:" + "|".join(NAME_FIELDS) + r")[}:][^*]*\*\*")
FIELD = re.compile(r"\{(\w+)(?::[^{}]*)?\}")


def bold_marks(text: str) -> int:
    """The `**` that act in `text` as Discord reads it: a backslash makes the character after it plain (unless
    it is a letter, a digit or a space), so an escaped `*` is no mark."""
    marks, i = 0, 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and not (text[i + 1].isalnum() or text[i + 1].isspace()):
            i += 2
        elif text.startswith("**", i):
            marks, i = marks + 1, i + 2
        else:
            i += 1
    return marks


def wrapping_a_name() -> list[tuple[str, str, str]]:
    """(language, key, template) of every catalogue text that puts a name in bold."""
    return [(lang, key, pattern) for lang in LANGUAGES for key, pattern in EVERY_TEXT.texts(lang).items()
            if isinstance(pattern, str) and BOLD_NAME.search(pattern)]


def test_the_catalogues_put_names_in_bold() -> None:
    keys = {key for _, key, _ in wrapping_a_name()}
    assert {"bot.status.title", "bot.status.overview_row", "bot.table.over", "bot.over.title"} <= keys, keys


@pytest.mark.parametrize("raw", HOSTILE)
def test_a_bold_name_stays_bold_whatever_the_name(raw: str) -> None:
    name = player_name([raw], 1234567)
    for lang, key, pattern in wrapping_a_name():
        params = {field: name if field in NAME_FIELDS else 2 for field in FIELD.findall(pattern)}
        plain = {field: "Ana" if field in NAME_FIELDS else 2 for field in params}
        shown = fill(lang, pattern, params)
        assert bold_marks(shown) == bold_marks(fill(lang, pattern, plain)), (lang, key, shown)
        assert bold_marks(shown) % 2 == 0, (lang, key, shown)
