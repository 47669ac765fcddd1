"""Players: the directory and every player's record across the evenings, per family (the pulya,
the bula, Prefa, the pot games), with his rating, his money over the evenings, the contracts he
made by level, and who owes whom; the host renames or merges entries (with a reason, undoable).

Every figure comes from :mod:`scorepad.players` (the sessions' records), never from a view.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft
import flet_charts as fch

from ...core.i18n import N_, nmsg
from ...core.numbers import whist_figure
from ...players.rating import MIN_GAMES, ratings
from ...players.rows import csv_text, stats_rows
from ...players.season import Debt, Settled, debts, owes, season_table, settled_in
from ...players.stats import FamilyStats, Played, chosen, family_stats, played
from ...report.pulya import money_text
from ...scoring.pulya.settlement import minor_digits
from ...store.directory import Season
from ..frame.shell import Shell, sem
from ..session import Refused
from .chart import axis_labels, bounds, deal_label_step

FAMILY_LABELS = {
    "pulya": N_("Pulya"),
    "bula": N_("Bula"),
    "kassa": N_("Prefa"),
    "pot": N_("Pot games"),
    "direct": N_("Direct games"),
}


def players_screen(shell: Shell) -> ft.Control:
    with shell.session.locked() as store:  # one state of the directory
        rows = played(store)
        names = {e.id: e.name for e in store.directory()}
        settled = settled_in(store)
        seasons = store.seasons()
    season = next((s for s in seasons if s.id == shell.state.player_season), None)
    if season is not None:  # its period and its group: the tables where every seat is a member
        rows = chosen(rows, since=season.since, until=season.until, group=season.players)
    owed = debts(rows, settled, since=season.since if season else None)
    stats = family_stats(rows)
    # Reached from the list only (it is not in an open game's navigation, so no bar is drawn
    # under it): the way back is always here, also once a game was open before (the phone's
    # installed app has no browser Back to leave a screen by).
    top: list[ft.Control] = [
        sem(
            "back-to-sessions",
            ft.TextButton(
                shell.t(N_("Games")),
                icon=ft.Icons.ARROW_BACK,
                on_click=lambda: shell.go("sessions"),
            ),
        )
    ]
    top.append(ft.Text(shell.t(N_("Players")), size=20, weight=ft.FontWeight.BOLD))
    if seasons:
        top.append(_season_choice(shell, seasons, season))
    if shell.message:
        top.append(sem("message", ft.Text(shell.message, color=ft.Colors.ERROR)))
    if season is not None:
        top += _standings(shell, season, rows, settled, names)
    if not stats:
        return ft.Column([*top, ft.Text(shell.t(N_("No game has a deal yet.")))], spacing=10)
    families = [f for f in FAMILY_LABELS if any(k[1] == f for k in stats)]
    family = shell.state.player_family if shell.state.player_family in families else families[0]
    mine = {pid: s for (pid, f), s in stats.items() if f == family}
    ordered = sorted(mine.values(), key=lambda s: (-s.games, names.get(s.player, "").casefold()))
    picked = next((s for s in ordered if names.get(s.player) == shell.state.player), ordered[0])

    parts: list[ft.Control] = [*top]
    if len(families) > 1:
        parts.append(
            ft.Row(
                [
                    sem(
                        f"family-{f}",
                        (ft.FilledTonalButton if f == family else ft.TextButton)(
                            shell.t(FAMILY_LABELS[f]),
                            on_click=lambda e, f=f: _pick_family(shell, f),
                        ),
                    )
                    for f in families
                ],
                wrap=True,
                spacing=4,
            )
        )
    parts.append(
        ft.Row(
            [
                sem(
                    f"player-{k}",
                    (ft.FilledButton if s is picked else ft.OutlinedButton)(
                        names.get(s.player, "?"),
                        on_click=lambda e, pid=s.player: _pick(shell, names.get(pid, "")),
                    ),
                )
                for k, s in enumerate(ordered)
            ],
            wrap=True,
            spacing=6,
            run_spacing=6,
        )
    )
    rated = ratings(chosen(rows, family=family)).get((picked.player, family))
    parts.append(sem("player-stats", _details(shell, picked, names, rated)))
    parts += _debts(shell, picked.player, names, owed)
    parts.append(_tools(shell, picked.player, names, season))
    return ft.Column(parts, scroll=ft.ScrollMode.AUTO, expand=True, spacing=10)


def _pick(shell: Shell, name: str) -> None:
    shell.state.player = name
    shell.show(players_screen)


def _pick_family(shell: Shell, family: str) -> None:
    shell.state.player_family = family
    shell.show(players_screen)


def _season_choice(shell: Shell, seasons: list[Season], chosen_: Season | None) -> ft.Control:
    """Every evening, or one season: its period and its group of players."""

    def pick(sid: int | None) -> None:
        shell.state.player_season = sid
        shell.show(players_screen)

    options: list[tuple[str, int | None, str]] = [
        ("season-all", None, shell.t(N_("Every evening")))
    ]
    options += [(f"season-{s.id}", s.id, s.name) for s in seasons]
    picked = chosen_.id if chosen_ else None
    return ft.Row(
        [
            sem(
                ident,
                (ft.FilledTonalButton if sid == picked else ft.TextButton)(
                    label, on_click=lambda e, sid=sid: pick(sid)
                ),
            )
            for ident, sid, label in options
        ],
        wrap=True,
        spacing=4,
    )


def _standings(
    shell: Shell, season: Season, rows: list[Played], settled: list[Settled], names: dict[int, str]
) -> list[ft.Control]:
    """The season's standings by money, by rating and by games played (``scorepad season``)."""
    table = season_table(
        rows, since=season.since, until=season.until, group=season.players, settled=settled
    )
    out: list[ft.Control] = [
        sem(
            "season-title",
            ft.Text(
                shell.t(
                    N_("{name}: {since} to {until}"),
                    name=season.name,
                    since=season.since,
                    until=season.until,
                ),
                weight=ft.FontWeight.BOLD,
            ),
        )
    ]
    for key, title, ordered in (
        ("money", N_("By money"), table.by_money),
        ("rating", N_("By rating"), table.by_rating),
        ("games", N_("By games played"), table.by_games),
    ):
        lines = []
        for k, r in enumerate(ordered):
            if key == "money":
                figure = _money(shell, r.money)
            elif key == "rating":
                figure = (
                    _rating_figure(r.rating.ordinal)
                    if r.rating and r.rating.shown
                    else shell.t(N_("not yet rated"))
                )
            else:
                figure = shell.render(nmsg("{n} game", "{n} games", r.games))
            lines.append(
                sem(
                    f"standing-{key}-{k}",
                    ft.Text(f"{k + 1}. {names.get(r.player, '?')} — {figure}", size=13),
                )
            )
        out.append(
            ft.Column(
                [ft.Text(shell.t(title), size=13, weight=ft.FontWeight.BOLD), *lines],
                spacing=2,
                width=220,
            )
        )
    return [out[0], ft.Row(out[1:], wrap=True, spacing=12, run_spacing=8)]


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


