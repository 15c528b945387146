"""The name a person plays under: visible, one line, never a mention or markdown, never reversing the text
around it, and different from every other name at the table.

The stored name (seats, engine state, results) reads the same everywhere it appears: in message text and
embeds (where Discord would render markdown and mentions), in button and select labels (where it renders
nothing, so backslash escapes would show) and in the pictures. So instead of escaping, the few characters
that would act are broken up with an invisible zero-width space or replaced by a look-alike.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

MAX_LENGTH = 32  # characters of the visible name
MAX_MARKS = 2  # combining marks kept on one letter: enough for any script, not for "zalgo" text
ZWSP = "\u200b"

# Characters Unicode files as letters or marks but that draw nothing (blank names are made of them).
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")
# Markdown that works in pairs anywhere in a line, and the backslash, which would escape the next character
# (a name's own, or the `**` a catalogue closes a bold name with): each becomes a look-alike that Discord leaves
# alone and that the bundled fonts draw (‗ ⁎ ⁓ ǀ ‵ ╲).
_LOOK_ALIKES = str.maketrans({"_": "\u2017", "*": "\u204e", "~": "\u2053", "|": "\u01c0", "`": "\u2035",
                              "\\": "\u2572"})
_NEUTRALISE = [
    (re.compile(r"<(?=[@#/:]|t:|a:)"), "<" + ZWSP),  # <@id> <@!id> <@&id> <#id> </cmd:id> <t:…> <:emoji:id>
    (re.compile(r"@(?=everyone|here)", re.IGNORECASE), "@" + ZWSP),
    (re.compile(r"\]\("), "]" + ZWSP + "("),  # a masked link [text](url)
    (re.compile(r"(?<=[A-Za-z]):(?=//)"), ":" + ZWSP),  # a bare URL, which Discord would make a link
    (re.compile(r"^(?=[#>\-+]|\d+\.)"), ZWSP),  # a heading, quote or list when the name starts a line
]
_NUMBERED = re.compile(r"^(?P<base>.*) \((?P<n>\d+)\)$")


def _invisible(char: str) -> bool:
    """Controls and formatting characters (bidirectional overrides and isolates, zero-width spaces and
    joiners, soft hyphens), private-use, unassigned, line and paragraph separators, blank letters."""
    return unicodedata.category(char)[0] == "C" or unicodedata.category(char) in ("Zl", "Zp") or char in _BLANK


def clean(raw: str) -> str:
    """The visible part of `raw` on one line: invisible and control characters dropped, runs of combining
    marks cut to `MAX_MARKS`, every kind of space made one plain space, at most `MAX_LENGTH` characters;
    "" when nothing visible is left."""
    kept: list[str] = []
    marks = 0
    for char in " ".join(unicodedata.normalize("NFC", raw).split()):
        if _invisible(char):
            continue
        if unicodedata.category(char)[0] == "M":
            marks += 1
            if marks > MAX_MARKS or not kept or kept[-1] == " ":
                continue
        else:
            marks = 0
        kept.append(char)
    visible = " ".join("".join(kept).split())
    if not any(unicodedata.category(c)[0] in "LNPS" for c in visible):
        return ""
    return visible[:MAX_LENGTH].rstrip()


def inert(visible: str) -> str:
    """`visible` so that it shows as written in Discord text: no mention, markdown, link or heading."""
    name = visible.translate(_LOOK_ALIKES)
    for pattern, replacement in _NEUTRALISE:
        name = pattern.sub(replacement, name)
    return name


def safe(raw: str) -> str:
    """A name from anywhere (a nickname, a typed text) made visible and inert; "" if nothing is visible."""
    visible = clean(raw)
    return inert(visible) if visible else ""


def _key(name: str) -> str:
    """Names that look alike compare equal: case, compatibility forms (fullwidth, styled letters) and the
    invisible breaks aside."""
    return unicodedata.normalize("NFKC", name.replace(ZWSP, "")).casefold()


def unique(name: str, taken: Iterable[str]) -> str:
    """`name`, or "name (2)", "name (3)"… when someone at the table already goes by a name that looks the same."""
    keys = {_key(other) for other in taken}
    if _key(name) not in keys:
        return name
    numbered = _NUMBERED.match(name)
    base, n = (numbered["base"], int(numbered["n"])) if numbered else (name, 1)
    while True:
        n += 1
        suffix = f" ({n})"
        candidate = base[: MAX_LENGTH - len(suffix)].rstrip() + suffix
        if _key(candidate) not in keys:
            return candidate


def player_name(candidates: Iterable[str | None], user_id: int) -> str:
    """The name of a person: the first of `candidates` (server nickname, global name, username) with
    something visible in it, made inert; else "#1234" from their id."""
    for raw in candidates:
        name = safe(raw or "")
        if name:
            return name
    return f"#{user_id % 10000:04d}"
