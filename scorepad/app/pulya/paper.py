"""The pulya as it is drawn on paper: with 3 players a circle in three sectors, with 4 a square
in four.  Each player's sector runs, from the centre outwards, as on paper: his gora nearest
the centre, then his pulya, then his whists on the outside, one column per opponent.  Entries
run as on paper (earlier totals struck through); a closed pulya is marked.  A tap on a cell opens
its whole history: every total, the deal that wrote it, the old ones struck through.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal, TypeVar

import flet as ft
import flet.canvas as cv

from ...core.numbers import Number, whist_figure
from ...scoring.pulya.sheet import Writing, running_entries
from ...store import PulyaStored

T = TypeVar("T")

LAST = 3  # entries shown per cell; a tap shows them all
MIN_FONT = 12  # px: the smallest text on the drawing, even at 360 px wide

Kind = Literal["pool", "gora", "whists"]


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of the sheet: ``kind`` of ``player`` (and, for whists, on ``other``)."""

    kind: Kind
    player: int
    other: int | None = None


@dataclass(frozen=True, slots=True)
class CellEntry:
    deal: int  # the deal's number as the player sees it (from 1)
    change: Number
    total: Number


def cell_history(
    writings: list[Writing], cell: Cell, numbers: list[int] | None = None
) -> list[CellEntry]:
    """Every total the cell took, with the deal that wrote it (the paper's struck-through row).

    ``numbers``: each live deal's number as said at the table (a voided deal keeps its own).
    """
    out: list[CellEntry] = []
    total: Number = 0
    for k, w in enumerate(writings):
        if cell.kind == "pool":
            change = w.pool[cell.player]
        elif cell.kind == "gora":
            change = w.gora[cell.player]
        else:
            assert cell.other is not None
            change = w.entries.get((cell.player, cell.other), 0)
        if change:
            total += change
            out.append(CellEntry(numbers[k] if numbers else k + 1, change, total))
    return out


DIGIT = 0.64  # a figure's width in DejaVu Sans, in ems (the space and "…" are narrower)


def _fits(text: str, size: float) -> float:
    return len(text) * DIGIT * size


def _entries(
    values: list[Number],
    size: float,
    width: float,
    *,
    bold: bool = False,
    color: str | None = None,
    extra: str = "",
) -> list[ft.TextSpan]:
    """The latest totals that fit in ``width`` on one line, old ones struck through, as on
    paper; "…" says there are more (a tap on the cell shows them all)."""
    texts = [whist_figure(v) for v in values]
    shown = texts[-LAST:] if texts else []
    while (
        len(shown) > 1
        and _fits(("… " if len(shown) < len(texts) else "") + " ".join(shown) + extra, size) > width
    ):
        shown = shown[1:]
    spans: list[ft.TextSpan] = []
    if len(shown) < len(texts):
        spans.append(ft.TextSpan("… ", ft.TextStyle(size=size, color=ft.Colors.OUTLINE)))
    for k, text in enumerate(shown):
        last = k == len(shown) - 1
        style = ft.TextStyle(
            size=size,
            color=color if last else ft.Colors.OUTLINE,
            weight=ft.FontWeight.BOLD if bold and last else None,
            decoration=None if last else ft.TextDecoration.LINE_THROUGH,
        )
        spans.append(ft.TextSpan(text + ("" if last else " "), style))
    return spans  # nothing written: the cell is blank, as on paper


@dataclass(frozen=True, slots=True)
class _Rings:
    centre: float
    gora: float
    pool: float
    whists: float


def _made(key: str, drawn_for: Any, make: Callable[[], T]) -> T:
    return make()