def _rating_text(shell: Shell, rated: object) -> str:
    from ...players.rating import Rating

    if not isinstance(rated, Rating) or not rated.shown:
        games = rated.games if isinstance(rated, Rating) else 0
        return shell.t(N_("not yet: {games} of {min} finished games"), games=games, min=MIN_GAMES)
    return _rating_figure(rated.ordinal)


def _rating_figure(value: float) -> str:
    """One decimal, and a minus sign as the money's (−2.4, not -2.4)."""
    return f"{value:.1f}".replace("-", "\u2212")


def _details(shell: Shell, s: FamilyStats, names: dict[int, str], rated: object) -> ft.Control:
    pulya = s.family == "pulya"
    figures = [
        _figure(
            shell.t(N_("Games played")),
            str(s.games),
            "stat-pulkas",
        ),
        _figure(shell.t(N_("Money won")), _money(shell, s.won), "stat-won"),
        _figure(shell.t(N_("Money lost")), _money(shell, s.lost), "stat-lost"),
        _figure(shell.t(N_("Rating")), _rating_text(shell, rated), "stat-rating"),
    ]
    if pulya:
        figures += [
            _figure(shell.t(N_("Whists written")), whist_figure(s.written), "stat-written"),
            _figure(shell.t(N_("Whists received")), whist_figure(s.received), "stat-received"),
            _figure(
                shell.t(N_("All-pass tricks")),
                str(s.counts.get("allpass_tricks", 0)),
                "stat-all-pass",
            ),
            _figure(
                shell.t(N_("Misères made / failed")),
                f"{s.counts.get('misere_made', 0)} / {s.counts.get('misere_caught', 0)}",
                "stat-miseres",
            ),
        ]
    elif s.family == "bula":
        figures += [
            _figure(shell.t(N_("Refe rounds")), str(s.counts.get("refe_rounds", 0)), "stat-refe"),
            _figure(
                shell.t(N_("Bula closed first")),
                str(s.counts.get("bula_closed_first", 0)),
                "stat-closed-first",
            ),
        ]
    elif s.family == "kassa":
        figures.append(
            _figure(
                shell.t(N_("Kassa closed first")),
                str(s.counts.get("kassa_closed_first", 0)),
                "stat-closed-first",
            )
        )
    header = [
        ft.DataColumn(ft.Text(shell.t(N_("Contract")))),
        ft.DataColumn(ft.Text(shell.t(N_("Declared"))), numeric=True),
        ft.DataColumn(ft.Text(shell.t(N_("Made"))), numeric=True),
        ft.DataColumn(ft.Text(shell.t(N_("Failed"))), numeric=True),
    ]
    rows = [
        ft.DataRow(
            [
                ft.DataCell(ft.Text(kind)),
                ft.DataCell(sem(f"declared-{kind}", ft.Text(str(d)))),
                ft.DataCell(sem(f"made-{kind}", ft.Text(str(m)))),
                ft.DataCell(sem(f"failed-{kind}", ft.Text(str(f)))),
            ]
        )
        for kind, (d, m, f) in sorted(s.by_level().items(), key=lambda kv: (len(kv[0]), kv[0]))
    ]
    parts: list[ft.Control] = [
        sem("player-name", ft.Text(names.get(s.player, "?"), size=18, weight=ft.FontWeight.BOLD)),
        ft.Row(figures, wrap=True, spacing=8, run_spacing=8),
    ]
    if rows:
        parts.append(
            # never wider than the screen: the Russian headers are long
            ft.Container(
                ft.DataTable(columns=header, rows=rows, column_spacing=12, horizontal_margin=8),
                width=min(420, (shell.page.width or 360) - 24),
            )
        )
        parts += _contracts_chart(shell, s)
    else:
        parts.append(ft.Text(shell.t(N_("No contract declared yet."))))
    parts += _money_chart(shell, s)
    return ft.Column(parts, spacing=10)


