"""Standings after each tour, and each player's tour-by-tour line.

A player's tour points come from his table's whists through the night's scoring
(:mod:`.scoring`); a bye scores an average result.  A table counts as soon as it has whists
(the live standings show a tour being played); :attr:`TourLine.final` says the tour has ended.

**Tie-breaks**, in order: more points; then having played at a table (a player with no table
yet, a late arrival, is never ranked above one who played by his whists of zero, issue #37);
then more whists over the night (the whists as they are, summed over his tables); then the
better best tour (his highest tour points).  Players equal on all of them share the rank and
are listed by their numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core.numbers import Number, normal
from .night import Night
from .scoring import bye_points, tour_points


@dataclass(frozen=True, slots=True)
class TourLine:
    """One tour of one player: his table (None for a bye), whists there and tour points."""

    tour: int
    table: int | None
    whists: Number
    points: Number
    final: bool

    @property
    def bye(self) -> bool:
        return self.table is None


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    number: int
    name: str
    points: Number
    whists: Number
    best: Number
    tours: tuple[TourLine, ...]
    withdrawn: bool

    @property
    def played(self) -> bool:
        """He sat at a table (a bye or no tour yet is not playing)."""
        return any(not x.bye for x in self.tours)

    @property
    def key(self) -> tuple[Number, bool, Number, Number]:
        return (self.points, self.played, self.whists, self.best)


def tour_lines(night: Night, *, through: int | None = None) -> dict[int, list[TourLine]]:
    """Every player's lines for the tours drawn (up to tour ``through``)."""
    lines: dict[int, list[TourLine]] = {p.number: [] for p in night.players}
    bye = bye_points(night.scoring)
    for t in night.drawn:
        if through is not None and t.number > through:
            break
        final = t.state == "ended"
        for tab in t.tables:
            if tab.whists is None:
                continue
            points = tour_points(night.scoring, tab.whists)
            for n in tab.players:
                lines[n].append(TourLine(t.number, tab.number, tab.whists[n], points[n], final))
        for n in t.byes:
            lines[n].append(TourLine(t.number, None, 0, bye, final))
    return lines


def standings(night: Night, *, through: int | None = None) -> tuple[Standing, ...]:
    """The standings, best first (see the module's tie-breaks).

    >>> import datetime
    >>> n = Night(name="Club", date=datetime.date(2026, 1, 1), convention="sochi",
    ...           pool_target=10, tours=1)
    >>> for name in "ABC":
    ...     n = n.check_in(name)
    >>> from .draw import draw
    >>> n, _ = draw(n)
    >>> n = n.with_whists(1, 1, {1: 30, 2: -10, 3: -20})
    >>> [(s.rank, s.name, s.points) for s in standings(n)]
    [(1, 'A', 30), (2, 'B', -10), (3, 'C', -20)]
    """
    lines = tour_lines(night, through=through)
    rows = []
    for p in night.players:
        mine = lines[p.number]
        rows.append(
            Standing(
                rank=0,
                number=p.number,
                name=p.name,
                points=normal(sum((x.points for x in mine), start=0)),
                whists=normal(sum((x.whists for x in mine), start=0)),
                best=max((x.points for x in mine), default=0),
                tours=tuple(mine),
                withdrawn=p.last_tour is not None,
            )
        )
    rows.sort(key=lambda s: (tuple(-v for v in s.key), s.number))  # True (played) first
    ranked: list[Standing] = []
    for i, s in enumerate(rows):
        rank = ranked[-1].rank if ranked and ranked[-1].key == s.key else i + 1
        ranked.append(replace(s, rank=rank))
    return tuple(ranked)