def pulya_drawing(
    stored: PulyaStored,
    width: float,
    on_cell: Callable[[Cell], None] | None = None,
    *,
    keep: Callable[[str, Any, Callable[[], Any]], Any] = _made,
) -> ft.Control:
    """The pulya drawn on paper.  ``keep``: a part drawn for the same things before, the same
    object (Shell.reuse: a live redraw's diff skips it); by default every part is new."""
    names = stored.session.players
    paper = _Paper(len(names), width)
    size, height, font, c, cy = paper.size, paper.height, paper.font, paper.c, paper.cy
    shapes = [*keep("pulya-grid", (paper.n, size, paper.draw, cy, paper.rings), paper.grid)]
    # A club night that plays a fixed number of deals has no pool target: its session's
    # never-reached placeholder is not written in the centre (issue #37).
    from ...club.store import NO_POOL

    target = stored.session.pool_target
    if target < NO_POOL:
        shapes.append(
            keep(
                "pulya-target",
                (c, cy, target, font),
                lambda: cv.Text(
                    c,
                    cy,
                    str(target),
                    ft.TextStyle(size=font + 4, weight=ft.FontWeight.BOLD),
                    alignment=ft.Alignment.CENTER,
                ),
            )
        )
    _write_entries(paper, stored, shapes, keep)
    marker, *labels = keep(
        "pulya-names",
        (tuple(names), size, font, paper.n, paper.rings, cy, paper.side),
        lambda: paper.outside(names),
    )
    canvas = cv.Canvas(shapes=shapes, width=size, height=height)
    picture: ft.Control = ft.Container(canvas, width=size, height=height)
    if on_cell is not None:
        picture = ft.GestureDetector(
            content=picture,
            on_tap_down=partial(_tapped, paper, on_cell),
            mouse_cursor=ft.MouseCursor.CLICK,
            # a tap needs its point; the table view offers every cell to a screen reader
            exclude_from_semantics=True,
        )
    return ft.Stack([marker, picture, *labels], width=size, height=height)


def _tapped(
    paper: _Paper, on_cell: Callable[[Cell], None], e: ft.TapEvent[ft.GestureDetector]
) -> None:
    if e.local_position is None:
        return
    cell = paper.hit(e.local_position.x, e.local_position.y)
    if cell is not None:
        on_cell(cell)