def _debts(shell: Shell, pid: int, names: dict[int, str], owed: list[Debt]) -> list[ft.Control]:
    lines = [d for d in owed if pid in (d.debtor, d.creditor)]
    if not lines:
        return []
    out: list[ft.Control] = [ft.Text(shell.t(N_("Debts")), weight=ft.FontWeight.BOLD)]
    for k, d in enumerate(lines):
        amount = money_text(d.amount, minor_digits(d.currency), d.currency, shell.lang)
        line: ft.Control = sem(
            f"debt-{k}",
            ft.Text(
                shell.render(
                    owes(
                        names.get(d.debtor, "?"),
                        names.get(d.creditor, "?"),
                        amount.replace(" ", "\u00a0"),
                        d.evenings,
                    )
                )
            ),
        )
        if shell.access.host:  # paid in full: the directory's journal keeps a "settle" entry
            line = ft.Container(  # the button beside its line, not across a laptop's screen
                ft.Row(
                    [
                        ft.Container(line, expand=True),
                        sem(
                            f"settle-{k}",
                            ft.TextButton(
                                shell.t(N_("Settled…")),
                                on_click=lambda e, d=d: _ask_settled(shell, d, names),
                            ),
                        ),
                    ],
                    spacing=4,
                ),
                width=min(560, (shell.page.width or 360) - 24),
            )
        out.append(line)
    return out


