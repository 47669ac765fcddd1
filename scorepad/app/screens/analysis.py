"""Analyse a deal record: paste a ``scorepad-deal/1`` record, read what was makeable.

A dialog over any screen (History opens it): the record is checked card by card, then the
double-dummy analysis shows each contract's best result and every card that cost its side a
trick, in the screen's language.  Nothing is stored.
"""

from __future__ import annotations

import flet as ft

from ...i18n import N_, Msg, msg
from ...play.analysis import analyse, lines
from ...play.record import RecordInvalid, audit, parse_record
from ..frame.shell import Shell, sem


def analysis_lines(text: str) -> list[Msg]:
    """The sentences for a pasted record: the verdict, then the analysis (or why it is refused)."""
    if not text.strip():
        return [msg(N_("Paste a deal record first."))]
    try:
        found = audit(parse_record(text.encode("utf-8")))
    except RecordInvalid as exc:
        step = exc.step
        if step is None:
            return [exc.message]
        return [msg(N_("Illegal: {step}: {why}"), step=step, why=exc.message)]
    out = [msg(N_("Verdict: every step is legal."))]
    out.extend(lines(found, analyse(found)))
    return out


def open_analysis(shell: Shell) -> None:
    """Show the dialog: a field for the record, a button, the result below."""
    record = ft.TextField(
        label=shell.t(N_("Deal record (scorepad-deal/1)")),
        multiline=True,
        min_lines=4,
        max_lines=10,
    )
    result = ft.Column([], spacing=2, tight=True)

    def run() -> None:
        result.controls = [
            ft.Text(shell.render(m), selectable=True) for m in analysis_lines(record.value or "")
        ]
        shell.page.update()

    shell.page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(shell.t(N_("Analyse a deal"))),
            content=ft.Column(
                [sem("analysis-record", record), sem("analysis-result", result)],
                tight=True,
                scroll=ft.ScrollMode.AUTO,
                width=520,
            ),
            actions=[
                sem("analysis-run", ft.FilledButton(shell.t(N_("Analyse")), on_click=run)),
                ft.TextButton(shell.t(N_("Close")), on_click=lambda: shell.page.pop_dialog()),
            ],
        )
    )
