"""Writing into the pulya, with help (помощь) once a pool is closed (§10.1).

A player writes made contracts into his pool until it reaches the target; past it he helps
an opponent (the highest open pool, tie: the one on his left; or clockwise) and writes
``help_whists`` per point on the helped player.  With nobody left to help, the points come
off his own gora (Kodex §4.1.1, even below zero) or are lost, as the convention says.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ...core.i18n import N_, msg, nmsg, whist_count
from ...core.numbers import Number, normal
from .convention import Settings
from .sheet import Writing
from .table import Table


def write_pool_at(
    t: Table, w: Writing, seat: int, points: Number, *, why: str, **args: Any
) -> None:
    """:func:`write_pool` at the table ``t``: its pools so far, target, convention and names."""
    write_pool(
        w,
        seat,
        points,
        pools=t.pools,
        target=t.target,
        settings=t.settings,
        names=t.names,
        why=why,
        **args,
    )


def write_pool(
    w: Writing,
    seat: int,
    points: Number,
    *,
    pools: Sequence[Number],
    target: int,
    settings: Settings,
    names: Sequence[str],
    why: str,
    **args: Any,
) -> None:
    """Write ``points`` for ``seat``; ``why`` (a msgid with ``{points}``) explains the own entry.

    ``pools`` are the totals before this deal; what this deal already wrote counts too.
    Past the target the points help the others' pulyas, for whists (§6.2, ``pool_help``).

    >>> from scorepad.scoring.pulya.convention import settings_for
    >>> w = Writing(3)
    >>> write_pool(w, 0, 6, pools=[18, 0, 0], target=20, settings=settings_for("sochi"),
    ...            names=["Anna", "Boris", "Vera"], why="{points} into the pulya.")
    >>> w.pool, w.whists[0]
    ([2, 4, 0], [0, 40, 0])
    >>> [m.render() for m in w.explain or ()]
    ['2 into the pulya.', "Anna's pulya is closed: 4 points help Boris, 40 whists on Boris."]
    """
    n = len(names)

    def now(s: int) -> Number:
        return pools[s] + w.pool[s]

    if settings.pool_help == "none":
        w.pool[seat] += points
        if w.explain is not None:
            w.explain.append(msg(why, points=points, **args))
        return
    fits = max(0, min(points, target - now(seat)))
    if fits:
        w.pool[seat] += fits
        if w.explain is not None:
            w.explain.append(msg(why, points=fits, **args))
    rest = points - fits
    if not rest:
        return
    helper = names[seat]
    while rest:
        order = [(seat + k) % n for k in range(1, n)]  # clockwise: the left neighbour first
        open_ = [s for s in order if now(s) < target]
        if not open_:
            break
        if settings.pool_help == "highest":
            best = max(now(s) for s in open_)
            helped = next(s for s in open_ if now(s) == best)
        else:
            helped = open_[0]
        give = min(rest, target - now(helped))
        w.pool[helped] += give
        whists = give * settings.help_whists
        w.add_whists(seat, helped, whists)
        if w.explain is not None:
            w.explain.append(
                nmsg(
                    "{helper}'s pulya is closed: {n} point helps {helped}, {whists} on {helped}.",
                    "{helper}'s pulya is closed: {n} points help {helped}, {whists} on {helped}.",
                    give,
                    helper=helper,
                    helped=names[helped],
                    whists=whist_count(whists),
                )
            )
        rest -= give
    if not rest:
        return
    if settings.help_overflow == "gora_ratio":
        # Piter home rules: a pool point is worth pool/gora points of gora.
        off = normal(Fraction(rest * settings.pool_point_whists, settings.gora_point_whists))
        w.gora[seat] -= off
        if w.explain is not None:
            w.explain.append(
                msg(
                    N_(
                        "Every pulya is closed: {helper} takes {points} × {pool_whists}/{gora_whists} = {gora} off the gora."
                    ),
                    points=rest,
                    helper=helper,
                    pool_whists=settings.pool_point_whists,
                    gora_whists=settings.gora_point_whists,
                    gora=off,
                )
            )
    elif settings.help_overflow == "gora":
        w.gora[seat] -= rest
        if w.explain is not None:
            w.explain.append(
                msg(
                    N_("Every pulya is closed: {points} off {helper}'s gora."),
                    points=rest,
                    helper=helper,
                )
            )
    else:
        if w.explain is not None:
            w.explain.append(
                nmsg(
                    "Every pulya is closed: {helper}'s {n} point is lost.",
                    "Every pulya is closed: {helper}'s {n} points are lost.",
                    rest,
                    helper=helper,
                )
            )
