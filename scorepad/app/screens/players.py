"""Players: every stored player's record across the pulkas (scorepad.stats), and a chart of
his money over the pulkas."""

from __future__ import annotations

import flet as ft
import flet_charts as fch

from ...i18n import N_
from ...numbers import whist_figure
from ...report import money_text
from ...scoring.pulya.settlement import minor_digits
from ...stats import LEVELS, PlayerStats, store_stats
from ..frame.nav import nav
from ..frame.shell import Shell, sem
from .chart import _bounds, axis_labels, deal_label_step


def players_screen(shell: Shell) -> ft.Control:
    with shell.lock:
        stats = store_stats(shell.store)
    top: list[ft.Control] = []
    if shell.sid is not None:
        top.append(nav(shell, "nav-players"))
    else:
        top.append(
            sem(
                "back-to-sessions",
                ft.TextButton(
                    shell.t(N_("Sessions")),
                    icon=ft.Icons.ARROW_BACK,
                    on_click=lambda: shell.go("sessions"),
                ),
            )
        )
    top.append(ft.Text(shell.t(N_("Players")), size=20, weight=ft.FontWeight.BOLD))
    if not stats:
        return ft.Column([*top, ft.Text(shell.t(N_("No pulka has a deal yet.")))], spacing=10)
    ordered = sorted(stats.values(), key=lambda s: (-s.pulkas, s.name.casefold()))
    chosen_name = shell.state.player
    chosen = stats.get(chosen_name) if isinstance(chosen_name, str) else None
    if chosen is None:
        chosen = ordered[0]

    def pick(name: str) -> None:
        shell.state.player = name
        shell.show(players_screen)

    chips = ft.Row(
        [
            sem(
                f"player-{k}",
                (ft.FilledButton if s is chosen else ft.OutlinedButton)(
                    s.name, on_click=lambda e, n=s.name: pick(n)
                ),
            )
            for k, s in enumerate(ordered)
        ],
        wrap=True,
        spacing=6,
        run_spacing=6,
    )
    return ft.Column(
        [*top, chips, sem("player-stats", _details(shell, chosen))],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=10,
    )


def _money(shell: Shell, amounts: dict[str, int]) -> str:
    if not amounts:
        return "0"
    return ", ".join(
        money_text(v, minor_digits(c), c, shell.lang) for c, v in sorted(amounts.items())
    )


def _figure(label: str, value: str, ident: str) -> ft.Control:
    return ft.Column(
        [
            ft.Text(label, size=12, color=ft.Colors.ON_SURFACE_VARIANT),
            sem(ident, ft.Text(value, size=16)),
        ],
        spacing=0,
        width=150,
    )


def _details(shell: Shell, s: PlayerStats) -> ft.Control:
    figures = [
        _figure(shell.t(N_("Pulkas played")), str(s.pulkas), "stat-pulkas"),
        _figure(shell.t(N_("Money won")), _money(shell, s.won), "stat-won"),
        _figure(shell.t(N_("Money lost")), _money(shell, s.lost), "stat-lost"),
        _figure(shell.t(N_("Whists written")), whist_figure(s.whists_written), "stat-written"),
        _figure(shell.t(N_("Whists received")), whist_figure(s.whists_received), "stat-received"),
        _figure(shell.t(N_("All-pass tricks")), str(s.all_pass_tricks), "stat-all-pass"),
        _figure(
            shell.t(N_("Misères made / failed")),
            f"{s.miseres_made} / {s.miseres_failed}",
            "stat-miseres",
        ),
    ]
    header = [
        ft.DataColumn(ft.Text(shell.t(N_("Contract")))),
        ft.DataColumn(ft.Text(shell.t(N_("Declared"))), numeric=True),
        ft.DataColumn(ft.Text(shell.t(N_("Made"))), numeric=True),
        ft.DataColumn(ft.Text(shell.t(N_("Failed"))), numeric=True),
    ]
    rows = [
        ft.DataRow(
            [
                ft.DataCell(ft.Text(str(level))),
                ft.DataCell(sem(f"declared-{level}", ft.Text(str(c.declared)))),
                ft.DataCell(sem(f"made-{level}", ft.Text(str(c.made)))),
                ft.DataCell(sem(f"failed-{level}", ft.Text(str(c.failed)))),
            ]
        )
        for level in LEVELS
        if (c := s.contracts.get(level)) is not None
    ]
    parts: list[ft.Control] = [
        ft.Text(s.name, size=18, weight=ft.FontWeight.BOLD),
        ft.Row(figures, wrap=True, spacing=8, run_spacing=8),
    ]
    if rows:
        parts.append(
            ft.Container(ft.DataTable(columns=header, rows=rows, column_spacing=20), width=420)
        )
    else:
        parts.append(ft.Text(shell.t(N_("No contract declared yet."))))
    parts += _money_chart(shell, s)
    return ft.Column(parts, spacing=10)


def _money_chart(shell: Shell, s: PlayerStats) -> list[ft.Control]:
    over = s.money_over_pulkas()
    if over is None or len(over[1]) < 2:
        return []
    currency, totals = over
    digits = minor_digits(currency)
    scale = 10**digits
    values = [t / scale for t in totals]  # a drawing may use floats; the figures stay exact
    low, high, step = _bounds(values, ticks=5)
    width = min(700, max(300, (shell.page.width or 360) - 30))
    every = deal_label_step(len(values), width - 56)
    chart = fch.LineChart(
        data_series=[
            fch.LineChartData(
                points=[fch.LineChartDataPoint(k + 1, v) for k, v in enumerate(values)],
                color=ft.Colors.PRIMARY,
                stroke_width=3,
            )
        ],
        min_x=1,
        max_x=len(values),
        min_y=low,
        max_y=high,
        left_axis=fch.ChartAxis(
            label_size=56,
            labels=[
                fch.ChartAxisLabel(value=v, label=ft.Text(str(v).replace("-", "−"), size=12))
                for v in range(low, high + 1, step)
            ],
        ),
        bottom_axis=fch.ChartAxis(
            label_size=28,
            label_spacing=every,
            labels=axis_labels(len(values), every),
            title=ft.Text(shell.t(N_("Pulka")), size=12),
            title_size=20,
        ),
        horizontal_grid_lines=fch.ChartGridLines(
            color=ft.Colors.OUTLINE_VARIANT, width=1, interval=step
        ),
        width=width,
        height=240,
    )
    return [
        ft.Text(shell.t(N_("Money over the pulkas, {currency}"), currency=currency)),
        sem("player-chart", chart),
    ]
