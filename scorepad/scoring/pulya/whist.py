"""Whisting (вистование): the calls, their shortest form, and the roles they give (§3, §4.3-4.5).

The rules of which call sequences are legal live in :mod:`scorepad.scoring.pulya.legal`; this module
holds the words they are written in.

>>> shortest([Call.WHIST, Call.PASS]), Call("half")
((<Call.WHIST: 'whist'>,), <Call.HALF: 'half'>)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, StrEnum


class Call(StrEnum):
    """A defender's call; the value is the session-format word (``"whist"``, ``"pass"``, ``"half"``)."""

    WHIST = "whist"
    PASS = "pass"
    HALF = "half"


def shortest(calls: Iterable[str]) -> tuple[Call, ...]:
    """The shortest form of a call sequence: passes at the end change nothing, so they go.

    The session format writes this form; ``["whist"]`` is whist–pass.

    >>> shortest(["pass", "half", "pass", "pass"])
    (<Call.PASS: 'pass'>, <Call.HALF: 'half'>)
    """
    out = [Call(c) for c in calls]
    while out and out[-1] is Call.PASS:
        out.pop()
    return tuple(out)


class Kind(Enum):
    ALL_PASSED = "all_passed"  # nobody whisted: not played, counted made
    HALF = "half"  # a half-whist stood: not played, counted made
    ONE = "one"  # one whister, one passer
    TWO = "two"  # both whisted
    RETURNED = "returned"  # the whist returned over a half-whist, or the dealer whisted alone
    CHECKED = "checked"  # a checked ten: played open, both defend


@dataclass(frozen=True, slots=True)
class Whisting:
    """The outcome of the whist calls: who defends, who answers for the defence's tricks."""

    kind: Kind
    whisters: tuple[int, ...] = ()  # in the order they said "whist"
    passers: tuple[int, ...] = ()  # defenders (and a whisting dealer's hands) who passed
    half_whister: int | None = None

    @property
    def played(self) -> bool:
        """Whether the deal is played out (tricks are written): somebody whisted, or a checked ten."""
        return self.kind not in (Kind.ALL_PASSED, Kind.HALF)

    @property
    def lone_whister(self) -> bool:
        """One defender whists alone against a played game: he may play open (всветлую)."""
        return self.played and len(self.whisters) == 1
