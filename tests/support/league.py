"""Club nights played to their end in a real club store, for the league's tests: each deal
written at its table by one player and confirmed by another, each tour ended by the director's
store, as an evening does."""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence
from fractions import Fraction

from scorepad.club.store import ClubStore
from support.club_nights import RASP, SIX

#: A table of three's deals, by seed: a game, a raspasy, a game with another declarer.
DEALS = (SIX, RASP, {**SIX, "declarer": 2, "tricks": {"2": 6, "0": 3, "1": 1}})


def played_night(
    club: ClubStore,
    names: Sequence[str],
    *,
    name: str = "Friday",
    date: datetime.date = datetime.date(2026, 12, 4),
    tours: int = 1,
    deals: int = 2,
    seed: int = 0,
) -> int:
    """A night with ``names`` (a multiple of three), played and ended: the night's id."""
    nid = club.create_night(
        name, date=date, tours=tours, deals_per_tour=deals, seats=3, seed=1000 + seed
    )
    for n in names:
        club.check_in(nid, n)
    for tour in range(1, tours + 1):
        club.draw(nid)
        for tab in club.load(nid).tour(tour).tables:
            a, b, _ = tab.players
            sid = club.session_of(nid, tour, tab.number)
            for k in range(deals):
                deal = DEALS[(seed + k + tab.number) % len(DEALS)]
                stored = club.write_deal(
                    nid, tour, tab.number, deal, by=a, seen=club.store.load(sid).revision
                )
                club.confirm(nid, tour, tab.number, stored.journal.live[-1].deal_id, by=b)
        club.end_tour(nid, tour)
    return nid


def unbalanced(document: str, tour: int = 1, table: int = 1) -> str:
    """A club file whose table ``tour``/``table`` does not add up (one whist moved)."""
    data = json.loads(document)
    tab = next(t for t in data["drawn"][tour - 1]["tables"] if t["number"] == table)
    first, second = list(tab["whists"])[:2]  # the sum stays 0: the deals say otherwise
    tab["whists"][first] = str(Fraction(str(tab["whists"][first])) + 1)
    tab["whists"][second] = str(Fraction(str(tab["whists"][second])) - 1)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
