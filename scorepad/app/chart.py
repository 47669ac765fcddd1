"""Each player's balance over the deals (flet-charts)."""

from __future__ import annotations

import math

import flet as ft
import flet_charts as fch

from ..i18n import N_
from ..scoring.settlement import balances_over_deals
from .nav import nav
from .shell import Shell, sem

COLORS = [ft.Colors.BLUE, ft.Colors.RED, ft.Colors.GREEN, ft.Colors.ORANGE]


def chart_screen(shell: Shell) -> ft.Control:
    stored = shell.stored()
    names = stored.session.players
    history = balances_over_deals(
        [d.writing for d in stored.scored.deals], stored.settings, len(names)
    )
    if not history:
        body: ft.Control = ft.Text(shell.t(N_("No deals yet.")))
    else:
        # Points on a drawing may be floats; the numbers themselves stay exact everywhere else.
        values = [float(v) for row in history for v in row]
        # Round bounds and a fixed step, so that every axis label is a short whole number.
        span = max(abs(v) for v in values) or 1.0
        step = next(
            x for x in (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10**9) if span / x <= 4
        )
        low = step * math.floor(min(0.0, *values) / step)
        high = step * math.ceil(max(0.0, *values) / step)
        if high == low:
            high = low + step
        series = [
            fch.LineChartData(
                points=[
                    fch.LineChartDataPoint(k + 1, float(row[p])) for k, row in enumerate(history)
                ],
                color=COLORS[p % len(COLORS)],
                stroke_width=3,
            )
            for p in range(len(names))
        ]
        width = min(900, max(300, (shell.page.width or 360) - 30))
        body = fch.LineChart(
            data_series=series,
            min_x=1,
            max_x=max(2, len(history)),
            min_y=low,
            max_y=high,
            left_axis=fch.ChartAxis(label_size=48, label_spacing=step),
            bottom_axis=fch.ChartAxis(label_size=24, label_spacing=max(1, len(history) // 6)),
            horizontal_grid_lines=fch.ChartGridLines(
                color=ft.Colors.GREY_300, width=1, interval=step
            ),
            width=width,
            height=300,
        )
    legend = ft.Row(
        [
            ft.Row(
                [
                    ft.Container(
                        width=14, height=14, bgcolor=COLORS[p % len(COLORS)], border_radius=7
                    ),
                    ft.Text(name),
                ],
                spacing=4,
            )
            for p, name in enumerate(names)
        ],
        wrap=True,
    )
    return ft.Column(
        [
            nav(shell, "nav-chart"),
            ft.Text(shell.t(N_("Balance in whists after each deal"))),
            sem("chart", body),
            legend,
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=10,
    )
