"""What a club publishes to its league: one ended club night, as a ``scorepad-club/1`` document.

This is the contract between the club's side (the outbox, ``scorepad league publish``) and the
league's (the store that takes a night, the season that reads them).  The document is the club
file itself (:func:`scorepad.club.file.dump_night`), so the league reads and checks a night with
the same code as an import does, the night's and the players' stable uids included: the night's
uid names it across versions, a player's uid is what a league player is linked to.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from ..scoring.pulya.session import Uid

#: A league's own id for a club (a uid it issued when the club joined).
ClubId = Uid


class PublishedNight(BaseModel):
    """One version of one club's night as the league holds it.

    ``version`` counts from 1; a director's later correction, published again, is the next
    version with ``change`` saying what changed (the earlier version stays on record).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    club: ClubId
    night: Uid  # the club night's own uid (Night.uid)
    version: Annotated[int, Field(ge=1)]
    document: str  # the scorepad-club/1 JSON text, byte for byte as the club sent it
    digest: str  # SHA-256 of ``document``: the same night sent twice is the same digest
    published_at: str  # ISO 8601, UTC, the league's clock
    change: str | None = None  # for version > 1: the club's words for what changed
