"""Every screen in a real browser at 360×740 and 1280×800, light and dark, in every language the
app offers (issue #27, acceptance): one prepared evening (a pulya in play, a finished one, four
players, a bula, a Prefa kassa, an Austrian pot) visited screen by screen, each screen saved as
``screenshots/screens-<size>-<theme>-<lang>-<NN>-<screen>.png`` to be looked at, and on a phone
no text control reaching past the screen's edges (its semantics box inside the window).

One browser context per (size, theme), its storage emptied and its page loaded again for each
language, and one server for them all keep it affordable.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from e2e import harness
from e2e.harness import ARGS, ROOT, SHOTS, local_only, semantics_on, settle, tap, visible
from support.evenings import BALKAN, BALKAN_PLAYERS, PREFA, PREFA_PLAYERS
from support.table_server import serving
from test_pot_e2e import EVENING as POT_EVENING
from test_pot_e2e import NAMES as POT_PLAYERS

from scorepad.core.i18n import LANGUAGES, catalog
from scorepad.store import Store
from scorepad.testing.generate import RandomChooser, random_session

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)


def _part(params: dict[str, Any]) -> str:
    """Four parts for CI's two workers (conftest.py): each size in each theme (six languages
    each), so that no part is left running alone at the end."""
    return f"{params.get('size')}-{params.get('theme')}"


XDIST_SPLIT = _part
browser = harness.browser  # the shared headless chromium fixture
assert ARGS  # the same chromium flags (the fixture launches it)

PIN = "135790"
# The evening's sessions, in the order imported (their ids from 1).
PULYA, FINISHED, FOUR, BULA, KASSA, POT = 1, 2, 3, 4, 5, 6
SIZES = {"phone": (360, 740), "laptop": (1280, 800)}


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server (with a table PIN: the PIN screen and the share dialog are screens too)."""
    db = tmp_path_factory.mktemp("screens") / "screens.db"
    base = {"format": "scorepad-session/1", "whist_price": "0.10", "currency": "EUR"}
    with Store(db) as store:
        ids = [
            store.import_session(json.dumps(random_session(RandomChooser(3), players=3, deals=6))),
            store.import_session((ROOT / "scorepad" / "data" / "demo-session.json").read_text()),
            store.import_session(json.dumps(random_session(RandomChooser(5), players=4, deals=6))),
            store.import_session(
                json.dumps(
                    base
                    | {
                        "players": BALKAN_PLAYERS,
                        "convention": "balkan",
                        "overrides": {"start_bula": 30},
                        "deals": BALKAN[:6],
                    }
                )
            ),
            store.import_session(
                json.dumps(base | {"players": PREFA_PLAYERS, "convention": "prefa", "deals": PREFA})
            ),
            store.import_session(
                json.dumps(
                    base
                    | {
                        "players": POT_PLAYERS,
                        "convention": "austrian",
                        "deals": [deal for _, deal in POT_EVENING[:5]],
                    }
                )
            ),
        ]
    assert ids == [PULYA, FINISHED, FOUR, BULA, KASSA, POT]
    with serving(db, "--pin", PIN) as (url, _port):
        yield url


# The overflow check: every semantics node that carries text, its box inside the window's width
# (a node inside a horizontally scrolling box is reached by scrolling, and is left out).
OVERFLOWING = """() => {
    const width = window.innerWidth;
    const scrolls = el => {
        for (let p = el.parentElement; p; p = p.parentElement) {
            const s = getComputedStyle(p);
            if (s.overflowX === 'scroll' || s.overflowX === 'auto') return true;
        }
        return false;
    };
    const out = [];
    for (const el of document.querySelectorAll('flt-semantics')) {
        const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('');
        const text = (el.getAttribute('aria-label') || own || '').trim();
        if (!text) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        if ((r.left < -0.5 || r.right > width + 0.5) && !scrolls(el)) {
            out.push(`${text.slice(0, 60)} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
        }
    }
    return out;
}"""


def check_can_fail(page: Any) -> None:
    """The overflow check finds a label reaching past the right edge (a node put there for it,
    then taken away): it is no check that passes whatever the screen shows."""
    page.evaluate(
        """() => {
            const el = document.createElement('flt-semantics');
            el.id = 'overflow-probe';
            el.setAttribute('aria-label', 'a label too long for a phone');
            el.style.cssText = 'position:fixed;left:300px;top:10px;width:120px;height:20px';
            document.body.appendChild(el);
        }"""
    )
    try:
        assert page.evaluate(OVERFLOWING) == ["a label too long for a phone [300, 420]"]
    finally:
        page.evaluate("() => document.getElementById('overflow-probe').remove()")


def no_share(page: Any) -> None:
    assert page.locator('[flt-semantics-identifier="share-table"]').count() == 0


class Visit:
    """One (size, theme, language): screenshots in order, and the overflow check on a phone."""

    def __init__(self, page: Any, size: str, theme: str, lang: str) -> None:
        self.page, self.size, self.theme, self.lang = page, size, theme, lang
        self.n = 0
        self.overflows: dict[str, list[str]] = {}

    def shot(self, name: str) -> None:
        # No control under the pointer (a hovered button looks pressed, an icon shows its tip).
        self.page.mouse.move(self.page.viewport_size["width"] - 2, 2)
        png = settle(self.page)
        self.n += 1
        SHOTS.mkdir(exist_ok=True)
        path = SHOTS / f"screens-{self.size}-{self.theme}-{self.lang}-{self.n:02}-{name}.png"
        path.write_bytes(png)
        if self.size == "phone":
            found = self.page.evaluate(OVERFLOWING)
            if found:
                self.overflows[name] = found

    def open(self, sid: int, marker: str) -> None:
        tap(self.page, "nav-sessions")
        visible(self.page, f"session-open-{sid}")
        tap(self.page, f"session-open-{sid}")
        visible(self.page, marker)


