"""A rating per family for 3- and 4-player tables (OpenSkill's Plackett-Luce model).

Each finished pulka or game ranks its players by result (the exact figure in the family's own
unit: whists, supe, chips, cash; equal results are a tie, whatever kopeck the rounding of money
gives one of them).  The ratings are a replay of every finished session in the order they
were played, from the stored records, so an edit, a void or a restore of any deal (which rewrites
that session's record) changes the ratings the next time they are read: an undone game undoes its
rating change.

The model is OpenSkill's Plackett-Luce (made for ranked outcomes of more than two players) with
its defaults (μ 25, σ 25/3, β 25/6) and no drift between games (``tau=0``): a card player's skill
does not move from one Friday to the next the way an online game's model assumes, and with
``tau=0`` the model gives the library's documented figures exactly.  A player's shown rating is
the conservative ``μ − 3σ`` (the library's ordinal), and only after :data:`MIN_GAMES` finished
games in the family: before that the figure says more about the prior than about the player.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce

from ..core.numbers import Number
from .stats import Played

MIN_GAMES = 5
MODEL = PlackettLuce(tau=0)


class Shown:
    """What a rating shows of its skill (``mu``, ``sigma``) after ``games`` tables: the players'
    ratings per family and the league's across clubs say it the same way."""

    __slots__ = ()
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """μ − 3σ: a rating the player's true skill exceeds with 99.7 % certainty."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> bool:
        return self.games >= MIN_GAMES


@dataclass(frozen=True, slots=True)
class Rating(Shown):
    player: int
    family: str
    mu: float
    sigma: float
    games: int


def ranks(results: Iterable[Number]) -> list[int]:
    """1 for the best result, equal results sharing a rank: ``[300, -150, -150] -> [1, 2, 2]``."""
    values = list(results)
    return [1 + sum(1 for other in values if other > v) for v in values]


def ratings(played: Iterable[Played]) -> dict[tuple[int, str], Rating]:
    """``(player, family) -> Rating`` after every finished session, replayed in order."""
    state: dict[tuple[int, str], tuple[float, float, int]] = {}
    for p in sorted(played, key=lambda p: (p.started, p.session)):
        r = p.record
        if not r.finished or not 3 <= len(p.players) <= 4 or not r.deals:
            continue
        keys = [(pid, p.family) for pid in p.players]
        teams = []
        for key in keys:
            mu, sigma, _ = state.get(key, (MODEL.mu, MODEL.sigma, 0))
            teams.append([MODEL.rating(mu=mu, sigma=sigma)])
        new = MODEL.rate(teams, ranks=[float(x) for x in ranks(s.result for s in r.seats)])
        for key, [rating] in zip(keys, new, strict=True):
            games = state.get(key, (0.0, 0.0, 0))[2] + 1
            state[key] = (rating.mu, rating.sigma, games)
    return {k: Rating(k[0], k[1], mu, sigma, games) for k, (mu, sigma, games) in state.items()}


__all__ = ["MIN_GAMES", "MODEL", "Rating", "ranks", "ratings"]
