"""The night on paper (fpdf2): the seating sheet with a QR code per table, each table's
protocol (its deals, who wrote and who confirmed each, the sheet, lines to sign), and the
standings.  Only layout lives here: numbers come from the engine, sentences from the catalogs.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import segno
from fpdf import FPDF

from ..core.i18n import N_, Msg, catalog, msg
from ..core.numbers import signed, whist_figure
from ..report.pulya import deal_title
from ..scoring.pulya.score import Scored
from ..scoring.pulya.session import Deal
from ..scoring.pulya.settlement import balances
from .night import Night
from .standings import standings

#: The bundled DejaVu fonts (Cyrillic and the suit signs), as the app uses them.
FONT_DIRS = (
    Path(__file__).resolve().parents[1] / "_assets" / "fonts",
    Path(__file__).resolve().parents[2] / "assets" / "fonts",
)


@dataclass(frozen=True, slots=True)
class ProtocolDeal:
    """One deal written at a table, by the number said there (a voided one keeps its number
    and its place: the protocol is the night's record, issue #37)."""

    number: int
    deal: Deal
    #: The void's reason (the deal does not count), or None.
    voided: str | None
    state: Msg | None  # provisional, confirmed, disputed (None: voided)
    written_by: int | None
    decided_by: int | None
    #: A disputed deal's rejection: why, in the words of the player who rejected it.
    rejection: str | None = None


@dataclass(frozen=True, slots=True)
class Protocol:
    """One table's protocol: the scored pulya and every deal written, voided ones included."""

    tour: int
    table: int
    players: tuple[int, ...]
    scored: Scored
    deals: tuple[ProtocolDeal, ...]
    #: What happened at the table besides its deals, in order: voids, restores, undos and
    #: redos with who made and decided them, rewrites and the director's corrections.
    record: tuple[Msg, ...] = ()


def _fonts() -> Path:
    for d in FONT_DIRS:
        if (d / "DejaVuSans.ttf").is_file():
            return d
    raise FileNotFoundError("the DejaVu fonts are not bundled")


class PdfDoc(FPDF):
    def __init__(self, lang: str) -> None:
        super().__init__(format="A4")
        self.cat = catalog(lang)
        fonts = _fonts()
        self.add_font("DejaVu", "", str(fonts / "DejaVuSans.ttf"))
        self.add_font("DejaVu", "B", str(fonts / "DejaVuSans-Bold.ttf"))
        self.set_auto_page_break(auto=True, margin=15)

    def say(self, m: Msg) -> str:
        return self.cat.render(m)

    def heading(self, m: Msg, size: int = 16) -> None:
        self.set_font("DejaVu", "B", size)
        self.multi_cell(0, size * 0.55, self.say(m), align="L", new_x="LMARGIN", new_y="NEXT")
        self.ln(2)

    def line_of(self, text: str, size: int = 11, bold: bool = False) -> None:
        self.set_font("DejaVu", "B" if bold else "", size)
        self.multi_cell(0, size * 0.5, text, align="L", new_x="LMARGIN", new_y="NEXT")


def _qr_png(url: str) -> io.BytesIO:
    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(out, kind="png", scale=6, border=2)
    out.seek(0)
    return out


def _who(night: Night, n: int) -> str:
    return f"#{n} {night.name_of(n)}"


def seating_page(
    doc: PdfDoc,
    night: Night,
    tour: int,
    join_url: Callable[[int, int], str] | None,
    pin: Callable[[int, int], str | None] | None = None,
) -> None:
    t = night.tour(tour)
    doc.add_page()
    doc.heading(
        msg(N_("{night}, tour {tour} of {tours}"), night=night.name, tour=tour, tours=night.tours)
    )
    qr = 38.0
    for tab in t.tables:
        if doc.get_y() + qr + 6 > doc.h - doc.b_margin:
            doc.add_page()
        top = doc.get_y()
        if join_url is not None:
            url = join_url(tour, tab.number)
            doc.image(_qr_png(url), x=doc.w - doc.r_margin - qr, y=top, w=qr, h=qr)
        doc.line_of(doc.say(msg(N_("Table {table}"), table=tab.number)), size=14, bold=True)
        for n in tab.players:
            doc.line_of(_who(night, n), size=12)
        if join_url is not None:
            doc.set_font("DejaVu", "", 8)
            doc.cell(0, 5, join_url(tour, tab.number), new_x="LMARGIN", new_y="NEXT")
        code = pin(tour, tab.number) if pin is not None else None
        if code is not None:
            doc.line_of(doc.say(msg(N_("Table PIN (needed to write): {pin}"), pin=code)), size=12)
        doc.set_y(max(doc.get_y(), top + (qr if join_url else 0)) + 4)
    if t.byes:
        doc.line_of(
            doc.say(msg(N_("Bye: {players}"), players=", ".join(_who(night, n) for n in t.byes)))
        )


def protocol_page(doc: PdfDoc, night: Night, p: Protocol) -> None:
    doc.add_page()
    doc.heading(msg(N_("Tour {tour}, table {table}: protocol"), tour=p.tour, table=p.table))
    names = list(p.scored.session.players)
    doc.line_of(", ".join(_who(night, n) for n in p.players))
    doc.ln(2)
    for d in p.deals:
        title = doc.say(deal_title(d.deal, names))
        if d.voided is not None:
            who = doc.say(msg(N_("voided ({reason}): it does not count"), reason=d.voided))
        else:
            assert d.state is not None
            # A disputed deal says who rejected it and why (issue #37); any other, who decided.
            who = doc.say(
                msg(
                    N_("{state}; written by {writer}, decided by {decider}")
                    if d.rejection is None
                    else N_("{state}; written by {writer}, rejected by {decider}: {reason}"),
                    state=d.state,
                    writer=f"#{d.written_by}" if d.written_by else "—",
                    decider=f"#{d.decided_by}" if d.decided_by else "—",
                    reason=d.rejection,
                )
            )
        doc.line_of(f"{d.number}. {title} — {who}", size=10)
    if p.record:
        doc.ln(2)
        doc.line_of(doc.say(msg(N_("What happened at the table:"))), size=10, bold=True)
        for line in p.record:
            doc.line_of(f"• {doc.say(line)}", size=9)
    doc.ln(3)
    sheet = p.scored.sheet
    cat = doc.cat
    head = [cat.gettext("Player"), cat.gettext("Pulya"), cat.gettext("Gora")]
    head += [cat.render_args("on {player}", player=n) for n in names]
    head.append(doc.say(msg(N_("Whists"))))
    got = balances(sheet, p.scored.settings)
    doc.set_font("DejaVu", "", 9)
    with doc.table(text_align="CENTER") as grid:
        row = grid.row()
        for cell in head:
            row.cell(cell)
        for s, name in enumerate(names):
            row = grid.row()
            row.cell(name)
            row.cell(whist_figure(sheet.pool[s]))
            row.cell(whist_figure(sheet.gora[s]))
            for q in range(len(names)):
                row.cell("—" if q == s else whist_figure(sheet.whists[s][q]))
            row.cell(signed(got[s]))
    doc.ln(8)
    doc.line_of(doc.say(msg(N_("Signed off:"))), bold=True)
    for name in names:
        doc.ln(6)
        doc.line_of(f"{name}: ______________________________")


def standings_page(doc: PdfDoc, night: Night) -> None:
    from .summary import standings_lines

    doc.add_page()
    doc.heading(Msg("{t}", {"t": standings_lines(night, doc.cat.lang)[0]}))
    rows = standings(night)
    tours = [t.number for t in night.drawn]
    doc.set_font("DejaVu", "", 10)
    with doc.table(text_align="CENTER") as grid:
        row = grid.row()
        for cell in [
            doc.say(msg(N_("Place"))),
            doc.say(msg(N_("Player"))),
            doc.say(msg(N_("Points"))),
            doc.say(msg(N_("Whists"))),
            *(doc.say(msg(N_("T{tour}"), tour=t)) for t in tours),
        ]:
            row.cell(cell)
        for s in rows:
            row = grid.row()
            row.cell(str(s.rank))
            row.cell(f"#{s.number} {s.name}")
            row.cell(whist_figure(s.points))
            row.cell(signed(s.whists))
            by_tour = {x.tour: x for x in s.tours}
            for t in tours:
                x = by_tour.get(t)
                row.cell("" if x is None else whist_figure(x.points) + ("*" if x.bye else ""))
    if any(x.bye for s in rows for x in s.tours):
        doc.ln(2)
        doc.line_of(doc.say(msg(N_("* a bye: an average result"))), size=9)
    # The registry's changes: who came late and who withdrew, and when (issue #37).
    for p in night.players:
        if p.first_tour > 1:
            doc.line_of(
                doc.say(
                    msg(
                        N_("#{number} {name} played from tour {tour}"),
                        number=p.number,
                        name=p.name,
                        tour=p.first_tour,
                    )
                ),
                size=9,
            )
        if p.last_tour is not None:
            doc.line_of(
                doc.say(
                    msg(
                        N_("#{number} {name} withdrew after tour {tour}"),
                        number=p.number,
                        name=p.name,
                        tour=p.last_tour,
                    )
                ),
                size=9,
            )


def night_pdf(
    night: Night,
    protocols: Sequence[Protocol],
    *,
    lang: str = "en",
    tour: int | None = None,
    join_url: Callable[[int, int], str] | None = None,
    pin: Callable[[int, int], str | None] | None = None,
) -> bytes:
    """The seating sheet of ``tour`` (the current one), every protocol given, the standings."""
    doc = PdfDoc(lang)
    # Dated by the night, not by the clock: the same night gives the same file.
    doc.set_creation_date(dt.datetime.combine(night.date, dt.time(), dt.UTC))
    current = tour or (night.current.number if night.current else None)
    if current is not None:
        seating_page(doc, night, current, join_url, pin)
    for p in protocols:
        protocol_page(doc, night, p)
    standings_page(doc, night)
    return bytes(doc.output())
