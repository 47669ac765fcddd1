"""Each player's balance over the deals (flet-charts)."""

from __future__ import annotations

import flet as ft
import flet_charts as fch

from ..i18n import N_
from ..settlement import balances_over_deals
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
        low, high = min(0.0, *values), max(0.0, *values)
        pad = max(10.0, (high - low) * 0.1)
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
            min_y=low - pad,
            max_y=high + pad,
            left_axis=fch.ChartAxis(label_size=44),
            bottom_axis=fch.ChartAxis(label_size=24),
            horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.GREY_300, width=1),
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