def _ask_settled(shell: Shell, d: Debt, names: dict[int, str]) -> None:
    amount = money_text(d.amount, minor_digits(d.currency), d.currency, shell.lang)

    def done() -> None:
        _admin(
            shell,
            lambda: shell.session.settle_debt(d.debtor, d.creditor, d.amount, currency=d.currency),
        )

    shell.page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(
                shell.t(
                    N_("{debtor} paid {creditor} {amount}: the debt is settled"),
                    debtor=names.get(d.debtor, "?"),
                    creditor=names.get(d.creditor, "?"),
                    amount=amount,
                )
            ),
            actions=[
                sem("confirm-settled", ft.FilledButton(shell.t(N_("Settled")), on_click=done)),
                ft.TextButton(shell.t(N_("Cancel")), on_click=lambda: shell.page.pop_dialog()),
            ],
        )
    )


def _tools(shell: Shell, pid: int, names: dict[int, str], season: Season | None) -> ft.Control:
    """Copy every player's record as CSV (the season's, if one is chosen); on the host, rename or
    merge the chosen entry."""

    async def copy_csv() -> None:
        from types import SimpleNamespace

        args = SimpleNamespace(since=None, until=None, family=None, player=None)
        if season is not None:
            args = SimpleNamespace(
                since=season.since, until=season.until, family=None, player=list(season.players)
            )
        rows = shell.session.read(lambda store: stats_rows(store, args))
        await ft.Clipboard().set(csv_text(rows))

    buttons: list[ft.Control] = [
        sem(
            "copy-csv",
            ft.OutlinedButton(
                shell.t(N_("Copy as CSV")), icon=ft.Icons.TABLE_VIEW, on_click=copy_csv
            ),
        )
    ]
    if shell.access.host:
        buttons += [
            sem(
                "rename-player",
                ft.OutlinedButton(
                    shell.t(N_("Rename…")),
                    icon=ft.Icons.EDIT,
                    on_click=lambda: _ask_rename(shell, pid, names[pid]),
                ),
            ),
            sem(
                "merge-player",
                ft.OutlinedButton(
                    shell.t(N_("Same person as…")),
                    icon=ft.Icons.MERGE,
                    on_click=lambda: _ask_merge(shell, pid, names),
                ),
            ),
        ]
    return ft.Row(buttons, wrap=True, spacing=8, run_spacing=8)


def _admin(shell: Shell, action: Callable[[], Refused | None]) -> None:
    """A change of the directory (``action``: the session's): the host's own device only
    (decided on the server)."""
    shell.page.pop_dialog()
    if not shell.access.host:
        shell.message = shell.t(N_("Only the host changes the directory of players."))
    else:
        shell.told(action())
    shell.show(players_screen)


def _ask_rename(shell: Shell, pid: int, name: str) -> None:
    field = ft.TextField(label=shell.t(N_("New name")), value=name, autofocus=True)

    def done() -> None:
        new = field.value or ""
        _admin(shell, lambda: shell.session.rename_player(pid, new))
        if shell.message is None:
            shell.state.player = new.strip()
            shell.show(players_screen)

    shell.page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(shell.t(N_("Rename {name}"), name=name)),
            content=sem("rename-name", field),
            actions=[
                sem("confirm-rename", ft.FilledButton(shell.t(N_("Rename")), on_click=done)),
                ft.TextButton(shell.t(N_("Cancel")), on_click=lambda: shell.page.pop_dialog()),
            ],
        )
    )


