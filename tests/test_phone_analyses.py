"""The analysis of a deal on the phone alone: Pyodide has no processes, so the page's own Python
runs it (the server's pool of worker processes is never made there); its bounds still hold."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from scorepad.app import analyses
from scorepad.app.analyses import Analyses, Busy, record_lines

RECORD = Path(__file__).parent / "fixtures" / "deals" / "made-seven.json"


def test_on_the_phone_the_analysis_runs_in_the_page_and_no_pool_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(analyses, "ON_PHONE", True)

    def no_processes(self: Analyses) -> None:  # what creating a process does in Pyodide
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(Analyses, "pool", no_processes)
    said = asyncio.run(Analyses().run(object(), record_lines, RECORD.read_text(encoding="utf-8")))
    assert said == record_lines(RECORD.read_text(encoding="utf-8"))
    assert said[0].text == "Verdict: every step is legal."


def test_on_the_phone_a_second_analysis_of_a_page_is_still_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(analyses, "ON_PHONE", True)
    runner, page = Analyses(), object()
    runner._pages[id(page)] = 1  # one of this page's is running

    with pytest.raises(Busy):
        asyncio.run(runner.run(page, record_lines, ""))
