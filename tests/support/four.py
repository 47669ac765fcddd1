"""Four at the table: a deal drawn for three seats, moved onto the three dealt in.

The property tests draw deals for seats 0, 1, 2; at a table of four the dealer sits out, so
before a deal is played its seats are mapped onto those dealt in (``dealt_in``), which keeps
the three-seat strategies for four players.
"""

from __future__ import annotations

from typing import Any

from scorepad.scoring.ledger.seats import dealt_in

_SEAT_FIELDS = ("declarer", "four_aces")
_SEAT_MAPS = ("defence", "tricks", "second_round")


def seated(deal: dict[str, Any], n: int, dealer: int) -> dict[str, Any]:
    """``deal`` (seats 0–2) with its seats moved onto the players dealt in at this table."""
    if n == 3:
        return deal
    seats = dealt_in(n, dealer)
    out = dict(deal)
    for key in _SEAT_FIELDS:
        if isinstance(out.get(key), int):
            out[key] = seats[out[key]]
    for key in _SEAT_MAPS:
        if isinstance(out.get(key), dict):
            out[key] = {seats[int(k)]: v for k, v in out[key].items()}
    contra = out.get("contra")
    if isinstance(contra, dict) and "by" in contra:
        out["contra"] = contra | {"by": seats[contra["by"]]}
    elif isinstance(contra, dict):
        out["contra"] = {seats[int(k)]: v for k, v in contra.items()}
    if out.get("type") == "bete":
        out["dealer"] = seats[out["dealer"]]
    return out
