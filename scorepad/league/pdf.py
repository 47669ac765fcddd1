"""The league's table on paper (fpdf2): the league's standings with each player's rating, then
each club's standings.  Only layout lives here: the figures are the season's
(:mod:`.season`), the sentences the catalogs', the page the club night's (:mod:`scorepad.club.pdf`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from ..club.pdf import PdfDoc
from ..core.i18n import N_, msg
from ..core.numbers import signed, whist_figure
from ..players.rating import MIN_GAMES
from .season import Row, Season, heading, rating_figure


def _table(doc: PdfDoc, s: Season, rows: Sequence[Row]) -> None:
    doc.set_font("DejaVu", "", 10)
    with doc.table(text_align="CENTER", col_widths=(12, 50, 16, 20, 22, 16, 20)) as grid:
        row = grid.row()
        for cell in (
            N_("Place"),
            N_("Player"),
            N_("Nights"),
            N_("Points"),
            N_("Whists"),
            N_("Wins"),
            N_("Rating"),
        ):
            row.cell(doc.say(msg(cell)))
        for r in rows:
            row = grid.row()
            row.cell(str(r.rank))
            row.cell(r.name)
            row.cell(str(r.nights))
            row.cell(whist_figure(r.points))
            row.cell(signed(r.whists))
            row.cell(str(r.wins))
            row.cell(rating_figure(s.ratings.get(r.who)))


def league_pdf(s: Season, *, lang: str = "en", clubs: Mapping[str, str] | None = None) -> bytes:
    """The league's standings, then each club's (a page each)."""
    doc = PdfDoc(lang)
    # Dated by the season's last night, not by the clock: the same season gives the same file.
    last = max((n.date for n in s.nights), default=dt.date(2000, 1, 1))
    doc.set_creation_date(dt.datetime.combine(last, dt.time(), dt.UTC))
    doc.add_page()
    doc.heading(heading(s, None, clubs))
    _table(doc, s, s.league)
    doc.ln(3)
    doc.line_of(
        doc.say(
            msg(
                N_(
                    "Rating: OpenSkill's μ − 3σ over every table played in the league, shown after {n} tables"
                ),
                n=MIN_GAMES,
            )
        ),
        size=9,
    )
    for club in sorted(s.clubs, key=lambda c: (clubs or {}).get(c, c)):
        doc.add_page()
        doc.heading(heading(s, club, clubs))
        _table(doc, s, s.clubs[club])
    return bytes(doc.output())


__all__ = ["league_pdf"]
