"""The phone app's later starts restore Python from the snapshot its first start kept
(``scorepad/phone/python_worker.js``), and the app then works as after a first start: a deal
edited in the history (History → edit → Write) is written, survives a reload and keeps its number;
a game file is imported by the phone's file picker.

The build, the static server and the browser are those of ``test_phone_e2e.py`` (built with the
network cut, Debian's chromium at 360×740, the Python of the app in the page).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from e2e.harness import Table, local_only, new_session, tap, text_of, type_text, visible
from e2e.harness import browser as browser
from test_phone_e2e import START, Static, reopened, started
from test_phone_e2e import built as built
from test_phone_e2e import static as static

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)

DEMO = Path(__file__).resolve().parent.parent / "scorepad" / "data" / "demo-session.json"
RESTORED = "Scorepad: Python restored from its snapshot"


def snapshot_kept(page: Any) -> None:
    """The first start's snapshot is in the page's Cache API (kept after the first screen)."""
    page.wait_for_function(
        """async () => {
            const cache = await caches.open('python-snapshots');
            return (await cache.keys()).length === 1;
        }""",
        timeout=START,
        polling=500,
    )


def python_ready(page: Any, navigate: Callable[[], Any]) -> None:
    """``navigate`` (a first visit or a reload), then the wait until the page's Python is up:
    on a loaded machine that is longer than the harness waits for the first screen."""
    with page.expect_console_message(
        lambda message: message.text.startswith("Python worker initialized"), timeout=START
    ):
        navigate()


def test_a_start_from_the_snapshot_edits_a_deal_and_imports_a_file(
    browser: Any, static: Static
) -> None:
    from playwright.sync_api import expect

    ctx = local_only(browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US"))
    page = ctx.new_page()
    page.set_default_timeout(START)
    said: list[str] = []
    page.on("console", lambda message: said.append(message.text))
    python_ready(page, lambda: page.goto(static.url))
    started(page)
    assert RESTORED not in said  # a first start: nothing to restore yet
    new_session(page, ["Anna", "Boris", "Vera"])
    tap(page, "create-session")
    expect(page.get_by_text("Deal 1: Anna deals, Boris leads.")).to_be_visible(timeout=60000)
    t = Table(page, 3)
    t.game(1, "7S", ["whist", "pass"], {1: 7, 2: 3})  # 1: Boris makes 7♠
    t.game(2, "6H", ["pass", "pass"])  # 2: nobody whists
    snapshot_kept(page)

    # A reload: Python restored from the snapshot, the store read from IndexedDB.
    said.clear()
    python_ready(page, page.reload)
    reopened(page, 3)
    assert RESTORED in said

    # The deal edited after that start: Boris took 6, not 7.
    tap(page, "nav-history")
    visible(page, "edit-1")
    assert "Boris made 7♠" in text_of(page, "deal-title-1") + text_of(page, "deal-lines-1")
    tap(page, "edit-1")
    visible(page, "editing")
    t.set_tricks(1, 6)
    type_text(page, page.get_by_label("Reason for the change"), "miscounted")
    tap(page, "confirm-deal")
    expect(page.locator('[flt-semantics-identifier="deal-lines-1"]').first).to_contain_text(
        "Boris failed 7♠, down 1", timeout=60000
    )

    # Another reload (from the snapshot again): the edit is there, the deal still deal 1 and
    # no deal added (the next one is still deal 3).
    said.clear()
    python_ready(page, page.reload)
    reopened(page, 3)
    assert RESTORED in said
    tap(page, "nav-history")
    visible(page, "deal-lines-1")
    assert "Boris failed 7♠, down 1" in text_of(page, "deal-lines-1")
    assert "Boris made 7♠" not in text_of(page, "deal-lines-1")
    visible(page, "deal-title-2")
    assert page.locator('[flt-semantics-identifier="deal-title-3"]').count() == 0

    # A game file from the laptop, imported by the phone's file picker (not pasted): it opens,
    # and the list holds both games.
    tap(page, "nav-sessions")
    tap(page, "session-import")
    with page.expect_file_chooser(timeout=60000) as chooser:
        tap(page, "import-file")
    chooser.value.set_files(str(DEMO))
    visible(page, "nav-sheet")  # the imported game opened (the demo is a finished one)
    tap(page, "nav-sessions")
    expect(page.locator('[flt-semantics-identifier^="session-open-"]')).to_have_count(2)
    # The imported game's card, by what it says (its accessible name): the demo's twelve deals.
    expect(page.get_by_role("group", name=re.compile(r"· 12 deals, finished$"))).to_have_count(1)
    ctx.close()
