"""The classic pulya drawing: with 3 players a circle in three sectors, with 4 a square in four;
each player's sector holds his pulya (inside), gora and whists on each opponent (outside);
entries run as on paper, earlier totals struck through; a closed pulya is marked."""

from __future__ import annotations

import math

import flet as ft
import flet.canvas as cv

from ..numbers import Number, to_text
from ..scoring.sheet import running_entries
from ..store import Stored

LAST = 4  # entries shown per cell; older ones are summed up by the first shown


def _entries(
    values: list[Number], size: float, *, bold: bool = False, color: str | None = None
) -> list[ft.TextSpan]:
    shown = values[-LAST:]
    spans: list[ft.TextSpan] = []
    if len(values) > LAST:
        spans.append(ft.TextSpan("… ", ft.TextStyle(size=size)))
    for k, v in enumerate(shown):
        last = k == len(shown) - 1
        style = ft.TextStyle(
            size=size,
            color=color,
            weight=ft.FontWeight.BOLD if bold and last else None,
            decoration=None if last else ft.TextDecoration.LINE_THROUGH,
        )
        spans.append(ft.TextSpan(to_text(v) + ("" if last else " "), style))
    return spans or [ft.TextSpan("0", ft.TextStyle(size=size, color=ft.Colors.GREY_500))]


def pulya_drawing(stored: Stored, width: float) -> ft.Control:
    names = stored.session.players
    n = len(names)
    target = stored.session.pool_target
    run = running_entries([d.writing for d in stored.scored.deals], n)
    sheet = stored.scored.sheet
    size = max(280.0, min(width, 560.0))
    c = size / 2
    font = 10 if size < 400 else 12
    line = ft.Paint(stroke_width=1.2, style=ft.PaintingStyle.STROKE, color=ft.Colors.BLUE_GREY_700)
    shapes: list[cv.Shape] = []
    # Seat 0 at the bottom, the others clockwise (as the players sit).
    step = 2 * math.pi / n
    centre_angle = [math.pi / 2 + k * step for k in range(n)]
    if n == 3:  # a circle: rings of the centre, pulya, gora and whists
        r_center, r_pool, r_gora, r_whists = 0.12 * size, 0.25 * size, 0.35 * size, 0.47 * size
        for radius in (r_center, r_pool, r_gora, r_whists):
            shapes.append(cv.Circle(c, c, radius, paint=line))
        for k in range(n):
            border = centre_angle[k] + step / 2
            shapes.append(
                cv.Line(
                    c + r_center * math.cos(border),
                    c + r_center * math.sin(border),
                    c + r_whists * math.cos(border),
                    c + r_whists * math.sin(border),
                    paint=line,
                )
            )
    else:  # a square: nested squares cut by the diagonals
        r_center, r_pool, r_gora, r_whists = 0.10 * size, 0.19 * size, 0.27 * size, 0.37 * size
        for h in (r_center, r_pool, r_gora, r_whists):
            shapes.append(cv.Rect(c - h, c - h, 2 * h, 2 * h, paint=line))
        for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            shapes.append(
                cv.Line(
                    c + dx * r_center,
                    c + dy * r_center,
                    c + dx * r_whists,
                    c + dy * r_whists,
                    paint=line,
                )
            )
    shapes.append(
        cv.Text(
            c,
            c,
            str(target),
            ft.TextStyle(size=font + 4, weight=ft.FontWeight.BOLD),
            alignment=ft.Alignment.CENTER,
        )
    )

    def put(
        radius: float, angle: float, spans: list[ft.TextSpan], max_width: float, across: float = 0.0
    ) -> None:
        """Text at ``radius`` along the sector's axis, moved ``across`` it (a square's band)."""
        x = c + radius * math.cos(angle) - across * math.sin(angle)
        y = c + radius * math.sin(angle) + across * math.cos(angle)
        shapes.append(
            cv.Text(
                x,
                y,
                spans=spans,
                alignment=ft.Alignment.CENTER,
                text_align=ft.TextAlign.CENTER,
                max_width=max_width,
            )
        )

    arc = step * 0.8
    for p in range(n):
        a = centre_angle[p]
        closed = sheet.pool[p] >= target
        mid_pool, mid_gora, mid_whists = (
            (r_center + r_pool) / 2,
            (r_pool + r_gora) / 2,
            (r_gora + r_whists) / 2,
        )
        put(
            mid_pool + 2,
            a,
            _entries(run.pool[p], font, bold=True, color=ft.Colors.GREEN_800 if closed else None)
            + (
                [ft.TextSpan(" ✓", ft.TextStyle(size=font, color=ft.Colors.GREEN_800))]
                if closed
                else []
            ),
            max_width=mid_pool * arc,
        )
        put(
            mid_gora,
            a,
            _entries(run.gora[p], font, color=ft.Colors.RED_800),
            max_width=mid_gora * arc,
        )
        others = [q for q in range(n) if q != p]
        for k, q in enumerate(others):
            label = [
                ft.TextSpan(
                    names[q][:1] + ": ", ft.TextStyle(size=font - 1, color=ft.Colors.GREY_700)
                )
            ]
            spans = label + _entries(run.whists[p][q], font - 1)
            if n == 3:
                sub = a - step / 2 + step * (k + 0.5) / len(others)
                put(mid_whists, sub, spans, max_width=mid_whists * step / len(others) * 0.85)
            else:
                # Clockwise along the band: the first opponent on the player's left.
                across = (k - (len(others) - 1) / 2) * mid_whists * 0.62
                put(mid_whists, a, spans, max_width=mid_whists * 0.6, across=-across)
        name_at = r_whists + (font * 0.9 if n == 3 else 0.065 * size)
        put(
            name_at,
            a,
            [ft.TextSpan(names[p], ft.TextStyle(size=font + 1, weight=ft.FontWeight.BOLD))],
            max_width=0.2 * size if n == 4 else size / 2,
        )
    pad = font * 2
    return ft.Container(
        cv.Canvas(shapes=shapes, width=size, height=size + pad), width=size, height=size + pad
    )
