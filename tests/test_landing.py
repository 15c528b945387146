"""Where tokens rest after each roll, against the published long-run probabilities of the classic game.

Reference: Truman Collins, "Probabilities in the Game of Monopoly®"
(http://www.tkcs-collins.com/truman/monopoly/monopoly.shtml), the table of long-run probabilities per roll
for the "jail short" (leave at once) and "jail long" (stay while rolling for doubles) strategies. The values
below are his for the 26 titles, in percent, as copied with their column names ("Probability % (Jail
Short)", "Probability % (Jail Long)") in a public data file of the classic board.

The other 14 squares and "in jail" are not in that copy, so the exact chain Collins solved is solved here
too (`per_roll_chain`, built from our `monopolio` edition: its board, its decks and its jail rules). It
reproduces every published short-jail value to the four decimals printed and the long-jail ones within
0.005 points; the simulated games are then held to it on all 40 squares and "in jail".
"""

from __future__ import annotations

import pytest

from engine.edition import load
from engine.rules import new_game
from engine.simulate import Landing, play
from engine.state import Settings

# Square index on the classic board (our `monopolio`): (jail short %, jail long %).
COLLINS = {
    1: (2.1314, 2.0073),  # Mediterranean Avenue
    3: (2.1624, 2.0369),  # Baltic Avenue
    5: (2.9631, 2.8010),  # Reading Railroad
    6: (2.2621, 2.1317),  # Oriental Avenue
    8: (2.3210, 2.1874),  # Vermont Avenue
    9: (2.3003, 2.1680),  # Connecticut Avenue
    11: (2.7017, 2.5560),  # St. Charles Place
    12: (2.6040, 2.6140),  # Electric Company
    13: (2.3721, 2.1741),  # States Avenue
    14: (2.4649, 2.4255),  # Virginia Avenue
    15: (2.9200, 2.6354),  # Pennsylvania Railroad
    16: (2.7924, 2.6802),  # St. James Place
    18: (2.9356, 2.8210),  # Tennessee Avenue
    19: (3.0852, 2.8118),  # New York Avenue
    21: (2.8358, 2.6143),  # Kentucky Avenue
    23: (2.7357, 2.5671),  # Indiana Avenue
    24: (3.1858, 2.9929),  # Illinois Avenue
    26: (2.7072, 2.5370),  # Atlantic Avenue
    27: (2.6789, 2.5191),  # Ventnor Avenue
    28: (2.8074, 2.6507),  # Water Works
    29: (2.5861, 2.4381),  # Marvin Gardens
    31: (2.6774, 2.5236),  # Pacific Avenue
    32: (2.6252, 2.4721),  # North Carolina Avenue
    34: (2.5006, 2.3531),  # Pennsylvania Avenue
    37: (2.1864, 2.0595),  # Park Place
    39: (2.6260, 2.4832),  # Boardwalk
}
POLICIES = ("short", "long")

# Simulated shares must be within this many percentage points of the reference, on every square.
TOLERANCE_PP = 0.25


