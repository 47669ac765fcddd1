"""Issue 38's acceptance, the screens: every screen of the families (the new game with every
setting shown, the entry, the sheet, the history, the cash-out, the chart) of a bula of four, a
Prefa and an Austrian pot evening, in each of the six languages, at 360×740, and the sheet at
1280×800.  Each is saved (``screenshots/screens-<family>-<lang>-<screen>.png``) to be looked at,
and checked for what a look would catch first: no control reaching past the window's right
edge (a word or a number cut), no text overlapping the bottom bar.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from e2e import harness
from e2e.harness import choose_language, open_app, running_app, settle, shot, tap, visible
from support.evenings import BALKAN_FOUR, BALKAN_FOUR_PLAYERS, PREFA, PREFA_PLAYERS, import_evening
from test_pot_e2e import EVENING as POT_EVENING
from test_pot_e2e import NAMES as POT_PLAYERS

from scorepad.core.i18n import LANGUAGE_NAMES, LANGUAGES
from scorepad.scoring.ledger.families import family_presets
from scorepad.store import Store

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)
browser = harness.browser  # the shared headless chromium fixture

GAMES: dict[str, tuple[list[str], str, dict[str, Any], list[dict[str, Any]]]] = {
    "bula": (BALKAN_FOUR_PLAYERS, "balkan", {"start_bula": 30}, BALKAN_FOUR),
    "kassa": (PREFA_PLAYERS, "prefa", {}, PREFA),
    "pot": (POT_PLAYERS, "austrian", {}, [deal for _, deal in POT_EVENING]),
}
#: What each screen waits for before its picture.
SCREENS = {
    "entry": "deal-header",
    "sheet": "sheet-player-0",
    "history": "deal-title-1",
    "settle": "cash-0-result",
    "chart": None,
}

SHEET = {"bula": "sheet-player-0", "kassa": "sheet-player-0", "pot": "pot-summary"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, int]]]:
    db = tmp_path_factory.mktemp("screens") / "screens.db"
    with Store(db) as store:
        sids = {
            family: import_evening(store, names, convention, overrides, deals)
            for family, (names, convention, overrides, deals) in GAMES.items()
        }
    with running_app(db) as (url, _db):
        yield url, sids


@pytest.fixture(scope="module")
def laptop(browser: Any, served: tuple[str, dict[str, int]]) -> Iterator[harness.KeptPage]:
    """The laptop (1280×800) the sheets are looked at on, kept across the languages (it only
    opens the sessions and their sheets: nothing of one language's stays for the next), from
    the list of sessions in the test's language (harness.KeptPage): one page load for the file.
    The phone's page is each test's own: its new-game form keeps what was chosen on it."""
    kept = harness.KeptPage(browser, served[0], 1280, 800)
    yield kept
    kept.discard()


def nothing_cut(page: Any, where: str) -> None:
    """No control reaches past the window's right edge (where a word or a figure is cut)."""
    width = page.viewport_size["width"]
    out = page.evaluate(
        """(width) => [...document.querySelectorAll('[flt-semantics-identifier]')]
            .map(n => [n.getAttribute('flt-semantics-identifier'), n.getBoundingClientRect()])
            .filter(([, r]) => r.width > 0 && (r.left < -0.5 || r.right > width + 0.5))
            .map(([id, r]) => `${id} ${r.left}..${r.right}`)""",
        width,
    )
    if out:
        harness._on_failure(page, f"cut-{where}")
    assert not out, (where, out)


def opened(browser: Any, url: str, lang: str, width: int = 360, height: int = 740) -> Any:
    page = open_app(browser, url, width, height)
    visible(page, "session-new")
    if lang != "en":
        choose_language(page, LANGUAGE_NAMES[lang])
        settle(page)
    return page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_family_screen_in_every_language(
    browser: Any, served: tuple[str, dict[str, int]], laptop: harness.KeptPage, lang: str
) -> None:
    url, sids = served
    page = opened(browser, url, lang)
    for family, sid in sids.items():
        tap(page, f"session-open-{sid}")
        visible(page, "deal-header")
        for screen, ready in SCREENS.items():
            tap(page, f"nav-{screen}")
            if ready is not None:
                visible(page, SHEET[family] if screen == "sheet" else ready)
            page.mouse.move(200, 20)  # no button under the pointer (a hovered one looks pressed)
            shot(page, f"screens-{family}-{lang}-{screen}")
            nothing_cut(page, f"{family}-{lang}-{screen}")
        tap(page, "nav-sessions")
        visible(page, "session-new")
    # The new game of each family, every setting shown.
    tap(page, "session-new")
    visible(page, "player-0")
    visible(page, "players-4")
    for k, (family, (_names, convention, _o, _d)) in enumerate(GAMES.items()):
        page.mouse.move(180, 400)
        page.mouse.wheel(0, 700)  # the list of games lies below the roster
        settle(page)
        tap(page, "convention")
        name = family_presets()[convention].name_in(lang)
        page.get_by_role("button", name=name, exact=True).last.click()
        visible(page, "show-settings")
        if k == 0:
            tap(page, "show-settings")  # every setting shown, from now on
        settle(page)
        page.mouse.move(200, 20)
        shot(page, f"screens-{family}-{lang}-new-game")
        nothing_cut(page, f"{family}-{lang}-new-game")
        page.mouse.move(180, 400)
        page.mouse.wheel(0, 1500)  # the settings below
        page.mouse.move(200, 20)
        shot(page, f"screens-{family}-{lang}-new-game-settings")
        nothing_cut(page, f"{family}-{lang}-new-game-settings")
        page.mouse.move(180, 400)
        page.mouse.wheel(0, -20000)
    page.context.close()
    # The sheet on a laptop: on the file's kept one (it only opens sessions and looks).
    page = laptop.sessions(lang)
    for family, sid in sids.items():
        tap(page, f"session-open-{sid}")
        visible(page, "deal-header")
        tap(page, "nav-sheet")
        visible(page, SHEET[family])
        page.mouse.move(640, 20)
        shot(page, f"screens-{family}-{lang}-sheet-1280")
        nothing_cut(page, f"{family}-{lang}-sheet-1280")
        tap(page, "nav-sessions")
        visible(page, "session-new")