class _Paper:
    """The drawing's geometry for ``n`` players on a page ``width`` wide: its size, its centre,
    the rings and each seat's sector (seat 0 at the bottom, the others clockwise, as the
    players sit).  A plain class: Flet walks the dataclasses its controls hold."""

    def __init__(self, n: int, width: float) -> None:
        self.n = n
        self.size = size = max(300.0, min(width, 640.0))
        self.c = size / 2
        self.font = font = max(MIN_FONT, round(size / 30))
        self.name_band = font * 2.6  # room for the names, outside the drawing: never cut by it
        # The square's side players are named beside their own sides, along them: the square is
        # drawn that much narrower (a circle's names all go above and below it).
        self.side = self.name_band if n == 4 else 0.0
        self.draw = draw = size - 2 * self.side  # the drawing proper
        self.cy = self.c - self.side + self.name_band  # its centre, below the top name band
        self.height = draw + 2 * self.name_band
        self.step = 2 * math.pi / n
        self.centre_angle = [math.pi / 2 + k * self.step for k in range(n)]
        if n == 3:
            self.rings = _Rings(0.11 * draw, 0.24 * draw, 0.35 * draw, 0.5 * draw - 1)
        else:
            self.rings = _Rings(0.09 * draw, 0.2 * draw, 0.31 * draw, 0.5 * draw - 1)

    def at(self, radius: float, angle: float, across: float = 0.0) -> tuple[float, float]:
        return (
            self.c + radius * math.cos(angle) - across * math.sin(angle),
            self.cy + radius * math.sin(angle) + across * math.cos(angle),
        )

    def grid(self) -> list[cv.Shape]:
        n, c, cy, rings, at = self.n, self.c, self.cy, self.rings, self.at
        line = ft.Paint(stroke_width=1.2, style=ft.PaintingStyle.STROKE, color=ft.Colors.OUTLINE)
        thin = ft.Paint(stroke_width=0.8, style=ft.PaintingStyle.STROKE, color=ft.Colors.OUTLINE)
        shapes: list[cv.Shape] = []
        if n == 3:  # a circle: the centre, gora, pulya and whists rings
            for radius in (rings.centre, rings.gora, rings.pool, rings.whists):
                shapes.append(cv.Circle(c, cy, radius, paint=line))
            for k in range(n):
                border = self.centre_angle[k] + self.step / 2
                shapes.append(
                    cv.Line(*at(rings.centre, border), *at(rings.whists, border), paint=line)
                )
                # the whists band of a sector: one column per opponent
                mid = self.centre_angle[k]
                shapes.append(cv.Line(*at(rings.pool, mid), *at(rings.whists, mid), paint=thin))
        else:  # a square: nested squares cut by the diagonals
            for h in (rings.centre, rings.gora, rings.pool, rings.whists):
                shapes.append(cv.Rect(c - h, cy - h, 2 * h, 2 * h, paint=line))
            for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                shapes.append(
                    cv.Line(
                        c + dx * rings.centre,
                        cy + dy * rings.centre,
                        c + dx * rings.whists,
                        cy + dy * rings.whists,
                        paint=line,
                    )
                )
            for k in range(n):
                a = self.centre_angle[k]
                for j in (-1, 1):  # three columns in the band, one per opponent, in equal thirds
                    shapes.append(
                        cv.Line(
                            *at(rings.pool, a, j * rings.pool / 3),
                            *at(rings.whists, a, j * rings.whists / 3),
                            paint=thin,
                        )
                    )
        return shapes

    def outside(self, names: list[str]) -> list[ft.Control]:
        """Names outside the drawing, as text controls (a screen reader reads them, a test
        measures them): the one at the bottom below it, the others above it, each inside the
        canvas; a long name wraps, it is never cut.  The marker of the drawing proper first."""
        n, size, side, rings, font = self.n, self.size, self.side, self.rings, self.font
        labels: list[ft.Control] = []
        for p in range(n):
            a = self.centre_angle[p]
            text = ft.Text(
                names[p],
                size=font + 1,
                weight=ft.FontWeight.BOLD,
                text_align=ft.TextAlign.CENTER,
            )
            named = ft.Semantics(identifier=f"pulya-name-{p}", content=text)
            if n == 4 and p in (1, 3):
                # Beside the left or right side, along it (read facing the square), centred on it.
                length = 2 * rings.whists
                left = p == 1
                labels.append(
                    ft.Container(
                        ft.Container(
                            named,
                            width=length,
                            height=side,
                            alignment=ft.Alignment.CENTER,
                            rotate=ft.Rotate(-math.pi / 2 if left else math.pi / 2),
                        ),
                        left=side / 2 - length / 2 if left else size - side / 2 - length / 2,
                        top=self.cy - side / 2,
                        width=length,
                        height=side,
                    )
                )
                continue
            x, _y = self.at(rings.whists + self.name_band / 2, a)
            box = size / 2 - 8 if n == 3 else self.draw * 0.8
            # the player at the bottom below the drawing, the others above it, over their side
            x = min(max(x, box / 2), size - box / 2)
            top = p != 0
            labels.append(
                ft.Container(
                    named,
                    left=x - box / 2,
                    width=box,
                    top=0 if top else None,
                    bottom=0 if not top else None,
                    height=self.name_band,
                    alignment=ft.Alignment.BOTTOM_CENTER if top else ft.Alignment.TOP_CENTER,
                )
            )
        # the drawing proper, for a test to measure the names against (under the picture: no taps)
        marker = ft.Container(
            ft.Semantics(identifier="pulya-circle", content=ft.Container()),
            left=self.c - rings.whists,
            top=self.cy - rings.whists,
            width=2 * rings.whists,
            height=2 * rings.whists,
        )
        return [marker, *labels]

    def hit(self, x: float, y: float) -> Cell | None:
        """The cell under a tap at canvas point (x, y)."""
        n, rings, centre_angle = self.n, self.rings, self.centre_angle
        dx, dy = x - self.c, y - self.cy
        r = math.hypot(dx, dy) if n == 3 else max(abs(dx), abs(dy))
        if r < rings.centre or r > rings.whists:
            return None
        angle = math.atan2(dy, dx)
        # sector: the one whose axis is nearest the tap
        offsets = [(angle - ca + math.pi) % (2 * math.pi) - math.pi for ca in centre_angle]
        p = min(range(n), key=lambda k: abs(offsets[k]))
        if r < rings.gora:
            return Cell("gora", p)
        if r < rings.pool:
            return Cell("pool", p)
        others = [(p + k) % n for k in range(1, n)]
        if n == 3:
            k = 0 if offsets[p] > 0 else 1
        else:
            across = -dx * math.sin(centre_angle[p]) + dy * math.cos(centre_angle[p])
            share = across / r  # -1 (the player's right) to 1 (his left)
            k = 0 if share > 1 / 3 else 1 if share >= -1 / 3 else 2
        return Cell("whists", p, others[k])


