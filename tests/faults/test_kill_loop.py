"""Killed at random moments, some of them while Discord has posted a message and the bot has not heard back
(a crash between a post and its save), the bot leaves no game without a message to answer it and no log that
does not replay."""

from __future__ import annotations

from pathlib import Path

from devkit.kills import run


async def test_every_game_can_be_answered_after_kills_at_random_moments(tmp_path: Path) -> None:
    result = await run(kills=8, seed=5, tmp=tmp_path, between_share=0.5)
    assert result["kills_between_post_and_save"] >= 2, result
    assert result["open_games_checked"] == 2 and result["games_answerable"] == 2, result
    assert result["verify_failures"] == [] and result["verified_ok"] == result["games"], result
    assert result["errors_logged"] == 0, result
    assert result["moves_recorded"] >= result["kills"], f"the games hardly went on: {result}"
