"""The league in the store: games rated in the transaction that ends them, seasons, the ranking, a profile, the
last games, `rerate`, and a person's data and forgetting them. Every test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import io
import json
import random
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import msgspec
import pytest
from sqlite_utils import Database

import engine
from bot import league
from bot.league import Placed, Skill
from bot.store import Store, StoreError
from bot.store.__main__ import main as cli
from bot.store.replay import export, verify_game
from bot.store.schema import MIGRATION_NAMES, migrations
from devkit.synthetic import choose

Seat = tuple[int | None, str, str]  # user id, name, computer level


@pytest.fixture
def store(db_target: str) -> Iterator[Store]:
    with Store(db_target) as s:
        yield s


def people(*ids: int, computers: Sequence[str] = ()) -> list[Seat]:
    return [(i, f"P{i}", "") for i in ids] + [(None, f"Bot{k}", level) for k, level in enumerate(computers)]


def started(store: Store, seats: Sequence[Seat], *, guild: int = 1, channel: int = 10, edition: str = "turismundo",
            **settings: object) -> tuple[int, engine.State]:  # fmt: skip
    gid = store.create_game(guild, channel, seats[0][0] or 1, edition, {"max_turns": 12, **settings}, channel)
    for user_id, name, computer in seats:
        store.add_seat(gid, user_id, name, computer)
    game = store.game(gid)
    state, events = engine.new_game(
        edition, [s.name for s in game.seats], game.seed, game.engine_settings(), [s.computer for s in game.seats]
    )
    store.start_game(gid, state, events)
    return gid, state


def play_out(store: Store, gid: int, state: engine.State, rng: random.Random, limit: int = 5000) -> engine.State:
    for _ in range(limit):
        action = choose(state, rng)
        if action is None:
            break
        new, events = engine.apply(state, action)
        store.apply(gid, state.version, None, action, events, new)
        state = new
    return state


def finished(store: Store, seats: Sequence[Seat], order: Sequence[int], **kw: object) -> int:
    """A game whose seats finished in `order` (seat indexes, first first), as the bot's results say."""
    gid, _ = started(store, seats, **kw)
    rank = {seat: k + 1 for k, seat in enumerate(order)}
    store.finish_game(gid, [{"seat": s, "rank": rank[s], "net_worth": 1000 * (9 - rank[s])} for s in rank])
    return gid


def league_rows(store: Store) -> dict[str, list[tuple[object, ...]]]:
    with store.backend.read() as tx:
        return {
            "ratings": tx.execute("SELECT * FROM ratings ORDER BY guild_id, season, edition, user_id").fetchall(),
            "rating_changes": tx.execute(
                "SELECT * FROM rating_changes ORDER BY game_id, edition, user_id"
            ).fetchall(),
            "league_games": tx.execute("SELECT * FROM league_games ORDER BY game_id").fetchall(),
            "seasons": tx.execute("SELECT * FROM seasons ORDER BY guild_id, number").fetchall(),
        }


def skills(store: Store, guild: int = 1, edition: str | None = None) -> dict[int, Skill]:
    table = store.ranking(guild, edition=edition)
    return {r.user_id: Skill(r.mu, r.sigma) for r in table.ranked + table.provisional}


# -- rating a game ------------------------------------------------------------------------------------------
def test_a_game_among_three_people_and_a_computer_is_rated_by_its_final_standings(store: Store) -> None:
    gid, state = started(store, people(100, 101, 102, computers=["dificil"]))
    final = play_out(store, gid, state, random.Random(1))
    assert final.phase == "over" and store.game(gid).status == "finished"

    users, levels = [100, 101, 102, None], ["", "", "", "dificil"]
    expected = league.rate([Placed(s.seat, s.rank, users[s.seat], levels[s.seat]) for s in final.standings], {})
    table = store.ranking(1)
    assert table.season == 1 and table.ranked == [] and len(table.provisional) == 3  # one game: provisional
    got = {r.user_id: r for r in table.provisional}
    for change in expected:
        row = got[change.user_id]
        assert (row.mu, row.sigma, row.games, row.wins) == (change.after.mu, change.after.sigma, 1, int(change.won))
        assert row.rating == league.shown(change.after) and row.trend == league.shown(change.after) - 1000
    assert [r.rating for r in table.provisional] == sorted((r.rating for r in table.provisional), reverse=True)
    points = store.game_ratings(gid)
    assert [(p.placing, p.after) for p in points] == [(c.placing, league.shown(c.after)) for c in expected]
    # The edition's own rating moved the same way: it is the first game of that edition too.
    assert skills(store, edition="turismundo") == skills(store)


