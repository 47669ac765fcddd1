"""The paper scorepad: pool (пуля), gora (гора) and whist columns (§1.1).

A deal *writes* (:class:`Writing`); the sheet is the running total of every writing.
``whists[a][b]`` is what ``a`` wrote on ``b``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .i18n import Msg
from .numbers import Number


@dataclass(slots=True)
class Writing:
    """What one deal writes, entry by entry, with one sentence per entry saying why."""

    pool: list[Number]
    gora: list[Number]
    whists: list[list[Number]]
    explain: list[Msg] = field(default_factory=list)

    @classmethod
    def empty(cls, players: int) -> Writing:
        return cls([0] * players, [0] * players, [[0] * players for _ in range(players)])

    def write_whists(self, by: int, on: int, amount: Number, why: Msg) -> None:
        self.whists[by][on] += amount
        self.explain.append(why)

    def write_gora(self, seat: int, amount: Number, why: Msg) -> None:
        self.gora[seat] += amount
        self.explain.append(why)


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

    def add(self, w: Writing) -> None:
        n = len(self.pool)
        for i in range(n):
            self.pool[i] += w.pool[i]
            self.gora[i] += w.gora[i]
            row, add = self.whists[i], w.whists[i]
            for j in range(n):
                if add[j]:
                    row[j] += add[j]

    def copy(self) -> Sheet:
        return Sheet(list(self.pool), list(self.gora), [list(r) for r in self.whists])
