"""Who sits where in one deal: the seating, the dealer, and the state the rules read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass
from functools import cache
from typing import Any

from ...core.i18n import N_, Msg, msg
from ...core.numbers import Number
from ..contract import Contract, Trump
from .convention import Settings


@dataclass(slots=True)
class Table:
    """The context of one deal: settings, names, target, dealer and the sheet's pools so far."""

    settings: Settings
    names: Sequence[str]
    _: KW_ONLY
    target: int
    dealer: int
    pools: Sequence[Number]
    raspasy_in_row: int  # all-passes in the current series before this deal
    sits_out: int | None = None  # with four players the dealer sits out (§11)
    active: tuple[int, ...] = ()  # the seats dealt in, clockwise from the dealer's left
    whist_cache: dict[Any, Any] | None = None  # legal call tables, kept by a replay
    explain: bool = True  # write the sentences that account for each entry

    def __post_init__(self) -> None:
        self.sits_out, self.active = _seating(len(self.names), self.dealer)

    @property
    def players(self) -> int:
        return len(self.names)

    def defenders(self, declarer: int) -> tuple[int, int]:
        """The first (declarer's left) and the second defender."""
        n = len(self.names)
        order = [(declarer + k) % n for k in range(1, n)]
        d1, d2 = (s for s in order if s != self.sits_out)
        return d1, d2

    def name(self, seat: int) -> str:
        return self.names[seat]


@cache
def _seating(n: int, dealer: int) -> tuple[int | None, tuple[int, ...]]:
    sits_out = dealer if n == 4 else None
    return sits_out, tuple(s for s in ((dealer + k) % n for k in range(1, n + 1)) if s != sits_out)


def contract_name(c: Contract) -> str | Msg:
    """``7♠``; no-trump contracts are translated (6NT / 6БК)."""
    if c.trump is Trump.NO_TRUMP:
        return msg(N_("{level}NT"), level=c.level)
    return c.symbol
