"""Contracts: a level (6-10) and a trump, and their place on the bidding ladder (§1.3).

>>> c = Contract.parse("7S")
>>> c.level, c.trump, c.code, c.symbol
(7, <Trump.SPADES: 'S'>, '7S', '7♠')
>>> Contract.parse("6NT").rank < Contract.parse("7S").rank < Contract.parse("10NT").rank
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum


class Trump(Enum):
    """Trumps in ladder order; the value is the session-format letter."""

    SPADES = "S"
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    NO_TRUMP = "NT"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def order(self) -> int:
        return _ORDER[self]


_SYMBOLS = {
    Trump.SPADES: "♠",
    Trump.CLUBS: "♣",
    Trump.DIAMONDS: "♦",
    Trump.HEARTS: "♥",
    Trump.NO_TRUMP: "NT",
}
_ORDER = {t: i for i, t in enumerate(Trump)}
_CONTRACT = re.compile(r"(10|[6-9])(S|C|D|H|NT)")


@dataclass(frozen=True, slots=True, order=True)
class Contract:
    """A game contract: ``level`` tricks with ``trump``."""

    level: int
    trump: Trump

    @classmethod
    def parse(cls, code: str) -> Contract:
        """Parse the session-format code: ``"6S"``, ``"8NT"``, ``"10H"``."""
        m = _CONTRACT.fullmatch(code)
        if m is None:
            raise ValueError(
                f"{code!r} is not a contract: level 6-10 and S, C, D, H or NT, like '7S'"
            )
        return cls(int(m.group(1)), Trump(m.group(2)))

    @property
    def code(self) -> str:
        return f"{self.level}{self.trump.value}"

    @property
    def symbol(self) -> str:
        return f"{self.level}{self.trump.symbol}"

    @property
    def rank(self) -> int:
        """Position on the bidding ladder: 6♠ is 30, 10NT is 54."""
        return self.level * 5 + self.trump.order