def test_games_with_fewer_than_two_people_change_nothing(store: Store) -> None:
    gid, state = started(store, people(100, computers=["normal", "facil"]))
    assert play_out(store, gid, state, random.Random(2)).phase == "over"
    finished(store, people(101, computers=["dificil"]), [0, 1], channel=11)
    assert store.ranking(1).provisional == [] and store.seasons(1) == []
    assert store.game_ratings(gid) == [] and league_rows(store)["rating_changes"] == []


def test_a_seat_a_computer_stands_in_for_rates_its_person_and_a_kicked_one_counts_as_a_computer(store: Store) -> None:
    gid, _ = started(store, people(100, 101, 102))
    store.update_seat(gid, 0, computer="normal")  # 100 is away: a computer plays for them
    store.update_seat(gid, 2, user_id=None, computer="normal")  # 102 was put out by the host
    store.finish_game(gid, [{"seat": 0, "rank": 1, "net_worth": 9}, {"seat": 1, "rank": 2, "net_worth": 5},
                            {"seat": 2, "rank": 3, "net_worth": 1}])  # fmt: skip
    expected = league.rate([Placed(0, 1, 100, "normal"), Placed(1, 2, 101), Placed(2, 3, None, "normal")], {})
    assert skills(store) == {c.user_id: c.after for c in expected}
    assert {r.user_id: r.wins for r in store.ranking(1).provisional} == {100: 1, 101: 0}


def test_a_game_is_rated_once_however_often_it_is_finished(store: Store) -> None:
    gid = finished(store, people(100, 101), [1, 0])
    once = league_rows(store)
    store.finish_game(gid, [{"seat": 0, "rank": 1, "net_worth": 9}, {"seat": 1, "rank": 2, "net_worth": 1}])
    assert league_rows(store) == once
    store.set_status(gid, "abandoned")
    store.set_status(gid, "finished")
    assert league_rows(store) == once


def test_a_game_ended_by_its_host_is_unrated_unless_its_house_rule_says_so(store: Store) -> None:
    rng = random.Random(3)
    plain, state = started(store, people(100, 101, 102), max_turns=0)
    play_out(store, plain, state, rng, limit=40)
    store.set_status(plain, "abandoned")
    assert store.ranking(1).provisional == [] and store.game_ratings(plain) == []

    ruled, state = started(store, people(100, 101, 102), channel=11, max_turns=0, rated_when_ended=True)
    state = play_out(store, ruled, state, rng, limit=40)
    assert state.phase != "over"
    store.set_status(ruled, "abandoned")
    placing = league.placings(state)  # what `/turista end` posts
    expected = league.rate([Placed(s, placing[s], 100 + s) for s in range(3)], {})
    assert skills(store) == {c.user_id: c.after for c in expected}
    assert [p.placing for p in store.game_ratings(ruled)] == [placing[s] for s in range(3)]
    (summary,) = [g for g in store.last_games(1) if g.id == ruled]
    assert summary.status == "abandoned" and summary.season == 1
    assert [(p.placing, p.seat) for p in summary.players] == sorted((placing[s], s) for s in range(3))
    assert all(p.rating_after is not None for p in summary.players)

    lobby = store.create_game(1, 12, 100, "turismundo", {"rated_when_ended": True}, 1)  # never started
    store.add_seat(lobby, 100, "P100")
    store.add_seat(lobby, 101, "P101")
    store.set_status(lobby, "abandoned")
    assert store.ranking(1).provisional[0].games == 1


