"""Who is dealt in: three players, or four with the dealer sitting out (central-european §1.1,
§2.1, §4.1, §7.1; B11), and the dealer's rotation that decides it.

The dealer passes to the next seat of the file after every written deal, an all-pass redeal
included; a deal may name its dealer, and a name against the rotation is refused.  With four
players the dealer neither plays nor scores the deal, except where a rule names him (the
unlimited pot's dealer stake, B10; Prefa's 25/50 chips, G-Q1).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ...core.i18n import N_, msg
from ..pulya.legal import DealError

# A seat of a session of three or four (a seat past the table is refused by the table).
Seat = Annotated[int, Field(strict=True, ge=0, le=3)]


def dealt_in(n: int, dealer: int) -> list[int]:
    """The seats that play a deal: all three, or the four but the dealer."""
    return [p for p in range(n) if n == 3 or p != dealer]


def verify_dealer(
    given: int | None, dealer: int, names: tuple[str, ...], *, error: type[DealError]
) -> None:
    """A deal's ``dealer``, when given, is the rotation's."""
    if given is not None and given != dealer:
        raise error(
            "dealer",
            msg(N_("the dealer of this deal is {seat}, by the rotation"), seat=names[dealer]),
        )


def verify_player(
    seat: int, n: int, dealer: int, names: tuple[str, ...], field: str, *, error: type[DealError]
) -> None:
    """``seat`` plays this deal: a seat of the table, and not the dealer sitting out."""
    if not 0 <= seat < n:
        raise error(field, msg(N_("no such player")))
    if seat not in dealt_in(n, dealer):
        raise error(
            field,
            msg(N_("{seat} deals and sits out this deal"), seat=names[seat]),
        )