def _put(
    paper: _Paper,
    shapes: list[Any],
    keep: Callable[[str, Any, Callable[[], Any]], Any],
    radius: float,
    angle: float,
    spans: list[ft.TextSpan],
    max_width: float,
    across: float = 0.0,
) -> None:
    """Text at ``radius`` along the sector's axis, moved ``across`` it (a square's band)."""
    if not spans:
        return
    x, y = paper.at(radius, angle, across)
    shapes.append(
        keep(
            f"pulya-text-{len(shapes)}",
            (x, y, max_width, [(s.text, s.style) for s in spans]),
            lambda: cv.Text(
                x,
                y,
                spans=spans,
                alignment=ft.Alignment.CENTER,
                text_align=ft.TextAlign.CENTER,
                max_width=max_width,
            ),
        )
    )


def _write_entries(
    paper: _Paper,
    stored: PulyaStored,
    shapes: list[Any],
    keep: Callable[[str, Any, Callable[[], Any]], Any],
) -> None:
    """Each player's running entries in his sector: gora, pulya (✓ once closed), and the
    whists he wrote on each opponent, each in its column."""
    names = stored.session.players
    n, font, rings, step = paper.n, paper.font, paper.rings, paper.step
    target = stored.session.pool_target
    run = running_entries([d.writing for d in stored.scored.deals], n)
    sheet = stored.scored.sheet

    put = partial(_put, paper, shapes, keep)
    arc = step * 0.75
    mid_gora = (rings.centre + rings.gora) / 2
    mid_pool = (rings.gora + rings.pool) / 2
    mid_whists = (rings.pool + rings.whists) / 2
    for p in range(n):
        a = paper.centre_angle[p]
        closed = sheet.pool[p] >= target
        # How wide a line may be: along the ring in a circle and in the square's top and
        # bottom sides; across the band (its depth) in the square's left and right sides.
        upright = n == 4 and abs(math.cos(a)) > 0.5
        gora_width = (rings.gora - rings.centre) * 0.9 if upright else mid_gora * arc
        pool_width = (rings.pool - rings.gora) * 0.9 if upright else mid_pool * arc
        if n == 3:
            whists_width = mid_whists * step / (n - 1) * 0.8
        elif upright:
            whists_width = (rings.whists - rings.pool) * 0.9
        else:
            whists_width = mid_whists * 0.6
        put(
            mid_gora,
            a,
            _entries(run.gora[p], font, gora_width, color=ft.Colors.RED_800),
            max_width=gora_width,
        )
        mark = " ✓" if closed else ""
        pool_spans = _entries(
            run.pool[p],
            font,
            pool_width,
            bold=True,
            color=ft.Colors.GREEN_800 if closed else None,
            extra=mark,
        )
        if closed:
            pool_spans.append(ft.TextSpan(mark, ft.TextStyle(size=font, color=ft.Colors.GREEN_800)))
        put(mid_pool, a, pool_spans, max_width=pool_width + font)
        others = [(p + k) % n for k in range(1, n)]  # clockwise: the left neighbour first
        for k, q in enumerate(others):
            label = ft.TextSpan(
                names[q] + "\n",
                ft.TextStyle(size=MIN_FONT, color=ft.Colors.ON_SURFACE_VARIANT),
            )
            spans = [label, *_entries(run.whists[p][q], font, whists_width)]
            if n == 3:
                # The left neighbour's column on the player's left as he faces the centre.
                sub = a + step / 2 - step * (k + 0.5) / len(others)
                put(mid_whists, sub, spans, max_width=whists_width)
            else:
                # the band's thirds at mid height: the left neighbour's on the player's left
                across = (1 - k) * mid_whists * 2 / 3
                put(mid_whists, a, spans, max_width=whists_width, across=across)
