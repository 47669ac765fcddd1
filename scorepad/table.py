"""Who sits where in one deal: the seating, the dealer, and the state the rules read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .contract import Contract, Trump
from .convention import Settings
from .i18n import N_, Msg, msg
from .numbers import Number


@dataclass(frozen=True, slots=True)
class Table:
    """The context of one deal: settings, names, target, dealer and the sheet's pools so far."""

    settings: Settings
    names: Sequence[str]
    target: int
    dealer: int
    pools: Sequence[Number]
    raspasy_in_row: int  # all-passes in the current series before this deal

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def sits_out(self) -> int | None:
        """With four players the dealer sits out (§11); with three everybody plays."""
        return self.dealer if len(self.names) == 4 else None

    @property
    def active(self) -> tuple[int, ...]:
        """The seats dealt in, clockwise from the dealer's left."""
        n = len(self.names)
        return tuple(s for s in ((self.dealer + k) % n for k in range(1, n + 1)) if s != self.sits_out)

    def defenders(self, declarer: int) -> tuple[int, int]:
        """The first (declarer's left) and the second defender."""
        n = len(self.names)
        order = [(declarer + k) % n for k in range(1, n)]
        d1, d2 = (s for s in order if s != self.sits_out)
        return d1, d2

    def name(self, seat: int) -> str:
        return self.names[seat]


def contract_name(c: Contract) -> str | Msg:
    """``7♠``; no-trump contracts are translated (6NT / 6БК)."""
    if c.trump is Trump.NO_TRUMP:
        return msg(N_("{level}NT"), level=c.level)
    return c.symbol
