"""Each player's balance over the deals (flet-charts)."""

from __future__ import annotations

import math
from collections.abc import Callable

import flet as ft
import flet_charts as fch

from ...core.i18n import N_
from ...core.numbers import Number, whist_figure
from ..frame.nav import nav
from ..frame.shell import Shell, sem

COLORS = [ft.Colors.BLUE, ft.Colors.RED, ft.Colors.GREEN, ft.Colors.ORANGE]
FAMILY_CAPTIONS = {
    "pulya": N_("Balance in whists after each deal"),
    "bula": N_("Result in supe after each deal"),
    "kassa": N_("Result in chips after each deal"),
}


MIN_LABEL_GAP = 36  # px between two deal numbers on the axis: "13" and "14" never touch


def deal_label_step(deals: int, plot_width: float) -> int:
    """Label every k-th deal, so that the labels keep at least MIN_LABEL_GAP apart.

    >>> deal_label_step(14, 300), deal_label_step(40, 300), deal_label_step(5, 300)
    (2, 5, 1)
    """
    slots = max(1, int(plot_width // MIN_LABEL_GAP))
    for k in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
        if math.ceil(deals / k) <= slots:
            return k
    return math.ceil(deals / slots)


def axis_labels(count: int, every: int) -> list[fch.ChartAxisLabel]:
    """Labels at the multiples of ``every`` (where the chart asks for them), and at 1 where it
    stays clear of the first multiple."""
    return [
        fch.ChartAxisLabel(value=k, label=ft.Text(str(k), size=12))
        for k in range(1, count + 1)
        if k % every == 0 or (k == 1 and every >= 5)
    ]


def bounds(values: list[float], *, ticks: int) -> tuple[int, int, int]:
    """Round bounds and a round step, at most ``ticks`` steps: short whole labels, apart."""
    lo, hi = min(0.0, *values), max(0.0, *values)
    span = (hi - lo) or 1.0
    step = next(
        x
        for x in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10**6, 10**9)
        if span / x <= ticks
    )
    low = step * math.floor(lo / step)
    high = step * math.ceil(hi / step)
    if high == low:
        high = low + step
    return low, high, step


def line_chart(
    series: list[fch.LineChartData],
    count: int,
    values: list[float],
    x_title: str,
    y_label: Callable[[int], str],
    width: float,
    height: float,
) -> ft.Control:
    """Lines over ``count`` deals (or nights) numbered from 1, the left axis at round steps
    around ``values``: the pulka's chart and a league player's rating draw alike."""
    low, high, step = bounds(values, ticks=max(2, (int(height) - 40) // 40))
    left = 52  # the left axis' labels: room for "−1000"
    every = deal_label_step(count, width - left)
    chart: ft.Control = fch.LineChart(
        data_series=series,
        min_x=1,
        max_x=max(2, count),
        min_y=low,
        max_y=high,
        left_axis=fch.ChartAxis(
            label_size=left,
            label_spacing=step,
            labels=[
                fch.ChartAxisLabel(value=v, label=ft.Text(y_label(v), size=12))
                for v in range(low, high + 1, step)
            ],
        ),
        bottom_axis=fch.ChartAxis(
            label_size=28,
            label_spacing=every,
            # The chart asks for a label at each multiple of the spacing and at its ends;
            # only the multiples have one, so the last deal never crowds its neighbour.
            labels=axis_labels(max(2, count), every),
            title=ft.Text(x_title, size=12),
            title_size=20,
        ),
        horizontal_grid_lines=fch.ChartGridLines(
            color=ft.Colors.OUTLINE_VARIANT, width=1, interval=step
        ),
        width=width,
        height=height,
    )
    return chart


def chart_screen(shell: Shell) -> ft.Control:
    stored = shell.stored()
    names = stored.session.players
    history: list[tuple[Number, ...]] = stored.scored.results_over_deals()
    caption = FAMILY_CAPTIONS.get(stored.family, N_("Result after each deal"))
    if not history:
        body: ft.Control = ft.Text(shell.t(N_("No deals yet.")))
    else:
        # Points on a drawing may be floats; the numbers themselves stay exact everywhere else.
        values = [float(v) for row in history for v in row]
        width = min(900, max(300, (shell.page.width or 360) - 30))
        height = 300
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
        body = line_chart(
            series, len(history), values, shell.t(N_("Deal")), whist_figure, width, height
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
            ft.Text(shell.t(caption)),
            sem("chart", body),
            legend,
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=10,
    )
