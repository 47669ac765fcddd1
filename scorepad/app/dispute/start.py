"""Where a deal check starts: History's "Check this deal", the deal entry, a shared record.

The screen itself is registered as ``dispute`` (app/dispute/screen.py); the screens that open
it import only this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...play.record import DealRecord
from ...scoring.pulya.score import replay
from ..frame.registry import screen
from ..frame.shell import Shell
from .form import DisputeForm


@dataclass
class Dispute:
    """What the screen checks: the form, the step shown, and the deal it belongs to."""

    form: DisputeForm
    step: str = "cards"
    deal: tuple[int, int] | None = None  # (deal id, index) in the open pulka
    new_deal: bool = False  # from the deal entry: a legal record may be written as the deal
    show_others: bool = False  # the cards outside the offer (a disputed play)
    show_record: bool = False
    back: str = "history"
    # The verdict of the record as it stands (its key, the verdict): the double-dummy search
    # behind it runs once per record, not on every redraw a write at the table makes.
    verdict: tuple[Any, Any] | None = field(default=None, repr=False, compare=False)
    # After a revoke's verdict, what best play made (its key, the sentences), worked out in the
    # analyses' workers (app/analyses.py); ``best_asked``: the key being worked out.
    best: tuple[Any, Any] | None = field(default=None, repr=False, compare=False)
    best_asked: Any = field(default=None, repr=False, compare=False)
    best_task: Any = field(default=None, repr=False, compare=False)  # kept while it runs

    def show_other_cards(self) -> None:
        """The cards outside the offer shown too: another card was played (a disputed play)."""
        self.show_others = True


def open_for_deal(shell: Shell, deal_id: int, index: int) -> None:
    """ "Check this deal" in History: the deal's own record, or one prefilled from the sheet."""
    stored = shell.stored()
    before = stored.session.model_copy(update={"deals": stored.session.deals[:index]})
    form = DisputeForm.for_deal(replay(before, stored.settings), stored.journal.live[index].deal)
    _open(shell, Dispute(form, deal=(deal_id, index)))


def open_for_next(shell: Shell) -> None:
    """From the deal entry, the cards still on the table: the next deal."""
    form = DisputeForm.for_deal(shell.stored().scored)
    _open(shell, Dispute(form, new_deal=True, back="entry"))


def open_record(shell: Shell, record: DealRecord) -> None:
    """A shared ``scorepad-deal/1`` record (a file or pasted text), to read and replay."""
    _open(
        shell, Dispute(DisputeForm.from_record(record), back="history" if shell.sid else "sessions")
    )


def _open(shell: Shell, d: Dispute) -> None:
    d.step = d.form.stage
    shell.state.dispute = d
    shell.message = None if d.form.problem is None else shell.render(d.form.problem)
    shell.show(screen("dispute"))


__all__ = ["Dispute", "open_for_deal", "open_for_next", "open_record"]