def _ask_merge(shell: Shell, pid: int, names: dict[int, str]) -> None:
    others = sorted((n, i) for i, n in names.items() if i != pid)
    target = ft.Dropdown(
        label=shell.t(N_("The same person as")),
        options=[ft.DropdownOption(key=str(i), text=n) for n, i in others],
    )
    reason = ft.TextField(label=shell.t(N_("Reason")))

    def done() -> None:
        if not target.value:
            shell.page.pop_dialog()
            shell.message = shell.t(
                N_("Choose whom {name} is the same person as."), name=names[pid]
            )
            shell.show(players_screen)
            return
        into = int(target.value)
        _admin(shell, lambda: shell.session.merge_players(pid, into, reason=reason.value or ""))
        if shell.message is None:
            shell.state.player = names[into]
            shell.show(players_screen)

    shell.page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(shell.t(N_("{name} is the same person as…"), name=names[pid])),
            content=ft.Column(
                [sem("merge-into", target), sem("merge-reason", reason)], tight=True, spacing=8
            ),
            actions=[
                sem("confirm-merge", ft.FilledButton(shell.t(N_("Merge")), on_click=done)),
                ft.TextButton(shell.t(N_("Cancel")), on_click=lambda: shell.page.pop_dialog()),
            ],
        )
    )


def _contracts_chart(shell: Shell, s: FamilyStats) -> list[ft.Control]:
    """Contracts by level (or bid): a bar each, made in the theme's colour stacked under failed."""
    kinds = sorted(s.by_level().items(), key=lambda kv: (len(kv[0]), kv[0]))
    if len(kinds) < 2:
        return []  # one bar says no more than the table beside it
    top = max(d for _k, (d, _m, _f) in kinds)
    chart = fch.BarChart(
        groups=[
            fch.BarChartGroup(
                x=k,
                rods=[
                    fch.BarChartRod(
                        from_y=0,
                        to_y=declared,
                        width=18,
                        stack_items=[
                            fch.BarChartRodStackItem(0, made, ft.Colors.PRIMARY),
                            fch.BarChartRodStackItem(made, made + failed, ft.Colors.ERROR),
                        ],
                        color=ft.Colors.OUTLINE_VARIANT,
                        border_radius=0,
                    )
                ],
            )
            for k, (_kind, (declared, made, failed)) in enumerate(kinds)
        ],
        bottom_axis=fch.ChartAxis(
            label_size=24,
            labels=[
                fch.ChartAxisLabel(value=k, label=ft.Text(kind, size=12))
                for k, (kind, _c) in enumerate(kinds)
            ],
        ),
        left_axis=fch.ChartAxis(label_size=32),
        min_y=0,
        max_y=top + 1,
        width=min(420, (shell.page.width or 360) - 24),
        height=180,
    )
    return [
        ft.Text(shell.t(N_("Contracts by level: made, and failed above them"))),
        sem("player-contracts-chart", chart),
    ]


def _money_chart(shell: Shell, s: FamilyStats) -> list[ft.Control]:
    currencies = [p.record.currency for p, _seat in s.sessions]
    if not currencies:
        return []
    currency = max(set(currencies), key=currencies.count)
    totals = s.money_over_evenings(currency)
    if len(totals) < 2:
        return []
    digits = minor_digits(currency)
    scale = 10**digits
    values = [t / scale for t in totals]  # a drawing may use floats; the figures stay exact
    low, high, step = bounds(values, ticks=5)
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
            title=ft.Text(shell.t(N_("Evening")), size=12),
            title_size=20,
        ),
        horizontal_grid_lines=fch.ChartGridLines(
            color=ft.Colors.OUTLINE_VARIANT, width=1, interval=step
        ),
        width=width,
        height=240,
    )
    return [
        ft.Text(shell.t(N_("Money over the evenings, {currency}"), currency=currency)),
        sem("player-chart", chart),
    ]
