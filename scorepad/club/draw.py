"""The draw: the players of a tour seated at tables of 3 or 4, avoiding repeat opponents.

**Table sizes.**  A table has three players, or four with the dealer sitting out each deal;
never two or five.  By default a night seats tables of three and makes tables of four only as
the count needs (``n = 3a + 4b`` with the fewest tables of four): every count from 6 up splits,
3 and 4 are one table, and 5 cannot split, so one player has a **bye** (a table of four plays).
A night of tables of 3 only (or 4 only) gives ``n mod 3`` (or ``n mod 4``) byes.  A bye goes to
the players with the fewest byes so far, drawn by lot among them; a bye scores an average
result (:func:`~.scoring.bye_points`).

**Seats.**  The players are shuffled from the night's seed (the tour and the re-draw count are
part of it), cut into tables, then improved by swapping two players of different tables
whenever the swap lowers the *repeats*: every pair at one table who met at a table before, a
pair that met twice counting twice.  The search stops when no repeat is left or after a fixed
budget of tries, keeping the best seating found; the repeats left are reported (a small night
cannot avoid some: 6 players at two tables meet again in the second tour).  The order at each
table is drawn by lot too (seat 0 deals first).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..core.i18n import N_, msg
from .errors import ClubError
from .night import Night, Table, Tour

#: Swap attempts per player seated: enough to clear every avoidable repeat of a 40-player
#: night in our tests, small enough for the draw to take milliseconds.
TRIES_PER_PLAYER = 300


@dataclass(frozen=True, slots=True)
class Repeat:
    """Two players at one table again: ``times`` is how often they met before this tour."""

    first: int
    second: int
    table: int
    times: int


@dataclass(frozen=True, slots=True)
class DrawReport:
    tour: int
    repeats: tuple[Repeat, ...]
    byes: tuple[int, ...]


def table_sizes(players: int, seats: int | None) -> tuple[list[int], int]:
    """The sizes of the tables and the number of byes for ``players`` players.

    >>> table_sizes(10, None), table_sizes(5, None), table_sizes(10, 4), table_sizes(40, None)
    (([3, 3, 4], 0), ([4], 1), ([4, 4], 2), ([3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4], 0))
    """
    if seats is not None:
        return [seats] * (players // seats), players % seats
    if players < 3:
        return [], players
    fours = {0: 0, 1: 1, 2: 2}[players % 3]
    if players < 4 * fours:  # 5 cannot split: a table of four and a bye
        return [4], players - 4
    return [3] * ((players - 4 * fours) // 3) + [4] * fours, 0


def meetings(tours: Iterable[Tour]) -> Counter[frozenset[int]]:
    """How often each pair of players sat at one table in ``tours``."""
    met: Counter[frozenset[int]] = Counter()
    for t in tours:
        for tab in t.tables:
            for a, b in combinations(tab.players, 2):
                met[frozenset((a, b))] += 1
    return met


def _cost(group: Sequence[int], met: Mapping[frozenset[int], int]) -> int:
    return sum(met.get(frozenset((a, b)), 0) for a, b in combinations(group, 2))


def _cost_without(group: list[int], who: int, met: Mapping[frozenset[int], int]) -> int:
    return sum(met.get(frozenset((who, b)), 0) for b in group if b != who)


def seat(
    players: Sequence[int],
    *,
    seats: int | None,
    met: Mapping[frozenset[int], int],
    byes_before: Mapping[int, int],
    rng: random.Random,
) -> tuple[list[list[int]], list[int]]:
    """Tables (each a list of player numbers in seat order) and the byes."""
    sizes, bye_count = table_sizes(len(players), seats)
    if not sizes:
        raise ClubError(
            msg(
                N_("{n} players cannot make a table: a table needs at least {need}"),
                n=len(players),
                need=seats or 3,
            )
        )
    pool = list(players)
    rng.shuffle(pool)
    # Byes go to the last of the pool: the most byes so far first, so the fewest last; the
    # shuffle decides among equals (the sort is stable).
    pool.sort(key=lambda p: -byes_before.get(p, 0))
    byes = sorted(pool[len(pool) - bye_count :]) if bye_count else []
    seated = pool[: len(pool) - bye_count]
    rng.shuffle(seated)
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(seated[start : start + size])
        start += size
    cost = sum(_cost(t, met) for t in tables)
    tries = TRIES_PER_PLAYER * len(seated) if len(tables) > 1 else 0
    for _ in range(tries):
        if cost == 0:
            break
        i, j = rng.sample(range(len(tables)), 2)
        a_at, b_at = rng.randrange(len(tables[i])), rng.randrange(len(tables[j]))
        a, b = tables[i][a_at], tables[j][b_at]
        before = _cost_without(tables[i], a, met) + _cost_without(tables[j], b, met)
        tables[i][a_at], tables[j][b_at] = b, a
        after = _cost_without(tables[i], b, met) + _cost_without(tables[j], a, met)
        if after <= before:  # equal moves too: the search walks across plateaus
            cost += after - before
        else:
            tables[i][a_at], tables[j][b_at] = a, b
    for t in tables:
        rng.shuffle(t)
    return tables, byes


def _rng(night: Night, tour: int, redraws: int) -> random.Random:
    return random.Random(f"scorepad-club/{night.seed}/{tour}/{redraws}")


def _draw(night: Night, number: int, redraws: int) -> tuple[Tour, DrawReport]:
    before = [t for t in night.drawn if t.number < number]
    present = [p.number for p in night.present(number)]
    byes_before = Counter(b for t in before for b in t.byes)
    met = meetings(before)
    if not table_sizes(len(present), night.seats)[0]:
        raise ClubError(
            msg(
                N_(
                    "tour {tour} cannot be drawn: {n} players are checked in, a table needs at least {need}"
                ),
                tour=number,
                n=len(present),
                need=night.seats or 3,
            )
        )
    groups, byes = seat(
        present,
        seats=night.seats,
        met=met,
        byes_before=byes_before,
        rng=_rng(night, number, redraws),
    )
    tables = tuple(Table(number=k, players=tuple(g)) for k, g in enumerate(groups, start=1))
    repeats = tuple(
        Repeat(min(a, b), max(a, b), t.number, met[frozenset((a, b))])
        for t in tables
        for a, b in combinations(t.players, 2)
        if met.get(frozenset((a, b)))
    )
    tour = Tour(number=number, tables=tables, byes=tuple(byes), redraws=redraws)
    return tour, DrawReport(number, repeats, tuple(byes))


def verify_draw(night: Night) -> int:
    """The number of the tour to draw next, or a refusal."""
    t = night.current
    if t is not None and t.state != "ended":
        raise ClubError(
            msg(N_("tour {tour} has not ended: end it before the next draw"), tour=t.number)
        )
    number = 1 if t is None else t.number + 1
    if number > night.tours:
        raise ClubError(msg(N_("every tour of the night is drawn")))
    return number


def draw(night: Night) -> tuple[Night, DrawReport]:
    """The next tour drawn; the night with it and the report of repeats and byes."""
    tour, report = _draw(night, verify_draw(night), 0)
    return night.model_copy(update={"drawn": (*night.drawn, tour)}), report


def verify_redraw(night: Night) -> Tour:
    t = night.current
    if t is None:
        raise ClubError(msg(N_("no tour is drawn yet")))
    if t.state != "drawn":
        raise ClubError(
            msg(
                N_("tour {tour} cannot be drawn again: its first deal is written"),
                tour=t.number,
            )
        )
    return t


def redraw(night: Night) -> tuple[Night, DrawReport]:
    """The current tour drawn again (before its first deal), with the registry as it is now."""
    t = verify_redraw(night)
    tour, report = _draw(night, t.number, t.redraws + 1)
    return night.model_copy(update={"drawn": (*night.drawn[:-1], tour)}), report


def repeats_of(night: Night) -> int:
    """Every repeat of the night so far: a pair at one table for the k-th time counts k - 1."""
    return sum(n - 1 for n in meetings(night.drawn).values())
