"""Who deals, who is dealt in and who defends, asked of the engine.

The browser drivers enter deals as players do; what the screen then offers (the declarers' row,
the defenders' calls, the pickers) follows the engine's seating, so the drivers ask the engine
for it instead of working the rotation and the sitting out again (issue #34, item 6).
"""

from __future__ import annotations

import dataclasses
from functools import cache

from scorepad.scoring.ledger.families import dealer_of
from scorepad.scoring.ledger.seats import dealt_in
from scorepad.scoring.pulya.score import replay
from scorepad.scoring.pulya.session import Session, parse_session
from scorepad.scoring.pulya.table import Table


@cache
def _empty(players: int) -> Session:
    """A pulya of ``players`` with no deal yet, the first dealer seat 0 (as the app begins)."""
    names = ["Anna", "Boris", "Vera", "Gleb"][:players]
    return parse_session(
        {
            "format": "scorepad-session/1",
            "players": names,
            "convention": "sochi",
            "pool_target": 20,
            "deals": [],
        }
    )


def dealer(players: int, number: int) -> int:
    """The dealer of deal ``number`` (from 1) of a session of ``players`` dealt first by seat 0:
    the engine's rotation, one seat on a deal."""
    return dealer_of(_empty(players), number - 1)


def pulya_table(players: int, number: int) -> Table:
    """The engine's table of a pulya's deal ``number``: its ``active`` seats (dealt in, from the
    dealer's left), who ``sits_out``, and a declarer's ``defenders``."""
    table = replay(_empty(players)).table()
    return dataclasses.replace(table, dealer=dealer(players, number))


def family_defenders(players: int, dealer_seat: int, declarer: int) -> list[int]:
    """The two seats dealt in with ``declarer`` (the bula's, the Prefa's and the pot's seating),
    in the order of the file after him."""
    seats = dealt_in(players, dealer_seat)
    i = seats.index(declarer)
    return [seats[(i + 1) % 3], seats[(i + 2) % 3]]
