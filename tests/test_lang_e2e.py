"""The languages in a real browser: the first screen offers every language of i18n.LANGUAGES by
its own name; the chosen one speaks on the deal entry, the sheet and the cash-out; the device
remembers it. Screenshots at 360×740 in each language (screenshots/lang-*.png)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from e2e import harness
from e2e.harness import (
    ROOT,
    open_app,
    running_app,
    semantics_on,
    shot,
    tap,
    visible,
)

from scorepad.core.i18n import LANGUAGE_LIST, catalog
from scorepad.store import Store
from scorepad.testing.generate import RandomChooser, random_session

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)
browser = harness.browser  # the shared headless chromium fixture


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("lang") / "lang.db"
    with Store(db) as store:
        store.import_session((ROOT / "scorepad" / "data" / "demo-session.json").read_text())
        # and an evening in play, whose entry shows the deal form
        store.import_session(json.dumps(random_session(RandomChooser(3), players=3, deals=3)))
    with running_app(db) as (url, _db):
        yield url


def seen(page: Any, text: str) -> None:
    page.get_by_text(text, exact=True).filter(visible=True).first.wait_for(timeout=15000)


def test_the_first_screen_offers_every_language_by_its_own_name(browser: Any, evening: str) -> None:
    page = open_app(browser, evening, 360, 740)
    try:
        visible(page, "session-new")
        tap(page, "language")
        for language in LANGUAGE_LIST:
            page.get_by_role("button", name=language.name, exact=True).last.wait_for(timeout=10000)
        shot(page, "lang-00-choice")
    finally:
        page.context.close()


@pytest.fixture(scope="module")
def phone(browser: Any, evening: str) -> Iterator[harness.KeptPage]:
    """The phone each language is chosen on, from the list of sessions (harness.KeptPage): one
    page load for the five; each test only looks at the evenings, so nothing of one language's
    stays for the next but the choice it replaces."""
    kept = harness.KeptPage(browser, evening)
    yield kept
    kept.discard()


@pytest.mark.parametrize("language", LANGUAGE_LIST[1:], ids=[x.code for x in LANGUAGE_LIST[1:]])
def test_a_chosen_language_speaks_on_the_entry_the_sheet_and_the_cash_out(
    phone: harness.KeptPage, evening: str, language: Any
) -> None:
    cat = catalog(language.code)
    page = phone.sessions(language.code)  # chosen from the first screen's list
    seen(page, cat.gettext("New game"))
    shot(page, f"lang-{language.code}-01-sessions")
    tap(page, "session-open-2")
    visible(page, "nav-sheet")
    seen(page, cat.gettext("Write the deal"))
    shot(page, f"lang-{language.code}-02-form")
    tap(page, "nav-sessions")
    tap(page, "session-open-1")
    visible(page, "nav-sheet")
    seen(page, cat.gettext("Play on"))  # a finished evening: play on, or settle
    shot(page, f"lang-{language.code}-02-entry-finished")
    tap(page, "nav-sheet")
    seen(page, cat.gettext("Tap a cell to see every entry in it."))
    shot(page, f"lang-{language.code}-03-sheet")
    tap(page, "nav-settle")
    seen(page, cat.gettext("Payments:"))
    shot(page, f"lang-{language.code}-04-cashout")
    # The device remembers the choice: a new tab (the same browser storage, a new app
    # session) opens in the same language.
    again = page.context.new_page()
    try:
        again.goto(evening)
        semantics_on(again)
        seen(again, cat.gettext("New game"))
    finally:
        again.close()
