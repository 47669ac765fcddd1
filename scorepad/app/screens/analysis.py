"""Analyse a deal record: paste a ``scorepad-deal/1`` record, read what was makeable.

A dialog over any screen (History opens it), the record pasted or read from a shared file: it is
checked card by card, then the double-dummy analysis shows each contract's best result and every
card that cost its side a trick, in the screen's language.  Nothing is stored.
"""

from __future__ import annotations

import flet as ft

from ...core.i18n import N_, Msg, msg
from ...play.record import RecordInvalid, parse_record
from ..analyses import ANALYSES, Busy, record_lines
from ..dispute.start import open_record
from ..frame.shell import Shell, sem

# A deal record is a few kilobytes; a bigger file is something else.  (The browser sends a
# chosen file whole, in one frame: the server closes a page sending more than 256 KB at once.)
MAX_RECORD_KB = 64


def analysis_lines(text: str) -> list[Msg]:
    """The sentences for a pasted record (run here; the dialog runs it in a worker)."""
    return record_lines(text)


async def _analysed(shell: Shell, text: str) -> list[Msg]:
    """The record's analysis in words.  The search runs in a worker process, never on the
    server's event loop, and only for a page that writes: a viewer (no PIN) looks at the sheet,
    it does not load the server's CPU (analyses.py bounds the others)."""
    if not shell.access.may_write:
        return [
            msg(
                N_(
                    "Only a device that writes at this table may analyse deals: enter the table PIN first."
                )
            )
        ]
    try:
        return await ANALYSES.run(shell.page, record_lines, text)
    except Busy as busy:
        return [busy.message]


def open_analysis(shell: Shell) -> None:
    """Show the dialog: a field for the record, a button, the result below."""
    record = ft.TextField(
        label=shell.t(N_("Deal record (scorepad-deal/1)")),
        multiline=True,
        min_lines=4,
        max_lines=10,
    )
    result = ft.Column([], spacing=2, tight=True)

    async def run() -> None:
        said = await _analysed(shell, record.value or "")
        result.controls = [ft.Text(shell.render(m), selectable=True) for m in said]
        shell.page.update()

    def replay() -> None:
        """The record in the deal check: its cards, auction and play, step by step."""
        try:
            found = parse_record((record.value or "").encode("utf-8"))
        except RecordInvalid as exc:
            result.controls = [ft.Text(exc.render(shell.lang), selectable=True)]
            shell.page.update()
            return
        shell.page.pop_dialog()
        open_record(shell, found)

    async def open_file() -> None:
        """A shared record file (scorepad-deal/1), read in the browser and replayed."""
        files = await ft.FilePicker().pick_files(
            dialog_title=shell.t(N_("Open a file…")),
            file_type=ft.FilePickerFileType.CUSTOM,  # for allowed_extensions to count
            allowed_extensions=["json"],
            with_data=True,
        )
        if not files or files[0].bytes is None:
            return  # nothing chosen
        chosen = files[0]
        if chosen.size > MAX_RECORD_KB * 1024:
            too_big = N_("{name} is larger than {limit} KB: it is not a deal record")
            result.controls = [ft.Text(shell.t(too_big, name=chosen.name, limit=MAX_RECORD_KB))]
            shell.page.update()
            return
        record.value = bytes(chosen.bytes).decode("utf-8", errors="replace")
        replay()

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
                sem(
                    "analysis-open",
                    ft.TextButton(shell.t(N_("Replay it card by card")), on_click=replay),
                ),
                sem(
                    "analysis-file",
                    ft.TextButton(shell.t(N_("Open a file…")), on_click=open_file),
                ),
                ft.TextButton(shell.t(N_("Close")), on_click=lambda: shell.page.pop_dialog()),
            ],
        )
    )
