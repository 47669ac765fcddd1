"""Builders of club nights for the club tests."""

from __future__ import annotations

import datetime
from typing import Any

from scorepad.club.night import Night


def night(players: int = 0, *, tours: int = 3, **kw: Any) -> Night:
    """A night with ``players`` checked in (named P1, P2, …)."""
    n = Night(
        name="Club",
        date=datetime.date(2026, 12, 1),
        convention="sochi",
        pool_target=kw.pop("pool_target", 10),
        tours=tours,
        seed=kw.pop("seed", 11),
        **kw,
    )
    for i in range(1, players + 1):
        n = n.check_in(f"P{i}")
    return n


def ended(n: Night) -> Night:
    """The current tour ended, every table even (whists 0): for tests of the draw alone."""
    t = n.drawn[-1]
    for tab in t.tables:
        n = n.with_whists(t.number, tab.number, dict.fromkeys(tab.players, 0))
    return n.end(t.number)