class Devices:
    """One browser context per (size, theme), kept across its languages (harness.KEPT): each
    language begins on a device as new to the app as a new context's, its storage emptied (no
    device token, so the PIN is asked; no language chosen) and the page loaded again, which
    the browser's cache makes cheaper than a new context's first load. One is open at a time;
    a test that fails gives its context up (tests/conftest.py), so the next begins on a new
    one."""

    def __init__(self, browser: Any, url: str) -> None:
        self.browser, self.url = browser, url
        self.kept: dict[tuple[str, str], Any] = {}

    def fresh(self, size: str, theme: str) -> Any:
        """The page of (size, theme), at the app's first screen as a new device sees it."""
        for key, ctx in list(self.kept.items()):  # the other devices' pages closed
            if key != (size, theme) or ctx not in harness.KEPT:
                self.close(key)
        ctx = self.kept.get((size, theme))
        if ctx is not None:
            page = ctx.pages[0]
            page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            page.reload()
            return page
        width, height = SIZES[size]
        ctx = local_only(
            self.browser.new_context(
                viewport={"width": width, "height": height}, color_scheme=theme
            )
        )
        self.kept[(size, theme)] = ctx
        harness.KEPT.add(ctx)
        page = ctx.new_page()
        page.goto(self.url)
        return page

    def close(self, key: tuple[str, str]) -> None:
        ctx = self.kept.pop(key)
        harness.KEPT.discard(ctx)
        with contextlib.suppress(Exception):  # closed after a failure, or with its browser
            ctx.close()


@pytest.fixture(scope="module")
def devices(browser: Any, evening: str) -> Iterator[Devices]:
    found = Devices(browser, evening)
    yield found
    for key in list(found.kept):
        found.close(key)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_every_screen_looks_finished(devices: Devices, size: str, theme: str, lang: str) -> None:
    from playwright.sync_api import expect

    width = SIZES[size][0]
    cat = catalog(lang)
    page = devices.fresh(size, theme)
    semantics_on(page)
    v = Visit(page, size, theme, lang)
    # The PIN screen, switched to the language there (a phone handed over in the wrong one).
    visible(page, "pin-field")
    if size == "phone":
        check_can_fail(page)
    if lang != "en":
        tap(page, f"language-{lang}")
        visible(page, "language-en")
    v.shot("pin")
    field = page.get_by_label(cat.gettext("Table PIN"))
    field.click()
    field.fill(PIN)
    field.press("Enter")
    visible(page, "session-new")
    expect(page.get_by_text(cat.gettext("New game"), exact=True).first).to_be_visible(timeout=10000)
    no_share(page)
    v.shot("sessions")
    tap(page, "session-new")
    visible(page, "create-session")
    no_share(page)  # "Share the table" only where a session is open (issue #27, item 9)
    v.shot("new-game")
    tap(page, "show-settings")
    visible(page, "settings-whisting")
    page.locator(
        '[flt-semantics-identifier="settings-whisting"]'
    ).first.scroll_into_view_if_needed()
    v.shot("new-game-settings")
    tap(page, "back")
    visible(page, "session-players")
    tap(page, "session-players")
    visible(page, "player-stats")
    no_share(page)
    v.shot("players")
    tap(page, "back-to-sessions")

    # The pulya in play: the entry empty, then a contract chosen (the calls' rows).
    visible(page, f"session-open-{PULYA}")
    tap(page, f"session-open-{PULYA}")
    visible(page, "deal-header")
    v.shot("entry")
    harness.redrawn(page, "declarer-1")
    harness.redrawn(page, "contract-7H")
    visible(page, "call-whist")
    v.shot("entry-contract")
    tap(page, "share-table")
    visible(page, "share-dialog")
    v.shot("share")
    page.keyboard.press("Escape")
    expect(page.locator('[flt-semantics-identifier="share-dialog"]')).to_have_count(
        0, timeout=10000
    )
    tap(page, "nav-sheet")
    visible(page, "sheet-picture")
    v.shot("sheet")
    tap(page, "sheet-table-view")
    visible(page, "sheet-table")
    v.shot("sheet-table")
    tap(page, "sheet-drawing")  # the view chosen is kept: the drawing again for the others
    visible(page, "sheet-picture")
    tap(page, "nav-history")
    visible(page, "deal-1")
    v.shot("history")
    tap(page, "nav-settle")
    visible(page, "balance-0")
    v.shot("cash-out")
    tap(page, "nav-chart")
    visible(page, "chart")
    v.shot("chart")

    v.open(FINISHED, "play-on")
    v.shot("finished")
    v.open(FOUR, "deal-header")
    v.shot("four-entry")
    tap(page, "nav-sheet")
    visible(page, "sheet-picture")
    v.shot("four-sheet")
    for sid, family, sheet in (
        (BULA, "bula", "sheet-player-0"),
        (KASSA, "kassa", "sheet-player-0"),
        (POT, "pot", "pot-summary"),
    ):
        v.open(sid, "deal-header")
        v.shot(f"{family}-entry")
        harness.redrawn(page, "declarer-1")  # the family's own grid of contracts
        v.shot(f"{family}-entry-declarer")
        tap(page, "nav-sheet")
        visible(page, sheet)
        v.shot(f"{family}-sheet")
        tap(page, "nav-settle")
        visible(page, "cash-0-result")
        v.shot(f"{family}-cash-out")
    assert v.overflows == {}, f"text past the screen's edge at {width} px: {v.overflows}"
