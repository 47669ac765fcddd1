"""The output of ``scorepad settle``, one module per family group: :mod:`.pulya` (the pulya's
``scorepad-settlement/1`` and readable sheet) and :mod:`.ledger` (the ledger families': bula,
kassa, pot).  Only formatting lives here; the numbers come from the engines.

A session's report is chosen by its family's name (:func:`report_for`), as its engine is
(:func:`scorepad.scoring.family.family`); each report module is loaded only when asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import Any, Protocol

from ..scoring.peek import FAMILIES

#: Each family's report module (imported when asked).
REPORTS: dict[str, str] = {
    "pulya": "scorepad.report.pulya",
    **{name: "scorepad.report.ledger" for name in FAMILIES},
}


class Report(Protocol):
    """What every family's report offers: its JSON document, its readable sheet, its cash-out."""

    def to_json_text(
        self, scored: Any, lang: str = ..., numbers: Sequence[int] | None = ...
    ) -> str: ...

    def to_text_sheet(
        self,
        scored: Any,
        lang: str = ...,
        *,
        explain: bool = ...,
        numbers: Sequence[int] | None = ...,
    ) -> str: ...

    def cash_out(self, scored: Any, lang: str = ...) -> Any: ...


def report_for(family: str) -> Report:
    """The report of the family named ``family`` (one of :data:`scorepad.scoring.family.NAMES`)."""
    report: Report = import_module(REPORTS[family])
    return report
