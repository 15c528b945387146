"""A finished game's ratings: openskill's Plackett-Luce model, each seat a team of one, ranked by its placing.

Who counts:
- a person: the seat's user id (also when a computer stood in for them while they were away: the seat stayed
  theirs, so its result is theirs too, and leaving a game going badly to the computer changes nothing);
- a computer seat: an opponent at its level's fixed skill (`COMPUTER_SKILLS`), never rated itself;
- a person who asked to be forgotten: an opponent at a newcomer's skill, no longer rated.
A game with fewer than two people (forgotten ones included) rates nobody: beating computers alone says little
about the people of a server, and one person could farm them.

The skill `NEWCOMER` starts at openskill's defaults (mu 25, sigma 25/3). What the ranking shows is the
conservative estimate mu - 3 sigma (`shown`): a newcomer shows 1000, and a rating rises only as the
uncertainty shrinks with games played, so a lucky first win does not top the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from engine import DEFAULT_LEVEL

# openskill's defaults: mu 25, sigma 25/3, beta 25/6 (the spread of one game's luck), tau 25/300 (added to
# every sigma before a game, so a rating never freezes).
MODEL: Final = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float


NEWCOMER: Final = Skill(MODEL.mu, MODEL.sigma)

# The computer levels' skills, fitted to how they fare against each other in the simulator (docs/simulator.md)
# under the model's own odds of winning (exp(mu / c) shares, c = sqrt(sum of sigma² + beta²) = 9.2 at four
# seats): `normal` wins 92 % to 99 % of 2 + 2 games against `facil` depending on the edition, and a gap of 25
# gives 94 %, the low end (a cautious guess); one `dificil` among three `normal` wins 41 % to 58 % of games,
# and a gap of 10 gives 50 %. `normal`, the default level, sits at a newcomer's mu: a newcomer is taken to
# play like it until games show otherwise. Sigma 2: a program's strength does not drift, and a small sigma
# barely widens c, so a person's update depends on their own uncertainty; not smaller, since the fit itself
# spreads by a few points between editions.
COMPUTER_SIGMA: Final = 2.0
COMPUTER_SKILLS: Final[Mapping[str, Skill]] = {
    "facil": Skill(0.0, COMPUTER_SIGMA),
    "normal": Skill(25.0, COMPUTER_SIGMA),
    "dificil": Skill(35.0, COMPUTER_SIGMA),
}
FORMER_PLAYER: Final = NEWCOMER  # the skill a forgotten person counts at, as an opponent

# The shown rating: 1000 + 20 × (mu - 3 sigma). 1000 for a newcomer reads as a start rather than as nothing
# (0 would), and 20 points per unit of mu make an established player's game move it by ten to thirty
# points, a newcomer's first games by about a hundred.
SHOWN_BASE: Final = 1000
SHOWN_SCALE: Final = 20
# People with fewer rated games than this are listed apart, as provisional.
PROVISIONAL_GAMES: Final = 3


def shown(skill: Skill) -> int:
    """The rating a person sees: openskill's ordinal (mu - 3 sigma) with alpha SHOWN_SCALE and target SHOWN_BASE,
    written out: the library computes it on a rating object, which costs a random id each (a profile shows
    hundreds of them). tests/test_league.py checks the two agree."""
    return round(SHOWN_SCALE * ((skill.mu - 3.0 * skill.sigma) + SHOWN_BASE / SHOWN_SCALE))


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class Placed:
    """One seat of a game that ended, as the league sees it."""

    seat: int
    placing: int  # 1 = first, as the end-of-game picture ranks the seats
    user_id: int | None = None  # the person rated for this seat; None for a computer or a forgotten person
    computer: str = ""  # the level of a computer seat ("" for a person, even one a computer stood in for)

    @property
    def person(self) -> bool:
        return self.user_id is not None or not self.computer


@dataclass(frozen=True, slots=True)
class Change:
    """What one game did to one person's rating."""

    user_id: int
    seat: int
    placing: int
    before: Skill
    after: Skill

    @property
    def won(self) -> bool:
        return self.placing == 1


def rated(placed: Sequence[Placed]) -> bool:
    """Whether a game with these seats rates anyone: two people or more."""
    return sum(p.person for p in placed) >= 2


def opponent_skill(p: Placed) -> Skill:
    """The fixed skill a seat nobody is rated for plays at."""
    if p.computer:
        return COMPUTER_SKILLS.get(p.computer) or COMPUTER_SKILLS[DEFAULT_LEVEL]
    return FORMER_PLAYER


def rate(placed: Sequence[Placed], skills: Mapping[int, Skill]) -> list[Change]:
    """The people's new skills after a game with these seats; `skills` holds each person's skill before it (a
    person missing there is a newcomer). Empty when the game rates nobody. The same seats and skills always
    give the same numbers, to the last bit: `turista store rerate` relies on it."""
    seats = sorted(placed, key=lambda p: p.seat)  # one order for every caller: float sums depend on it
    people = [p.user_id for p in seats if p.user_id is not None]
    if len(set(people)) != len(people):
        raise ValueError(f"a person holds two seats: {people}")
    if any(p.placing < 1 for p in seats):
        raise ValueError(f"placings start at 1: {[p.placing for p in seats]}")
    if not rated(seats):
        return []
    before = [
        skills.get(p.user_id, NEWCOMER) if p.user_id is not None else opponent_skill(p) for p in seats
    ]
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = MODEL.rate(teams, ranks=[float(p.placing) for p in seats])
    return [
        Change(p.user_id, p.seat, p.placing, b, Skill(a[0].mu, a[0].sigma))
        for p, b, a in zip(seats, before, after, strict=True)
        if p.user_id is not None
    ]
