"""A bula and a Prefa game on the phone alone, as issue #35's acceptance asks of each: ten deals
or more by taps, a reload (the deals are there), the static server stopped, a reload from the
service worker's cache (the deals are there), a deal voided, the game exported, and the file's
``scorepad settle --json`` equal to the phone's cash-out.

The build, the static server and the browser are those of ``test_phone_e2e.py`` (built with the
network cut, Debian's chromium at 360×740, the Python of the app in the page).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from e2e.harness import browser as browser
from e2e.harness import tap as tap
from e2e.harness import type_text, visible
from test_phone_e2e import Static, family_cash_out_matches, open_phone, started
from test_phone_e2e import built as built
from test_phone_e2e import static as static

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)


def opened(page: Any, finished: bool, deal: int) -> None:
    """After a reload: the game opened from the list, as it was left."""
    from playwright.sync_api import expect

    started(page)
    page.locator('[flt-semantics-identifier^="session-open-"]').first.click(timeout=30000)
    if finished:
        visible(page, "game-finished")
    else:
        expect(page.locator('[flt-semantics-identifier="deal-header"]').first).to_contain_text(
            f"Deal {deal}", timeout=30000
        )


@pytest.mark.parametrize("family", ["bula", "prefa"])
def test_ten_deals_reloads_the_server_gone_a_void_and_the_cash_out_on_the_phone_alone(
    browser: Any, static: Static, tmp_path: Path, capsys: pytest.CaptureFixture[str], family: str
) -> None:
    from support.evenings import BALKAN, BALKAN_PLAYERS, BALKAN_START, PREFA, PREFA_PLAYERS
    from test_bula_e2e import Entry, new_game

    page = open_phone(browser, static.url)
    if family == "bula":
        new_game(page, BALKAN_PLAYERS, "Balkan bula", {"Starting bula": str(BALKAN_START)})
        table = Entry(page, BALKAN_PLAYERS)
        for k, deal in enumerate(BALKAN, start=1):  # twelve deals, the last ends the game
            table.bula(deal, last=k == len(BALKAN))
        deals, finished = len(BALKAN), True
    else:
        new_game(page, PREFA_PLAYERS, "Greek Prefa", {})
        table = Entry(page, PREFA_PLAYERS)
        deals, finished = 10, False
        for deal in (PREFA * 3)[:deals]:
            table.prefa(deal)
    page.reload()  # the Python of the app starts again in the page, the store from IndexedDB
    opened(page, finished, deals + 1)
    static.stop()  # no server at all: the service worker starts the app from its cache
    page.reload()
    opened(page, finished, deals + 1)

    # The last deal voided (a bula's earlier one would leave the game's later deals after its
    # end, which the rules refuse, in a sentence: voiding the last reopens the game).
    tap(page, "nav-history")
    visible(page, f"deal-{deals}")
    tap(page, f"void-{deals}")
    type_text(page, page.get_by_label("Reason"), "misdeal")
    tap(page, "confirm-void")
    visible(page, f"voided-title-{deals}")

    settled = family_cash_out_matches(page, tmp_path, capsys)
    exported = json.loads((tmp_path / "exported.json").read_text(encoding="utf-8"))
    assert len(exported["deals"]) == deals
    assert [d.get("voided") for d in exported["deals"]] == [None] * (deals - 1) + ["misdeal"]
    assert len(settled["money"]) == 3
    page.context.close()
