"""The server's table as embed lines: order, shared ranks, the provisional apart, trends and the length limits."""

from __future__ import annotations

from render import RankingRow, ranking_lines
from render.ranking import DESCRIPTION_LIMIT, FIELD_LIMIT, trend_text
from render.sample import sample_ranking


def test_ranked_by_rating_with_the_provisional_apart() -> None:
    lines = ranking_lines(sample_ranking(), "en")
    assert lines.ranked[0] == "**1.** Ana · **27.1** ▲1.4 · won 14 of 40"
    # Level on the rating as shown: one rank, the one with more games first.
    assert lines.ranked[2].startswith("**3.** Carmen · **22.4** ±0 ·")
    assert lines.ranked[3].startswith("**3.** Diego · **22.4** ▲2.1 ·")
    assert lines.ranked[4].startswith("**5.** Elena Sofía Ñúñez de la Cruz 🎲 ·")
    assert len(lines.ranked) == 9
    assert lines.provisional == ("Juan · 4.1 · won 1 of 2", "Karla · 2.0 · won 0 of 1", "Luis · 1.2 · won 0 of 1")


def test_spanish_lines() -> None:
    lines = ranking_lines(sample_ranking(), "es-419")
    assert lines.ranked[0] == "**1.** Ana · **27.1** ▲1.4 · ganó 14 de 40"
    assert lines.provisional[1] == "Karla · 2.0 · ganó 0 de 1"


def test_trends() -> None:
    assert trend_text(None) == ""
    assert trend_text(0.04) == "±0"
    assert trend_text(-0.26) == "▼0.3"
    assert trend_text(12.0) == "▲12.0"
    # The bot's ratings are whole numbers on a scale of their own (1000 for a newcomer): shown as they are.
    assert trend_text(84) == "▲84" and trend_text(-17) == "▼17" and trend_text(0) == "±0"
    assert trend_text(150.4) == "▲150"


def test_nobody_ranked_yet() -> None:
    assert ranking_lines([], "es").ranked == ("Aún nadie tiene partidas puntuadas en esta temporada.",)
    lines = ranking_lines([RankingRow("Ana", 3.0, 1, 1, None, True)], "en")
    assert lines.ranked == ("Nobody has a place yet: a place comes with 3 rated games in the season.",)
    assert lines.provisional == ("Ana · 3.0 · won 1 of 1",)


def test_a_big_server_is_cut_to_the_embed_limits() -> None:
    rows = [RankingRow(f"Player {k:03d} ÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑ", 50 - k / 10, 10 + k, k % 7, 0.5) for k in range(400)]
    rows += [RankingRow(f"New {k:03d}", 1.0, 1, 0, None, True) for k in range(200)]
    lines = ranking_lines(rows, "en")
    assert len("\n".join(lines.ranked)) <= DESCRIPTION_LIMIT
    assert len("\n".join(lines.provisional)) <= FIELD_LIMIT
    shown = len(lines.ranked) - 1
    assert lines.ranked[-1] == f"… and {400 - shown} more"
    assert lines.ranked[shown - 1].startswith(f"**{shown}.** Player {shown - 1:03d}")
    assert lines.provisional[-1] == f"… and {200 - (len(lines.provisional) - 1)} more"


def test_a_table_is_cut_only_beyond_the_limit() -> None:
    whole = ranking_lines(sample_ranking(), "en").ranked
    exact = len("\n".join(whole))
    assert ranking_lines(sample_ranking(), "en", ranked_limit=exact).ranked == whole
    cut = ranking_lines(sample_ranking(), "en", ranked_limit=exact - 1).ranked
    assert cut[-1].startswith("… and ") and len("\n".join(cut)) <= exact - 1