def test_the_ranking_lists_people_with_enough_games_by_rating_and_the_others_apart(store: Store) -> None:
    for k in range(league.PROVISIONAL_GAMES):
        finished(store, people(100, 101, 102), [0, 1, 2] if k else [1, 0, 2], channel=20 + k)
    finished(store, people(100, 103), [1, 0], channel=30)  # 103: one game, a win
    table = store.ranking(1)
    assert [r.user_id for r in table.ranked] == [100, 101, 102]
    assert [r.place for r in table.ranked] == [1, 2, 3]
    assert [(r.user_id, r.place, r.games, r.wins) for r in table.provisional] == [(103, None, 1, 1)]
    assert [(r.games, r.wins) for r in table.ranked] == [(4, 2), (3, 1), (3, 0)]
    assert table.ranked[0].trend < 0 and table.ranked[0].last_game_id == table.provisional[0].last_game_id
    assert store.ranking(1, limit=1).ranked == table.ranked[:1]


def test_an_edition_ranking_comes_from_that_edition_s_games_only(store: Store) -> None:
    finished(store, people(100, 101), [0, 1], channel=20, edition="mundial")
    finished(store, people(100, 101), [1, 0], channel=21, edition="monopolio")
    finished(store, people(100, 101), [1, 0], channel=22, edition="mundial")
    only_mundial = league.rate([Placed(0, 1, 100), Placed(1, 2, 101)], {})
    only_mundial = league.rate(
        [Placed(0, 2, 100), Placed(1, 1, 101)], {c.user_id: c.after for c in only_mundial}
    )
    assert skills(store, edition="mundial") == {c.user_id: c.after for c in only_mundial}
    assert {r.games for r in store.ranking(1, edition="monopolio").provisional} == {1}
    assert {r.games for r in store.ranking(1).ranked} == {3}
    assert store.ranking(1, edition="turismundo").provisional == []
    # The footer's count is the table's own: every edition's games overall, one edition's in its table.
    assert (store.ranking(1).games, store.ranking(1, edition="mundial").games) == (3, 2)
    assert store.ranking(1, edition="turismundo").games == 0


def test_the_edition_is_the_one_played_even_when_the_lobby_changed_it(store: Store) -> None:
    gid = store.create_game(1, 10, 100, "turismundo", {"edition": "mundial"}, 1)
    store.add_seat(gid, 100, "A")
    store.add_seat(gid, 101, "B")
    state, events = engine.new_game("mundial", ["A", "B"], 1)
    store.start_game(gid, state, events)
    assert store.game(gid).edition == "mundial"


# -- seasons ------------------------------------------------------------------------------------------------
def test_a_new_season_starts_the_ratings_again_and_keeps_the_old_table(store: Store) -> None:
    finished(store, people(100, 101), [0, 1], channel=20, now=None)
    first = store.ranking(1)
    (season,) = store.seasons(1)
    assert (season.number, season.started_by, season.games) == (1, None, 1)

    started_row = store.new_season(1, 555, after=1, now=1000.0)
    assert (started_row.number, started_row.started_by, started_row.started_at) == (2, 555, 1000.0)
    assert store.current_season(1) == 2 and store.ranking(1).provisional == []
    assert store.ranking(1, season=1) == first
    with pytest.raises(StoreError) as again:  # the same confirmation clicked twice
        store.new_season(1, 555, after=1)
    assert again.value.code == "season_changed" and again.value.params["season"] == 2

    gid = finished(store, people(100, 101), [1, 0], channel=21)
    fresh = league.rate([Placed(0, 2, 100), Placed(1, 1, 101)], {})
    assert skills(store) == {c.user_id: c.after for c in fresh}
    assert [(p.season, p.user_id) for p in store.game_ratings(gid)] == [(2, 100), (2, 101)]
    assert [s.games for s in store.seasons(1)] == [1, 1]
    assert store.ranking(2).provisional == [] and store.seasons(2) == []  # other guilds: untouched


def test_a_guild_that_never_rated_a_game_starts_its_second_season(store: Store) -> None:
    row = store.new_season(7, 555, after=1, now=5.0)
    assert row.number == 2
    assert [(s.number, s.started_by) for s in store.seasons(7)] == [(1, None), (2, 555)]


