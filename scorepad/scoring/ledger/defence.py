"""The defence of a deal in the ledger families (bula, kassa, pot): who defends, whose tricks count.

Each family names the roles its way (``follow``/``whist``/``play``, ``pass``/``drop``) but the
checks are one: the defence names the two other players, an invitation pairs one inviter with
the passer he calls in, a deal nobody defends carries no tricks, and the tricks of exactly the
players in play are written.  Refusals are raised as the family's own :class:`DealError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...core.i18n import N_, msg
from ..pulya.legal import DealError


def verify_roles(
    declarer: int,
    seats: Sequence[int],
    defence: Mapping[int, str],
    names: Sequence[str],
    *,
    error: type[DealError],
) -> list[str]:
    """The roles of the two others dealt in (``seats``: every seat that plays the deal), in
    seat order; raise ``error`` unless they are complete.  The players are named by their
    names (a seat's number is the file's, not the table's: issue 38 item 10)."""
    others = [p for p in seats if p != declarer]
    if sorted(defence) != others:
        raise error(
            "defence",
            msg(
                N_("the defence names the two other players, each once: {seats}"),
                seats=", ".join(names[p] for p in others),
            ),
        )
    roles = [defence[p] for p in others]
    if ("invite" in roles) != ("invited" in roles) or roles.count("invite") > 1:
        raise error(
            "defence",
            msg(N_("an invitation needs one player who invites and the partner called in")),
        )
    return roles


def verify_unplayed(tricks: Mapping[int, int] | None, *, error: type[DealError]) -> None:
    """Both defenders passed: the game is not played, so no tricks are written."""
    if tricks is not None:
        raise error(
            "tricks", msg(N_("both defenders passed: the game is not played, write no tricks"))
        )


def verify_tricks(
    tricks: Mapping[int, int] | None,
    playing: Sequence[int],
    *,
    error: type[DealError],
    total: int | None = 10,
) -> Mapping[int, int]:
    """The tricks of exactly the players in ``playing`` (summing to ``total`` unless None)."""
    if tricks is None:
        raise error("tricks", msg(N_("the tricks of every player in play are required")))
    for seat in tricks:
        if seat not in playing:
            raise error(
                f"tricks.{seat}",
                msg(N_("this player does not play this deal: write no tricks for this player")),
            )
    for seat in playing:
        if seat not in tricks:
            raise error(
                f"tricks.{seat}", msg(N_("the tricks of every player in play are required"))
            )
    if total is not None and sum(tricks.values()) != total:
        raise error("tricks", msg(N_("tricks sum to {n}, must be 10"), n=sum(tricks.values())))
    return tricks
