"""The headless simulator: whole games end, the figures are right, the command line behaves."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from invariants import check_step

from engine import Action, IllegalAction, apply, from_json, load, new_game, to_json
from engine.board import BOARD_SIZE
from engine.rules import apply_inplace, apply_quietly, quiet_game
from engine.simulate import Driver, Options, game_seed, parse_args, play, run, seat_levels
from engine.state import HOTEL, Settings, State

EDITIONS = ("turismundo", "mundial", "monopolio")
KEYS = {
    "games",
    "finished_by_bankruptcy",
    "finished_by_turn_limit",
    "turns_mean",
    "wins_by_seat",
    "seconds",
    "games_per_second",
    "turns_per_second",
    "actions_per_second",
}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.simulate", *args], capture_output=True, text=True, timeout=120, check=False
    )


# -- whole games --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_edition_plays_to_the_end_with_two_to_six_seats(edition: str, players: int) -> None:
    out = run(Options(edition=edition, players=players, games=4, seed=players))
    assert out["games"] == 4
    assert out["finished_by_bankruptcy"] + out["finished_by_turn_limit"] == 4
    assert sum(out["wins_by_seat"]) == 4


def test_most_games_end_by_bankruptcy() -> None:
    out = run(Options(edition="turismundo", players=4, games=60, seed=7))
    assert out["finished_by_bankruptcy"] >= 0.9 * out["games"]


def test_runs_with_neighbouring_seeds_play_unrelated_games() -> None:
    # Game i of a run plays with a seed mixed from (seed, i): runs with seeds 3 and 4 share no game.
    three = {game_seed(3, i) for i in range(1000)}
    four = {game_seed(4, i) for i in range(1000)}
    assert len(three) == len(four) == 1000 and not three & four
    assert all(0 <= s < 2**63 for s in three | four)
    assert game_seed(3, 0) == game_seed(3, 0)


def test_normal_beats_facil() -> None:
    out = run(Options(players=4, games=100, seed=100, levels=("normal", "facil")))
    rates = out["win_rate_by_level"]
    assert rates["normal"] > 1.5 > 0.5 > rates["facil"]


def test_levels_rotate_over_the_seats() -> None:
    assert seat_levels(("normal", "facil"), 3, 0) == ["normal", "facil", "normal"]
    assert seat_levels(("normal", "facil"), 3, 1) == ["facil", "normal", "facil"]


def test_turn_limit_ends_the_game_by_net_worth() -> None:
    out = run(Options(players=4, games=3, seed=1, max_turns=20))
    assert out["finished_by_turn_limit"] == 3
    assert out["turns_mean"] == 20


def test_state_json_stays_small() -> None:
    for edition in EDITIONS:
        st, _ = new_game(edition, ["A", "B", "C", "D", "E", "F"], seed=5, computers=["normal"] * 6)
        driver = Driver()
        biggest = 0
        while (action := driver.next_action(st)) is not None:
            apply_inplace(st, action)
            biggest = max(biggest, len(to_json(st)))
        assert biggest < 100_000, (edition, biggest)


# -- invariants after every action, over generated games -----------------------------------------------------


def check_invariants(st: State, total_houses: int, total_hotels: int) -> None:
    ed = load(st.edition)
    assert all(seat.cash >= 0 for seat in st.seats)
    assert st.pot >= 0
    houses = sum(lv for lv in st.level if lv < HOTEL)
    hotels = sum(1 for lv in st.level if lv == HOTEL)
    assert st.bank_houses + houses == total_houses
    assert st.bank_hotels + hotels == total_hotels
    for members in ed.blocks.values():
        if any(st.level[j] for j in members):
            owner = st.owner[members[0]]
            assert owner >= 0 and all(st.owner[j] == owner for j in members)
            assert not any(st.mortgaged[j] for j in members)
    for i in range(BOARD_SIZE):
        if st.owner[i] >= 0:
            assert not st.seats[st.owner[i]].out
        else:
            assert not st.mortgaged[i] and not st.level[i]
    if st.phase not in ("over", "next"):  # "next": the titles of a seat gone bankrupt are being auctioned
        assert not st.seats[st.current].out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edition=hs.sampled_from(EDITIONS),
    players=hs.integers(2, 6),
    seed=hs.integers(0, 2**32),
    levels=hs.lists(hs.sampled_from(["normal", "facil", "dificil"]), min_size=6, max_size=6),
    jail=hs.sampled_from(["short", "long"]),
    house_rules=hs.fixed_dictionaries(
        {
            "auction_only": hs.booleans(),
            "free_parking_pot": hs.booleans(),
            "no_rent_in_jail": hs.booleans(),
            "staggered_start": hs.booleans(),
            "deal_titles": hs.sampled_from([0, 2]),
            "end_at_bankruptcy": hs.sampled_from([0, 2]),
        }
    ),
)
def test_computer_seats_play_whole_games_keeping_the_invariants(
    edition: str, players: int, seed: int, levels: list[str], jail: str, house_rules: dict
) -> None:
    ed = load(edition)
    st, _ = new_game(
        edition,
        [f"P{i}" for i in range(players)],
        seed=seed,
        settings=Settings(max_turns=600, **house_rules),
        computers=levels[:players],
    )
    start = st
    driver = Driver(jail)
    actions = []
    while (action := driver.next_action(st)) is not None:
        new, events = apply(st, action)
        check_step(st, new, events)
        check_invariants(new, ed.economy.houses, ed.economy.hotels)
        actions.append(action)
        st = new
    assert st.phase == "over" and st.winner >= 0
    assert len(st.standings) == players
    replay = start
    for action in actions:
        replay, _ = apply(replay, action)
    assert replay == st and from_json(to_json(st)) == st


def test_play_returns_the_result() -> None:
    st, _ = new_game("monopolio", ["A", "B"], seed=2, computers=["normal", "facil"])
    result = play(st)
    assert result.reason in ("bankruptcy", "turn_limit")
    assert result.winner == st.winner and result.turns == st.turn and result.actions > result.turns


@pytest.mark.parametrize("edition", EDITIONS)
def test_quiet_play_ends_exactly_where_the_full_engine_does(edition: str) -> None:
    """`play` applies actions quietly (no events, the plain roll unchecked): each game must end in the same
    state, after the same actions, as when every action goes through `apply_inplace` and logs its events."""
    for game in range(3):
        levels = seat_levels(("dificil", "normal", "facil"), 4, game)
        quiet, _ = new_game(edition, ["A", "B", "C", "D"], seed=game_seed(5, game), computers=levels)
        loud = from_json(to_json(quiet))
        result = play(quiet)
        driver = Driver()
        actions = 0
        events: list[dict] = []
        while (action := driver.next_action(loud)) is not None:
            events = apply_inplace(loud, action)
            actions += 1
        assert to_json(quiet) == to_json(loud)
        assert result.actions == actions
        assert result.reason == next(e["reason"] for e in events if e["code"] == "game_over")


def test_quiet_application_still_refuses_an_illegal_action() -> None:
    st, _ = new_game("turismundo", ["A", "B"], seed=3)
    before = to_json(st)
    with pytest.raises(IllegalAction):
        apply_quietly(quiet_game(st), Action(kind="end_turn", seat=st.current))  # nobody has rolled yet
    assert to_json(st) == before


# -- the command line -----------------------------------------------------------------------------------------


def test_cli_prints_one_json_object() -> None:
    proc = cli("--edition", "turismundo", "--players", "4", "--games", "5", "--seed", "7", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out.keys() >= KEYS
    assert out["games"] == 5 and len(out["wins_by_seat"]) == 4
    assert "landing" not in out


def test_cli_landing_shares() -> None:
    proc = cli("--edition", "monopolio", "--games", "3", "--landing", "--jail", "long", "--max-turns", "300", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert len(out["landing"]) == 40
    assert sum(out["landing"]) + out["in_jail"] == pytest.approx(1.0)
    assert out["landing"][30] == 0.0


def test_cli_readable_summary() -> None:
    proc = cli("--games", "3", "--levels", "normal,facil")
    assert proc.returncode == 0, proc.stderr
    assert "3 games of turismundo" in proc.stdout and "win rate" in proc.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--edition", "nowhere"],
        ["--players", "1"],
        ["--players", "7"],
        ["--games", "-5"],
        ["--seed", "-1"],
        ["--max-turns", "-10"],
        ["--max-turns", "0"],
        ["--games", "many"],
        ["--jail", "forever"],
        ["--levels", "experto"],
    ],
)
def test_cli_bad_arguments_exit_2_with_one_line(args: list[str]) -> None:
    proc = cli(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_levels_are_read_by_the_names_the_bot_shows_and_every_unknown_one_is_named() -> None:
    assert parse_args(["--levels", "easy,Difícil,normal,hard,facil"])[0].levels == (
        "facil", "dificil", "normal", "dificil", "facil")
    proc = cli("--levels", "expert,master")
    assert proc.returncode == 2
    assert "unknown levels 'expert', 'master' (known: facil (easy), normal, dificil (hard))" in proc.stderr
