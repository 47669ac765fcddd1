"""Builders of club nights for the club tests."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from scorepad.club.night import Night
from scorepad.club.store import ClubStore


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


# Deals for a table of three (seat numbers are the table's seats, 0 deals first).
SIX = {
    "type": "game",
    "declarer": 1,
    "contract": "6S",
    "calls": ["whist"],
    "tricks": {"1": 6, "2": 3, "0": 1},
}
RASP = {"type": "raspasy", "tricks": {"0": 3, "1": 4, "2": 3}}


def drawn_night(
    club: ClubStore,
    players: int | Sequence[str] = 6,
    *,
    tours: int = 2,
    deals: int | None = 2,
) -> int:
    """A night in a store ("Friday", 2026-12-04) with ``players`` checked in (names, or that
    many named Player 1, Player 2, …) and its first tour drawn: the night's id."""
    nid = club.create_night(
        "Friday", date=datetime.date(2026, 12, 4), tours=tours, deals_per_tour=deals
    )
    names = [f"Player {i}" for i in range(1, players + 1)] if isinstance(players, int) else players
    for name in names:
        club.check_in(nid, name)
    club.draw(nid)
    return nid