# -- profile and last games ---------------------------------------------------------------------------------
def test_a_profile(store: Store) -> None:
    rng = random.Random(5)
    gids = []
    for k in range(4):
        gid, state = started(store, people(100, 101, 102) if k < 3 else people(100, 103), channel=20 + k)
        play_out(store, gid, state, rng)
        gids.append(gid)
    finished(store, people(100, 101), [0, 1], channel=30, edition="mundial")
    profile = store.profile(1, 100)
    assert profile is not None and profile.name == "P100" and profile.season == 1
    table = store.ranking(1)
    me = next(r for r in table.ranked if r.user_id == 100)
    assert (profile.rating, profile.place, profile.provisional) == (me.rating, me.place, False)
    assert (profile.season_games, profile.games) == (5, 5)
    assert profile.wins == profile.season_wins == me.wins
    assert [p.game_id for p in profile.history] == [*gids, max(store.game_ids())]
    assert profile.history[0].before == 1000 and profile.history[-1].after == me.rating
    assert all(a.after == b.before for a, b in zip(profile.history, profile.history[1:], strict=False))
    assert [p.game_id for p in store.profile(1, 100, points=2).history] == [gids[-1], max(store.game_ids())]
    assert profile.favourite_edition == "turismundo"
    results = [r for h in store.history(1, limit=10) for r in h.results if r.user_id == 100]
    assert profile.best_game is not None and profile.best_game.net_worth == max(r.net_worth for r in results)
    assert [(o.user_id, o.games) for o in profile.opponents] == [(101, 4), (102, 3), (103, 1)]
    # The titles they bought most, counted from the logs of their finished games.
    bought: dict[tuple[str, int], int] = {}
    for gid in gids:
        seat = store.game(gid).seat_of(100)
        for row in store.log(gid):
            for ev in row.decoded_events():
                if (ev["code"] == "transfer" and ev["reason"] == "buy" and ev["from"] == seat) or (
                    ev["code"] == "auction_won" and ev["item"] == "title" and ev["seat"] == seat
                ):
                    bought[("turismundo", ev["square"])] = bought.get(("turismundo", ev["square"]), 0) + 1
    top = sorted(bought.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    assert [((t.edition, t.square), t.times) for t in profile.titles] == top
    assert store.profile(1, 999) is None and store.profile(2, 100) is None


def test_the_last_games_with_placings_length_and_rating_changes(store: Store) -> None:
    clock = iter(range(1000, 100000, 60))
    store.clock = lambda: float(next(clock))
    gid, state = started(store, people(100, 101, computers=["normal"]))
    final = play_out(store, gid, state, random.Random(6))
    alone = finished(store, people(100, computers=["facil"]), [1, 0], channel=11)
    lobby = store.create_game(1, 12, 100, "mundial", {}, 1)
    store.set_status(lobby, "abandoned")  # a table closed before it began: not a game
    games = store.last_games(1)
    assert [g.id for g in games] == [alone, gid]
    summary = games[1]
    game = store.game(gid)
    assert (summary.edition, summary.status, summary.turns, summary.season) == ("turismundo", "finished", final.turn, 1)
    assert game.finished_at is not None and game.started_at is not None
    assert summary.minutes == pytest.approx((game.finished_at - game.started_at) / 60)
    assert [p.seat for p in summary.players] == [s.seat for s in final.standings]
    changes = {p.seat: p for p in store.game_ratings(gid)}
    for player in summary.players:
        if player.user_id is None:
            assert player.rating_before is None and player.computer == "normal"
        else:
            assert (player.rating_before, player.rating_after) == (1000, changes[player.seat].after)
    assert games[0].season is None and all(p.rating_after is None for p in games[0].players)
    assert [g.id for g in store.last_games(1, user_id=101)] == [gid]
    assert len(store.last_games(1, limit=1)) == 1


# -- rerate -------------------------------------------------------------------------------------------------
def a_league(store: Store) -> None:
    """Two guilds, two seasons, three editions, computers, a game ended by its host under the house rule."""
    rng = random.Random(7)
    channel = iter(range(100, 1000))
    for k in range(9):
        guild = 1 if k % 3 else 2
        edition = ("turismundo", "mundial", "monopolio")[k % 3]
        level = rng.choice(list(league.COMPUTER_SKILLS))
        seats = people(*rng.sample(range(100, 106), rng.randint(2, 4)), computers=[level])
        gid, state = started(store, seats, guild=guild, channel=next(channel), edition=edition,
                             rated_when_ended=k == 4, max_turns=0 if k == 4 else 12)  # fmt: skip
        state = play_out(store, gid, state, rng, limit=5000 if k != 4 else 30)
        if k == 4:
            store.set_status(gid, "abandoned")
        if k == 5:
            store.new_season(1, 555)


def test_rerate_gives_exactly_the_numbers_written_game_by_game(store: Store, capsys: pytest.CaptureFixture) -> None:
    a_league(store)
    written = league_rows(store)
    assert len(written["league_games"]) == 9 and {r[2] for r in written["league_games"]} == {1, 2}
    assert [g.games for g in store.rerate(1)] == [6]
    assert league_rows(store) == written
    target = store.location if store.kind == "postgresql" else str(store.path)
    assert cli(["rerate", "--db", target]) == 0
    assert "guild 1: 6 games rated" in capsys.readouterr().out
    assert league_rows(store) == written
    # Ratings lost or damaged are found again from the games.
    with store.backend.write() as tx:
        tx.execute("DELETE FROM ratings")
        tx.execute("UPDATE rating_changes SET mu_after = 0")
    store.rerate()
    assert league_rows(store) == written


def test_rerate_rates_games_finished_before_there_were_ratings(db_target: str, tmp_path: Path) -> None:
    with Store(db_target) as store:
        finished(store, people(100, 101), [0, 1], channel=20)
        finished(store, people(100, 101), [1, 0], channel=21)
        written = league_rows(store)
        with store.backend.write() as tx:  # as an older release left them: no league rows at all
            for table in ("ratings", "rating_changes", "league_games", "seasons"):
                tx.execute(f"DELETE FROM {table}")
        assert store.ranking(1).provisional == []
        store.rerate()
        assert league_rows(store) == written


def test_an_older_database_gets_the_titles_bought_and_the_edition_played(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = Database(path)
    migrations.apply(old, stop_before="0004_league")
    old.conn.close()
    with Store(path) as store:
        gid, state = started(store, people(100, 101))
        play_out(store, gid, state, random.Random(8))
        bought = store.db.execute("SELECT * FROM titles_bought ORDER BY 1, 2, 3").fetchall()
        assert bought
        store.db.execute("DELETE FROM titles_bought")
        store.db.execute("UPDATE games SET edition = 'mundial'")  # a lobby that switched editions
        store.db.execute("DELETE FROM _sqlite_migrations WHERE name IN ('0004_league', '0006_requests')")
        for table in ("ratings", "rating_changes", "league_games", "seasons", "titles_bought", "requests"):
            store.db.execute(f"DROP TABLE {table}")
        store.db.conn.commit()
    with Store(path) as store:
        # 0004 is recorded again, after the later migrations this database already had.
        assert sorted(store.schema_version()) == MIGRATION_NAMES
        assert store.db.execute("SELECT * FROM titles_bought ORDER BY 1, 2, 3").fetchall() == bought
        assert store.game(gid).edition == "turismundo"


# -- privacy ------------------------------------------------------------------------------------------------
def test_personal_data_lists_what_is_kept_about_a_person(store: Store) -> None:
    gid, state = started(store, people(100, 101))
    play_out(store, gid, state, random.Random(9), limit=3)
    with store.backend.write() as tx:  # a move of theirs, as the bot logs a click
        tx.execute("UPDATE games SET host_id = 101 WHERE id = ?", [gid])
    other = finished(store, people(101, 100), [0, 1], channel=11, guild=2)
    store.new_season(2, 101)
    data = store.personal_data(101)
    assert [(s.game_id, s.seat, s.name, s.status) for s in data.seats] == [(gid, 1, "P101", "active"),
                                                                           (other, 0, "P101", "finished")]
    assert data.seats[1].rank == 1 and data.hosted == [gid, other]
    assert [(r.guild_id, r.season, r.edition) for r in data.ratings] == [(2, 1, ""), (2, 1, "turismundo")]
    assert data.rating_changes == 2 and data.seasons_started == [(2, 2)]
    assert store.personal_data(999).seats == []


def test_forget_replaces_a_person_in_every_past_game(db_target: str, capsys: pytest.CaptureFixture) -> None:
    rng = random.Random(10)
    with Store(db_target) as store:
        gids = []
        for k, guild in enumerate((1, 1, 2)):
            gid, state = started(store, people(100, 101, 102), guild=guild, channel=20 + k)
            # Moves by the people, with their ids in the log (as the bot's clicks are).
            while (action := choose(state, rng)) is not None:
                new, events = engine.apply(state, action)
                actor = 100 + action.seat if action.seat >= 0 else None
                store.apply(gid, state.version, actor, action, events, new)
                state = new
            gids.append(gid)
        both = finished(store, people(101, 100, 103), [0, 1, 2], channel=30)
        # A game the host handed 101's seat to a computer in, after a move of theirs: only the log knows it.
        kicked, state = started(store, people(100, 101), channel=32, max_turns=0)
        while (action := choose(state, rng)) is not None and action.seat != 1:
            new, events = engine.apply(state, action)
            store.apply(kicked, state.version, None, action, events, new)
            state = new
        assert action is not None
        new, events = engine.apply(state, action)
        store.apply(kicked, state.version, 101, action, events, new)
        store.update_seat(kicked, 1, user_id=None, computer="normal")
        store.set_status(kicked, "abandoned")
        assert [(s.game_id, s.handed_over) for s in store.personal_data(101).seats][-2:] == [(both, False),
                                                                                             (kicked, True)]
        store.forget(103)  # a second forgotten person at the same table gets a name of their own
        others_before = {u: s for u, s in skills(store).items() if u != 101}
        open_game, _ = started(store, people(101, 102), channel=31)
        with pytest.raises(StoreError) as refused:
            store.forget(101)
        assert refused.value.code == "forget_open_game" and refused.value.params["games"] == [open_game]
        assert store.open_tables(101) == [open_game]  # what /turista forget-me asks before it confirms
        store.set_status(open_game, "abandoned")
        assert store.open_tables(101) == []

        done = store.forget(101)
        assert done.games == 6 and done.ratings > 0 and done.actions > 0
        data = store.personal_data(101)
        assert (data.seats, data.ratings, data.rating_changes, data.actions, data.hosted) == ([], [], 0, 0, [])
        handed = store.game(kicked).seats[1]
        # Stored in no language, with the letter the seat's token had (P101 sat second: "1", after P100's "P").
        assert (handed.user_id, handed.name, handed.computer) == (None, league.former_name("1"), "normal")
        assert store.game(kicked).state.seats[1].name == handed.name and verify_game(store, kicked).ok
        for gid in [*gids, both]:
            game = store.game(gid)
            names = [s.name for s in game.seats]
            assert "P101" not in names and all(s.user_id != 101 for s in game.seats)
            seat = next(s for s in game.seats if league.is_former(s.name) and s.user_id is None)
            assert (seat.computer, game.state.seats[seat.seat].name) == ("", seat.name)
            initial = store.initial_state(gid)
            assert initial is not None and [s.name for s in initial.seats] == names
            results = [r for h in store.history(game.guild_id, limit=20) if h.id == gid for r in h.results]
            assert all(r.user_id != 101 and r.name != "P101" for r in results)
            assert verify_game(store, gid).ok
            # The log still replays, from the export alone.
            out = io.StringIO()
            export(store, gid, out)
            lines = [json.loads(line) for line in out.getvalue().splitlines()]
            replay = msgspec.convert(lines[0]["initial"], engine.State)
            for row in lines[2:]:
                replay, _ = engine.apply(replay, msgspec.convert(row["action"], engine.Action))
            assert replay == game.state
            assert all(row["actor"] != 101 for row in lines[1:])
        # P101, P100 and P103 sat as "P", "1" and "0": the two forgotten keep theirs, so P100 keeps "1".
        assert [s.name for s in store.game(both).seats] == [league.former_name("P"), "P100", league.former_name("0")]
        assert 101 not in skills(store) and 101 not in skills(store, 2)
        assert {u: s for u, s in skills(store).items()} == others_before  # the others keep theirs
        assert store.profile(1, 101) is None
        target = store.location if store.kind == "postgresql" else str(store.path)
    assert cli(["verify", "--db", target]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith(", 0 mismatched")


def test_the_log_stays_append_only_but_for_forgetting_who_acted(store: Store) -> None:
    from bot.store.errors import Conflict

    gid, state = started(store, people(100, 101))
    action = choose(state, random.Random(1))
    assert action is not None
    new, events = engine.apply(state, action)
    store.apply(gid, 0, 100, action, events, new)
    with store.backend.write() as tx:
        tx.execute("UPDATE actions SET actor = NULL WHERE game_id = ?", [gid])
    for change in ("actor = 7", "events = '[]'", "actor = NULL, time = 0"):
        with pytest.raises(Conflict, match="append-only"), store.backend.write() as tx:
            tx.execute(f"UPDATE actions SET {change} WHERE game_id = ?", [gid])


def test_backups_and_merges_carry_the_league(db_target: str, tmp_path: Path) -> None:
    with Store(db_target) as store:
        a_league(store)
        written = league_rows(store)
        bought = store.profile(1, 100)
        store.backup(tmp_path / "copy.db")
    with Store(tmp_path / "copy.db", create=False) as copy:
        assert league_rows(copy) == written and copy.profile(1, 100) == bought
    assert cli(["split", "--shards", "2", "--out", str(tmp_path / "shard-{shard}.db"), str(tmp_path / "copy.db")]) == 0
    for shard in range(2):
        with Store(tmp_path / f"shard-{shard}.db", create=False) as part:
            rows = league_rows(part)
            guilds = {r[0] for r in rows["seasons"]}
            assert rows["ratings"] == [r for r in written["ratings"] if r[0] in guilds]
    # Another database's league of a guild already there is refused, even with games of other ids.
    with Store(tmp_path / "other.db") as other:
        other.reserve_block(1)
        finished(other, people(100, 101), [0, 1])
    assert cli(["merge", "--into", str(tmp_path / "copy.db"), str(tmp_path / "other.db")]) == 2
    with Store(tmp_path / "copy.db", create=False) as copy:
        assert league_rows(copy) == written


def test_games_of_one_guild_ending_at_once_are_rated_one_after_the_other(db_target: str) -> None:
    """Separate connections (as separate bot processes) end games with the same people at the same moments:
    each game is rated from the other's result, and rerate finds the same order."""
    writers, rounds = 4, 6
    stores = [Store(db_target, timeout=10) for _ in range(writers)]
    barrier = threading.Barrier(writers)
    failures: list[BaseException] = []

    def writer(me: int) -> None:
        try:
            for k in range(rounds):
                gid, _ = started(stores[me], people(100, 101, 102 + me), channel=1000 * me + k)
                barrier.wait(timeout=30)
                stores[me].finish_game(
                    gid, [{"seat": s, "rank": (s + me + k) % 3 + 1, "net_worth": 0} for s in range(3)]
                )
        except BaseException as exc:  # reported below
            failures.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=writer, args=(me,)) for me in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert failures == []
        store = stores[0]
        written = league_rows(store)
        assert [r[3] for r in written["league_games"]] != []
        assert sorted(r[3] for r in written["league_games"]) == list(range(1, writers * rounds + 1))
        assert next(r for r in store.ranking(1).ranked if r.user_id == 100).games == writers * rounds
        store.rerate()
        assert league_rows(store) == written
    finally:
        for s in stores:
            s.close()
