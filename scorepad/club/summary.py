"""The night in plain text: the seating of a tour and the standings, to paste into a messenger
(and printed by ``scorepad club``).  Every sentence comes from the catalogs."""

from __future__ import annotations

from ..core.i18n import N_, catalog, msg, nmsg
from ..core.numbers import Number, signed, whist_figure
from .draw import DrawReport
from .night import Night
from .standings import Standing, standings


def _who(night: Night, number: int) -> str:
    return f"#{number} {night.name_of(number)}"


def seating_lines(
    night: Night, tour: int, lang: str, report: DrawReport | None = None
) -> list[str]:
    """The seating of ``tour``: each table's players (seat order), the byes, the repeats."""
    cat = catalog(lang)
    t = night.tour(tour)
    out = [
        cat.render(
            msg(
                N_("{night}, tour {tour} of {tours}"),
                night=night.name,
                tour=tour,
                tours=night.tours,
            )
        )
    ]
    for tab in t.tables:
        players = ", ".join(_who(night, n) for n in tab.players)
        out.append(
            cat.render(msg(N_("Table {table}: {players}"), table=tab.number, players=players))
        )
    if t.byes:
        out.append(
            cat.render(msg(N_("Bye: {players}"), players=", ".join(_who(night, n) for n in t.byes)))
        )
    if report is not None:
        if not report.repeats:
            out.append(cat.render(msg(N_("No one meets an opponent again."))))
        for r in report.repeats:
            out.append(
                cat.render(
                    nmsg(
                        "Repeat at table {table}: {first} and {second} met once before",
                        "Repeat at table {table}: {first} and {second} met {n} times before",
                        r.times,
                        table=r.table,
                        first=_who(night, r.first),
                        second=_who(night, r.second),
                    )
                )
            )
    return out


def _points(value: Number) -> str:
    return whist_figure(value)


def standing_line(s: Standing, lang: str) -> str:
    """``1. #3 Anna — 7½ points, +120 whists (T1 3, T2 4½)``."""
    cat = catalog(lang)
    tours = ", ".join(
        cat.render(
            msg(N_("T{tour} bye {points}"), tour=x.tour, points=_points(x.points))
            if x.bye
            else msg(N_("T{tour} {points}"), tour=x.tour, points=_points(x.points))
        )
        for x in s.tours
    )
    line = cat.render(
        msg(
            N_("{rank}. #{number} {name} — {points} points, {whists} whists"),
            rank=s.rank,
            number=s.number,
            name=s.name,
            points=_points(s.points),
            whists=signed(s.whists),
        )
    )
    if tours:
        line += f" ({tours})"
    if s.withdrawn:
        line += " " + cat.render(msg(N_("(withdrawn)")))
    return line


def standings_lines(night: Night, lang: str, *, through: int | None = None) -> list[str]:
    """The standings as a messenger message: the head, then one line a player."""
    cat = catalog(lang)
    rows = standings(night, through=through)
    done = [
        t.number
        for t in night.drawn
        if t.state == "ended" and (through is None or t.number <= through)
    ]
    if done and done[-1] == night.tours:
        head = msg(
            N_("{night}, {date}: final standings"), night=night.name, date=night.date.isoformat()
        )
    elif done:
        head = msg(
            N_("{night}, {date}: standings after tour {tour} of {tours}"),
            night=night.name,
            date=night.date.isoformat(),
            tour=done[-1],
            tours=night.tours,
        )
    else:
        head = msg(
            N_("{night}, {date}: standings, no tour ended yet"),
            night=night.name,
            date=night.date.isoformat(),
        )
    return [cat.render(head), *(standing_line(s, lang) for s in rows)]
