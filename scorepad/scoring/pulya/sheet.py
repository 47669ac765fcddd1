"""The paper scorepad: pool (пуля), gora (гора) and whist columns (§1.1).

A deal *writes* (:class:`Writing`); the sheet is the running total of every writing.
``whists[a][b]`` is what ``a`` wrote on ``b``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.i18n import Msg
from ...core.numbers import Number, normal


class Writing:
    """What one deal writes, entry by entry.

    ``explain`` holds one sentence per entry saying why, or is ``None`` when nobody will read
    them (the sheet and the cash-out need only the numbers; a view asks for the sentences).
    Whists are kept sparse: a deal writes on one or two players, not on all of them.
    """

    __slots__ = ("entries", "explain", "gora", "pool")

    def __init__(self, players: int, *, explain: bool = True) -> None:
        self.pool: list[Number] = [0] * players
        self.gora: list[Number] = [0] * players
        self.entries: dict[tuple[int, int], Number] = {}
        self.explain: list[Msg] | None = [] if explain else None

    @property
    def players(self) -> int:
        return len(self.pool)

    @property
    def whists(self) -> list[list[Number]]:
        """``whists[a][b]``: what ``a`` wrote on ``b`` in this deal (dense, built on demand)."""
        n = len(self.pool)
        out: list[list[Number]] = [[0] * n for _ in range(n)]
        for (by, on), amount in self.entries.items():
            out[by][on] = amount
        return out

    def add_whists(self, by: int, on: int, amount: Number) -> None:
        key = (by, on)
        self.entries[key] = self.entries.get(key, 0) + amount

    def add_gora(self, seat: int, amount: Number) -> None:
        self.gora[seat] += amount


@dataclass(slots=True)
class Sheet:
    """Running totals after some deals: the scorepad as it stands."""

    pool: list[Number]
    gora: list[Number]
    whists: list[list[Number]]

    @classmethod
    def empty(cls, players: int) -> Sheet:
        return cls([0] * players, [0] * players, [[0] * players for _ in range(players)])

    @property
    def players(self) -> int:
        return len(self.pool)


class Tally:
    """Adds writings up.  Whole numbers and fractions are summed apart (fractions are rare and
    slow), and combined when read: exact either way."""

    __slots__ = ("gora", "gora_frac", "n", "pool", "whists", "whists_frac")

    def __init__(self, players: int) -> None:
        self.n = players
        self.pool: list[Number] = [0] * players  # read by every deal (help): kept combined
        self.gora = [0] * players
        self.whists = [[0] * players for _ in range(players)]
        self.gora_frac: dict[int, Number] = {}
        self.whists_frac: dict[tuple[int, int], Number] = {}

    def add(self, w: Writing) -> None:
        for i in range(self.n):
            v = w.pool[i]
            if v:
                self.pool[i] += v
            v = w.gora[i]
            if v:
                if type(v) is int:
                    self.gora[i] += v
                else:
                    self.gora_frac[i] = self.gora_frac.get(i, 0) + v
        for (i, j), v in w.entries.items():
            if type(v) is int:
                self.whists[i][j] += v
            else:
                self.whists_frac[i, j] = self.whists_frac.get((i, j), 0) + v

    def sheet(self) -> Sheet:
        n = self.n
        return Sheet(
            [normal(p) for p in self.pool],
            [normal(self.gora[i] + self.gora_frac.get(i, 0)) for i in range(n)],
            [
                [normal(self.whists[i][j] + self.whists_frac.get((i, j), 0)) for j in range(n)]
                for i in range(n)
            ],
        )


@dataclass(slots=True)
class Running:
    """The running entries of the paper pulya: every total a cell showed, oldest first."""

    pool: list[list[Number]]
    gora: list[list[Number]]
    whists: list[list[list[Number]]]  # whists[a][b]: what a wrote on b, total by total


def running_entries(writings: list[Writing], players: int) -> Running:
    """As on paper: each new total is written after the old one, which is struck through."""
    r = Running(
        [[] for _ in range(players)],
        [[] for _ in range(players)],
        [[[] for _ in range(players)] for _ in range(players)],
    )
    pool: list[Number] = [0] * players
    gora: list[Number] = [0] * players
    whists: list[list[Number]] = [[0] * players for _ in range(players)]
    for w in writings:
        for i in range(players):
            if w.pool[i]:
                pool[i] += w.pool[i]
                r.pool[i].append(normal(pool[i]))
            if w.gora[i]:
                gora[i] += w.gora[i]
                r.gora[i].append(normal(gora[i]))
        for (a, b), v in w.entries.items():
            if v:
                whists[a][b] += v
                r.whists[a][b].append(normal(whists[a][b]))
    return r