def per_roll_chain(edition_id: str, jail: str, rounds: int = 1500) -> tuple[list[float], float]:
    """The long-run share of rolls after which a token rests on each square, and in jail.

    States are (square, doubles rolled so far this turn) plus three jail turns; each roll moves the
    probability mass through the dice, the go-to-jail square and the card decks (a card drawn at random,
    as Collins models them). `short` leaves jail at once and rolls from the jail square; `long` stays until
    a double (which moves without a further roll) or the third failed roll (fine paid, moving by it).
    """
    ed = load(edition_id)
    squares = ed.squares
    jail_square = ed.rules.jail_square
    decks = {d.id: d.cards for d in ed.decks}
    in_jail = 40 * 3  # jail states: in_jail + k for the k-th roll in jail

    def land(pos: int, p: float, out: dict[int, float]) -> None:
        kind = squares[pos].kind
        if kind == "go_to_jail":
            out[-1] = out.get(-1, 0.0) + p
            return
        if kind != "card":
            out[pos] = out.get(pos, 0.0) + p
            return
        cards = decks[squares[pos].deck]
        q = p / len(cards)
        for card in cards:
            if card.effect == "go_to_jail":
                out[-1] = out.get(-1, 0.0) + q
            elif card.effect == "move_to":
                land(card.square, q, out)
            elif card.effect == "move_by":
                land((pos + card.steps) % 40, q, out)
            elif card.effect == "nearest":
                step = next(k for k in range(1, 41) if squares[(pos + k) % 40].kind == card.kind)
                land((pos + step) % 40, q, out)
            else:
                out[pos] = out.get(pos, 0.0) + q

    def roll_from(pos: int, doubles: int, leaving_jail: bool) -> list[tuple[int, float]]:
        row: list[tuple[int, float]] = []
        for a in range(1, 7):
            for b in range(1, 7):
                double = a == b and not leaving_jail
                if double and doubles == 2:
                    row.append((in_jail, 1 / 36))
                    continue
                out: dict[int, float] = {}
                land((pos + a + b) % 40, 1 / 36, out)
                nxt = doubles + 1 if double else 0
                row += [(in_jail if f < 0 else f * 3 + nxt, q) for f, q in out.items()]
        return row

    rows: list[list[tuple[int, float]]] = [roll_from(s // 3, s % 3, False) for s in range(in_jail)]
    for k in range(3):
        if jail == "short":
            rows.append(roll_from(jail_square, 0, False))  # the fine is paid first: an ordinary roll
            continue
        row: list[tuple[int, float]] = []
        for a in range(1, 7):
            for b in range(1, 7):
                if a != b and k < 2:
                    row.append((in_jail + k + 1, 1 / 36))
                    continue
                out: dict[int, float] = {}
                land((jail_square + a + b) % 40, 1 / 36, out)
                row += [(in_jail if f < 0 else f * 3, q) for f, q in out.items()]
        rows.append(row)
    share = [0.0] * len(rows)
    share[0] = 1.0
    for _ in range(rounds):
        nxt = [0.0] * len(rows)
        for i, row in enumerate(rows):
            if share[i]:
                for j, q in row:
                    nxt[j] += share[i] * q
        share = nxt
    return [sum(share[s * 3 : s * 3 + 3]) for s in range(40)], sum(share[in_jail:])


@pytest.fixture(scope="module", params=POLICIES)
def chain(request: pytest.FixtureRequest) -> tuple[str, list[float], float]:
    squares, jailed = per_roll_chain("monopolio", request.param)
    return request.param, squares, jailed


def test_the_chain_reproduces_collins(chain: tuple[str, list[float], float]) -> None:
    policy, squares, _ = chain
    column = POLICIES.index(policy)
    # Short: equal to the printed decimals. Long: his model differs in some detail worth < 0.004 points.
    tolerance = 0.0001 if policy == "short" else 0.005
    for square, published in COLLINS.items():
        assert squares[square] * 100 == pytest.approx(published[column], abs=tolerance), square


def _simulated(policy: str, games: int, turns: int) -> Landing:
    """Long games (nobody runs out of money) so the shares are long-run ones, not the opening from Go."""
    landing = Landing()
    settings = Settings(start_cash=10**9, max_turns=turns)
    for seed in range(games):
        st, _ = new_game("monopolio", ["A", "B", "C", "D"], seed=seed, settings=settings, computers=["normal"] * 4)
        play(st, policy, landing)
    return landing


def test_simulated_games_land_like_the_published_tables(chain: tuple[str, list[float], float]) -> None:
    policy, squares, jailed = chain
    landing = _simulated(policy, games=10, turns=6000)
    assert landing.rolls > 65_000
    shares, in_jail = landing.shares()
    column = POLICIES.index(policy)
    for square in range(40):
        assert abs(shares[square] - squares[square]) * 100 <= TOLERANCE_PP, (square, shares[square], squares[square])
    for square, published in COLLINS.items():
        assert abs(shares[square] * 100 - published[column]) <= TOLERANCE_PP, square
    assert abs(in_jail - jailed) * 100 <= TOLERANCE_PP
    assert shares[30] == 0.0, "nobody rests on go-to-jail"
