"""The sample games behind the picture tests and `bench/render.py`: every policy plays every edition to its
end with legal moves only (a policy that gets stuck raises, and the benchmark would stop with it)."""

from __future__ import annotations

import pytest

from render.sample import final_state, play, simple_choice

EDITIONS = ("turismundo", "mundial", "monopolio")


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("policy", ["simple", "computer"])
def test_sample_games_play_to_the_end(edition: str, policy: str) -> None:
    choose = simple_choice if policy == "simple" else None
    for seed in range(1, 5):
        first, steps = play(edition, seed=seed, turns=10_000, choose=choose)
        assert final_state(first, steps).phase == "over", (edition, seed)


def test_the_benchmark_game_reaches_its_late_stage() -> None:
    # bench/render.py times the 60 boards before turn 160 of this game.
    first, steps = play("turismundo", seed=5, turns=160, choose=simple_choice)
    st = final_state(first, steps)
    assert len(steps) >= 60
    assert st.phase == "over" or st.turn > 160

