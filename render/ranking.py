"""The server's table for `/turista ranking`, as the lines of a compact embed rather than a picture.

    lines = ranking_lines(rows, lang="es")
    embed.description = "\\n".join(lines.ranked)
    if lines.provisional:
        embed.add_field(name=..., value="\\n".join(lines.provisional))

Why text and not a picture: a table is read by looking for one's own name and number, and Discord sets an
embed's text at the reader's own size on every screen, where a picture of a dozen rows is scaled to 350 px
on a phone (about 8 px letters) and to the height of the preview box on a desktop; the text also shows a
name exactly as Discord does (emoji included, which the pictures' fonts lack), can be searched and read
aloud, and needs no picture worker. Each line is short enough for a phone: rank, name, rating, its change
in the person's last game, then wins and games ("**1.** Ana · **27.1** ▲1.4 · won 14 of 40").

Names are already made safe for markdown by `bot.names`; the rest of each line is ours.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from render.texts import language, phrase, rating_text

DESCRIPTION_LIMIT = 4096  # characters of an embed's description
FIELD_LIMIT = 1024  # characters of an embed field's value


@dataclass(frozen=True)
class RankingRow:
    """One person of the table, filled by the bot from the store."""

    name: str
    rating: float  # the displayed rating (the conservative estimate)
    games: int
    wins: int
    trend: float | None = None  # how the rating moved in their last game (None: no game before it)
    provisional: bool = False  # too few games: listed apart, unranked


@dataclass(frozen=True)
class RankingLines:
    ranked: tuple[str, ...]  # the table, best first (one line when nobody is ranked yet)
    provisional: tuple[str, ...]  # the people with too few games, by games played (empty: none)


def trend_text(trend: float | None) -> str:
    """▲1.4, ▼0.3 or ±0 (no change as shown); nothing before a person's second rated game."""
    if trend is None:
        return ""
    shown = rating_text(abs(trend))
    if float(shown.replace(",", "")) == 0:
        return "±0"
    return f"{'▲' if trend > 0 else '▼'}{shown}"


def _record(row: RankingRow, lang: str) -> str:
    return phrase(lang, "ranking.record", games=row.games, wins=row.wins)


def ranking_lines(rows: Iterable[RankingRow], lang: str = "es", *, ranked_limit: int = DESCRIPTION_LIMIT,
                  provisional_limit: int = FIELD_LIMIT, place_after: int = 3) -> RankingLines:
    """The table's lines: the ranked people by rating (equal ratings as shown share a rank), then apart the
    provisional ones by games played. Each part is cut to its limit in characters (an embed's description,
    a field's value) with a last line saying how many are left out. With nobody ranked the table is one line:
    that nobody has a rated game, or, when provisional people follow, that a place comes with `place_after`
    rated games (saying "nobody has a rated game" above the people who have one contradicted itself)."""
    lang = language(lang)
    rows = list(rows)
    ranked_rows = sorted((r for r in rows if not r.provisional), key=lambda r: (-r.rating, -r.games, r.name))
    ranked: list[str] = []
    rank, previous = 0, None
    for k, row in enumerate(ranked_rows):
        shown = rating_text(row.rating)
        if shown != previous:
            rank, previous = k + 1, shown
        trend = trend_text(row.trend)
        parts = [f"**{rank}.** {row.name}", f"**{shown}**" + (f" {trend}" if trend else ""), _record(row, lang)]
        ranked.append(" · ".join(parts))
    waiting = sorted((r for r in rows if r.provisional), key=lambda r: (-r.games, -r.rating, r.name))
    provisional = [" · ".join((row.name, rating_text(row.rating), _record(row, lang))) for row in waiting]
    if not ranked:
        ranked = [phrase(lang, "ranking.nobody_placed", count=place_after) if provisional
                  else phrase(lang, "ranking.nobody")]
    return RankingLines(tuple(_cut(ranked, ranked_limit, lang)), tuple(_cut(provisional, provisional_limit, lang)))


def _cut(lines: list[str], limit: int, lang: str) -> list[str]:
    """The first lines that fit `limit` characters (newlines included) with room for "… and N more"."""
    if len("\n".join(lines)) <= limit:
        return lines
    kept: list[str] = []
    used = 0
    for k, line in enumerate(lines):
        more = phrase(lang, "ranking.more", count=len(lines) - k)
        if used + len(line) + 1 + len(more) > limit:
            return [*kept, more]
        kept.append(line)
        used += len(line) + 1
    return kept
