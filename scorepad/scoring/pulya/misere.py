"""Scoring a misère (мизер): pool when clean, gora per trick taken, never whisted (§6)."""

from __future__ import annotations

from fractions import Fraction

from ...core.i18n import N_, msg, nmsg, whist_count
from ...core.numbers import Number, normal
from .pulya import write_pool_at
from .session import Misere
from .sheet import Writing
from .table import Table


def score_misere(m: Misere, t: Table) -> Writing:
    s = t.settings
    w = Writing(t.players, explain=t.explain)
    taken = m.tricks[m.declarer]
    declarer = t.name(m.declarer)
    seats = [m.declarer]
    share: Number = 1
    if m.shared_with_dealer:
        assert t.sits_out is not None
        seats.append(t.sits_out)
        share = Fraction(1, 2) if s.misere_share == "half" else Fraction(1, 3)
        if w.explain is not None:
            w.explain.append(
                msg(
                    N_(
                        "{declarer} shares the misère with {dealer}, the dealer: each writes {share} of it."
                    ),
                    declarer=declarer,
                    dealer=t.name(t.sits_out),
                    share=share,
                )
            )
    if taken == 0:
        points = normal(s.price_misere * share) if share != 1 else s.price_misere
        for seat in seats:
            name = t.name(seat)
            why = N_("{player} made the misère: {points} into the pulya.")
            write_pool_at(t, w, seat, points, why=why, player=name)
        if s.misere_bonus_whists:
            for other in range(t.players):
                if other not in seats:
                    w.add_whists(m.declarer, other, s.misere_bonus_whists)
                    if w.explain is not None:
                        w.explain.append(
                            msg(
                                N_("{declarer} writes the misère premium: {whists} on {player}."),
                                declarer=declarer,
                                whists=whist_count(s.misere_bonus_whists),
                                player=t.name(other),
                            )
                        )
        return w
    gora = normal(taken * s.misere_trick_penalty * share)
    for seat in seats:
        w.add_gora(seat, gora)
        if w.explain is not None:
            w.explain.append(
                nmsg(
                    "{declarer} took {n} trick on the misère: {gora} into {player}'s gora.",
                    "{declarer} took {n} tricks on the misère: {gora} into {player}'s gora.",
                    taken,
                    declarer=declarer,
                    gora=gora,
                    player=t.name(seat),
                )
            )
    return w
