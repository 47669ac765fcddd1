"""Scoring all-pass (распасы) and the series it starts (§9.2, §8.2, §11).

Gora raspasy: each trick costs the current price (progression), less the amnesty; a player
who took none is rewarded.  Whist raspasy (Rostov): the player with the fewest tricks writes
whists on each partner for every trick the partner took; two at the minimum write half each.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ...core.i18n import N_, msg, nmsg, whist_count
from ...core.numbers import normal
from .pulya import write_pool_at
from .session import Raspasy
from .sheet import Writing
from .table import Table


def multiplier(progression: Sequence[int], in_row: int) -> int:
    """Multiplier of the all-pass that follows ``in_row`` others; the last step repeats.

    >>> [multiplier([1, 2, 3], k) for k in range(5)]
    [1, 2, 3, 3, 3]
    """
    return progression[min(in_row, len(progression) - 1)]


def exit_level(exits: Sequence[int], in_row: int) -> int | None:
    """The lowest contract that ends a series after ``in_row`` all-passes (None: no series).

    >>> exit_level([7, 8], 0), exit_level([7, 8], 1), exit_level([7, 8], 5)
    (None, 7, 8)
    """
    if in_row == 0:
        return None
    return exits[min(in_row - 1, len(exits) - 1)]


def participants(t: Table) -> tuple[int, ...]:
    """Who plays for tricks: the seats dealt in, and the 4-player dealer when the talon is opened."""
    if t.sits_out is not None and t.settings.raspasy_talon == "open":
        return tuple(range(t.players))
    return t.active


def score_raspasy(r: Raspasy, t: Table) -> Writing:
    s = t.settings
    w = Writing(t.players, explain=t.explain)
    price = s.raspasy_trick_price * multiplier(s.raspasy_progression, t.raspasy_in_row)
    if w.explain is not None:
        w.explain.append(
            msg(
                N_("All passed: all-pass no. {k} in a row, {price} a trick."),
                k=t.raspasy_in_row + 1,
                price=price,
            )
        )
    players = participants(t)
    tricks = {seat: r.tricks[seat] for seat in players}
    if s.raspasy_scoring == "gora":
        least = min(tricks.values()) if s.raspasy_amnesty else 0
        if least and w.explain is not None:
            w.explain.append(
                nmsg(
                    "Amnesty: {n} trick off everyone's count.",
                    "Amnesty: {n} tricks off everyone's count.",
                    least,
                )
            )
        for seat in players:
            counted = tricks[seat] - least
            if counted:
                w.add_gora(seat, counted * price)
                if w.explain is not None:
                    w.explain.append(
                        nmsg(
                            "{player} took {n} trick: {n} × {price} = {gora} into the gora.",
                            "{player} took {n} tricks: {n} × {price} = {gora} into the gora.",
                            counted,
                            player=t.name(seat),
                            price=price,
                            gora=counted * price,
                        )
                    )
    else:
        least = min(tricks.values())
        losers = [seat for seat in players if tricks[seat] == least]
        # The amnesty in whists (Kodex fn 46): the least count comes off everyone's first.
        off = least if s.raspasy_amnesty else 0
        if off and w.explain is not None:
            w.explain.append(
                nmsg(
                    "Amnesty: {n} trick off everyone's count.",
                    "Amnesty: {n} tricks off everyone's count.",
                    off,
                )
            )
        net = {seat: n - off for seat, n in tricks.items()}
        for loser in losers:
            for seat in players:
                if seat in losers or not net[seat]:
                    continue
                amount = normal(Fraction(net[seat] * price, len(losers)))
                w.add_whists(loser, seat, amount)
                if w.explain is None:
                    continue
                if len(losers) == 1:
                    text = nmsg(
                        "{player} took the fewest tricks: {other}'s {n} trick × {price} = {whists} on {other}.",
                        "{player} took the fewest tricks: {other}'s {n} tricks × {price} = {whists} on {other}.",
                        net[seat],
                        player=t.name(loser),
                        other=t.name(seat),
                        price=price,
                        whists=whist_count(amount),
                    )
                else:
                    text = nmsg(
                        "{player} shares the fewest tricks: half of {n} trick × {price} = {whists} on {other}.",
                        "{player} shares the fewest tricks: half of {n} tricks × {price} = {whists} on {other}.",
                        net[seat],
                        player=t.name(loser),
                        other=t.name(seat),
                        price=price,
                        whists=whist_count(amount),
                    )
                w.explain.append(text)
    _rewards(w, r, t, price, players)
    return w


def _rewards(w: Writing, r: Raspasy, t: Table, price: int, players: tuple[int, ...]) -> None:
    """A player who took no trick is rewarded (§9.2); the 4-player dealer as the convention says."""
    s = t.settings
    reward = (
        s.raspasy_zero_tricks * price if s.raspasy_zero_pool == "trick" else s.raspasy_zero_pool
    )
    if not reward:
        return
    for seat in range(t.players):
        if r.tricks.get(seat, 0) != 0:
            continue
        if seat == t.sits_out and not s.raspasy_dealer_zero:
            continue
        if seat not in players and seat != t.sits_out:
            continue
        name = t.name(seat)
        if s.raspasy_zero_target == "gora":
            w.add_gora(seat, -reward)
            if w.explain is not None:
                w.explain.append(
                    msg(
                        N_("{player} took no trick: {points} off the gora."),
                        player=name,
                        points=reward,
                    )
                )
        else:
            why = N_("{player} took no trick: {points} into the pulya.")
            write_pool_at(t, w, seat, reward, why=why, player=name)
