"""The browser harness: the app served by the real CLI (``scorepad --web``) and driven in
headless Debian chromium by Playwright (see the Flet guide), as a player's finger would.

The fixtures ``server`` and ``browser`` (one per test file: a file imports them, so pytest
finds them there), and the drivers: ``tap``, ``type_text``, ``visible``, ``Table`` (a deal
entered through the screens) and the checks of what a screen shows.  Screenshots go to
``screenshots/``, a failed wait's as ``failed-*.png``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from support import seats, table_server

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    with running_app(tmp_path_factory.mktemp("e2e") / "scorepad.db") as found:
        yield found


@contextmanager
def running_app(db: Path) -> Iterator[tuple[str, Path]]:
    """The app served by the real CLI (``scorepad --web``, tests/support/table_server.py) with
    the database ``db``: its address and ``db``."""
    with table_server.serving(db) as (url, _port):
        yield url, db


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), (
        f"{CHROMIUM} is missing: run the suite with scripts/test, which installs it"
    )

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


#: Browser contexts a file keeps open across its tests (``KeptPage``): the pages closed after each
#: browser test (tests/conftest.py) are every other.
KEPT: set[Any] = set()


class KeptPage:
    """One phone (360×740, or the size given) on the file's app, kept open across the tests that
    each need only a new session of their own on it: a Flutter page loads in several seconds on a busy machine,
    while going back to the list of sessions, switching the language and opening the test's own
    session is a few taps.  Each test begins at the list of sessions in its language; a test
    that fails gives its page up (tests/conftest.py closes it), so the next begins on a new
    one."""

    def __init__(self, browser: Any, url: str, width: int = 360, height: int = 740) -> None:
        self.browser, self.url, self.size = browser, url, (width, height)
        self.page: Any = None
        self.lang = "en"  # the app's language (`--lang en`) until one is chosen

    def sessions(self, lang: str) -> Any:
        """The page at the list of sessions, in ``lang``."""
        from playwright.sync_api import expect

        from scorepad.core.i18n import LANGUAGE_NAMES, catalog

        if self.page is None or self.page.context not in KEPT:
            self.page = open_app(self.browser, self.url, *self.size)
            KEPT.add(self.page.context)
            self.lang = "en"
        elif self.page.locator('[flt-semantics-identifier="nav-sessions"]').count():
            tap(self.page, "nav-sessions")
        visible(self.page, "session-new")
        if lang != self.lang:
            choose_language(self.page, LANGUAGE_NAMES[lang])
            self.lang = lang
        expect(self.page.locator('[flt-semantics-identifier="session-new"]').first).to_have_text(
            catalog(lang).gettext("New game"), timeout=10000
        )
        return self.page

    def discard(self) -> None:
        if self.page is not None:
            KEPT.discard(self.page.context)
            with suppress(Exception):  # closed with its browser already
                self.page.context.close()
        self.page = None


def local_only(ctx: Any) -> Any:
    """A browser context that reaches nothing but this computer (127.0.0.1): a request to anywhere
    else (a CDN, a font host) is refused, so a page that needs one fails here."""
    ctx.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(("http://127.0.0.1", "blob:", "data:"))
            else route.abort()
        ),
    )
    return ctx


def open_app(browser: Any, url: str, width: int, height: int) -> Any:
    ctx = local_only(browser.new_context(viewport={"width": width, "height": height}))
    page = ctx.new_page()
    page.goto(url)
    semantics_on(page)
    return page


def semantics_on(page: Any) -> None:
    """Flutter draws on a canvas; its accessibility tree (what the tests read) is off until asked for.

    The request is repeated until the tree holds our controls: a click that lands before the
    engine is ready is ignored.  The page itself asks and looks, every 100 ms (a round trip
    from here a time, each waiting seconds for a tree that had come, cost a second or two a page).
    """
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60000)
    try:
        page.wait_for_function(_SEMANTICS_ON, polling=100, timeout=60000)
    except Exception as exc:
        raise AssertionError("the app's semantics tree never appeared") from exc


_SEMANTICS_ON = """() => {
    if (document.querySelector('[flt-semantics-identifier]')) return true;
    document.querySelector('flt-semantics-placeholder')?.click();
    return false;
}"""


def tap(page: Any, ident: str) -> None:
    """Tap a control by its id: by coordinates, as a finger would, when it is on screen; through
    its semantics node's tap action (as a screen reader does) when it is scrolled out of view,
    because Flutter moves its canvas a frame or more after the DOM scrolls and a tap by
    coordinates in between lands on whatever was there."""
    sel = f'[flt-semantics-identifier="{ident}"]'
    for attempt in range(4):
        try:
            node = page.locator(sel).first
            node.wait_for(state="attached", timeout=15000)
            box, view = node.bounding_box(), page.viewport_size
            if ident.startswith("nav-") or (
                box is not None and box["y"] >= 0 and box["y"] + box["height"] <= view["height"]
            ):
                node.click(timeout=15000)  # waits until it is enabled
                return
            # Waits until the control can be tapped (a disabled button has no tap action).
            action = page.locator(
                f"{sel}[flt-tappable]:not([aria-disabled=true]), "
                f"{sel} [flt-tappable]:not([aria-disabled=true])"
            ).first
            action.wait_for(state="attached", timeout=15000)
            action.dispatch_event("click", timeout=15000)
            return
        except Exception as exc:
            # A redraw may replace the node between finding and tapping it: find it again.
            if "not attached" in str(exc) and attempt < 3:
                continue
            _on_failure(page, f"tap-{ident}")
            raise


def type_text(page: Any, field: Any, text: str) -> None:
    """Type into a text field as a player does: scrolled into view (the canvas settled when it
    moved: the focusing click goes by coordinates, see ``tap``), tapped, then typed.

    Flutter takes the focus in two steps: the DOM input first, its text editing a moment later
    (the engine then applies the field's configuration and its old text); typing before the
    second step can see the old text put back. So the typing waits for the second step (the
    input's ``autocorrect`` turned on by the engine), and the text must still be there once the
    browser has drawn two frames after it; if it was put back, type again. A field typed into
    before keeps the engine's ``autocorrect``: it is turned off first, so that the second step
    shows again; a field the engine still edits (focused, as the registry's Name after a
    check-in) has no second step to come. (A field that shows neither, a password's, keeps the
    text through six reads 250 ms apart instead.)
    """
    for attempt in range(5):
        try:
            before = field.bounding_box(timeout=15000)
            field.scroll_into_view_if_needed(timeout=15000)
            if field.bounding_box(timeout=15000) != before:
                settle(page)
            # Already the engine's (focused and configured): typed into at once. Else the
            # engine's mark is taken off, so that its second step can be waited for.
            editing = field.evaluate(_PREPARE, timeout=15000) == "editing"
            field.click()
            editing = editing or _editing(page, field)
            field.fill(text)
            if _stays(page, field, text, editing):
                return
        except Exception as exc:
            if attempt < 4 and "not attached" in str(exc):
                continue
            _on_failure(page, "type")
            raise
    _on_failure(page, "type")
    raise AssertionError(f"the field never kept {text!r}")


# Whether the engine edits the input already; if not, its configuration's mark (the engine
# leaves an input it edited before with autocorrect "on") is taken off to be seen again.
_PREPARE = """el => {
    if (document.activeElement === el && el.getAttribute('autocorrect') === 'on') {
        return 'editing';
    }
    el.setAttribute('autocorrect', 'off');
    return 'fresh';
}"""
# The engine's text editing has taken the focused input: it applies the field's configuration
# (a text field's autocorrect: "on"; the semantics tree draws every field with "off").
_EDITING = """el => document.activeElement === el
    && (el.getAttribute('autocorrect') === 'on' || el.type === 'password')"""
_TWO_FRAMES = """() => new Promise(done =>
    requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"""


def _editing(page: Any, field: Any) -> bool:
    """Whether the engine's text editing took the field (waited for; a field whose editing
    shows no sign of it, a password's, is typed into after the old, timed check instead)."""
    handle = field.element_handle(timeout=15000)
    try:
        page.wait_for_function(_EDITING, arg=handle, timeout=5000)
    except Exception:
        return False
    return handle.get_attribute("type") != "password"


def _stays(page: Any, field: Any, text: str, editing: bool) -> bool:
    """Whether the field still shows ``text`` two frames after the typing (the engine's answer
    to it drawn); where the editing could not be seen to start, at six reads 250 ms apart."""
    if editing:
        page.evaluate(_TWO_FRAMES)
        return bool(field.input_value(timeout=5000) == text)
    for _ in range(6):
        page.wait_for_timeout(250)
        if field.input_value(timeout=5000) != text:
            return False
    return True


def listen_to_announcements(page: Any) -> None:
    """Keep every sentence Flutter hands to the screen reader's announcer in window.announced."""
    page.evaluate(
        """() => {
            window.announced = [];
            const host = document.querySelector('flt-announcement-host');
            new MutationObserver(() => {
                for (const el of host.children) {
                    if (el.textContent) window.announced.push(el.textContent);
                }
            }).observe(host, {subtree: true, childList: true, characterData: true});
        }"""
    )


def settle(page: Any) -> bytes:
    """The screen once two captures agree (the canvas paints after the semantics tree)."""
    prev, deadline = None, time.time() + 10
    while time.time() < deadline:
        png = page.screenshot()
        if png == prev:
            break
        prev = png
        page.wait_for_timeout(150)
    assert prev is not None
    return prev


def shot(page: Any, name: str) -> bytes:
    """A screenshot once two captures agree (the canvas paints after the semantics tree)."""
    SHOTS.mkdir(exist_ok=True)
    prev = settle(page)
    (SHOTS / f"{name}.png").write_bytes(prev)
    return prev


def _on_failure(page: Any, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"failed-{name}.png"))


def visible(page: Any, ident: str) -> None:
    from playwright.sync_api import expect

    node = expect(page.locator(f'[flt-semantics-identifier="{ident}"]').first)
    try:
        in_rounds(lambda ms: node.to_be_visible(timeout=ms), 10000)
    except AssertionError:
        _on_failure(page, f"visible-{ident}")
        raise


def in_rounds(check: Any, timeout: float) -> None:
    """``check(ms)`` (a Playwright ``expect``) until it holds, for ``timeout`` ms in all, asked in
    rounds of 2 s: within a wait of 2.5 s or less Playwright looks every 100 ms, beyond it every
    500 ms, so a state that came a moment after the first looks was seen up to half a second
    late, at every step of every browser test."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        left = (deadline - time.monotonic()) * 1000
        try:
            check(max(1.0, min(2000.0, left)))
            return
        except AssertionError:
            if time.monotonic() >= deadline:
                raise


def choose_language(page: Any, name: str) -> None:
    """Choose a language in the first screen's list by its own name ("Русский", "Deutsch")."""
    tap(page, "language")
    page.get_by_role("button", name=name, exact=True).last.click()


def has_text(page: Any, ident: str, text: str) -> None:
    from playwright.sync_api import expect

    node = expect(page.locator(f'[flt-semantics-identifier="{ident}"]').first)
    try:
        in_rounds(lambda ms: node.to_have_text(text, timeout=ms), 10000)
    except AssertionError:
        _on_failure(page, f"text-{ident}")
        raise


def text_of(page: Any, ident: str) -> str:
    return str(page.locator(f'[flt-semantics-identifier="{ident}"]').first.inner_text())


CHOOSE_CONTRACT_RU = "выберите игру"
CALLS = {"whist": "whist", "pass": "pass", "half": "half-whist"}
CALLS_RU = {"whist": "вист", "pass": "пас", "half": "полвиста"}


class Table:
    """Enters deals through the UI as a player would, each tap waiting for what it causes."""

    def __init__(self, page: Any, players: int, *, lang: str = "en") -> None:
        self.page = page
        self.calls, self.said = (CALLS, "Calls: ") if lang == "en" else (CALLS_RU, "Заявки: ")
        self.header = "Deal" if lang == "en" else "Сдача"
        self.choose_misere = (
            "choose who plays the misère" if lang == "en" else "выберите, кто играет мизер"
        )
        self.players = players
        self.number = 1
        self.finishing = False  # the next deal closes the last open pool

    # Who deals, who is dealt in and who defends: the engine's seating (tests/support/seats.py).
    def dealer(self) -> int:
        return seats.dealer(self.players, self.number)

    def active(self) -> list[int]:
        return list(seats.pulya_table(self.players, self.number).active)

    def defenders(self, declarer: int) -> list[int]:
        return list(seats.pulya_table(self.players, self.number).defenders(declarer))

    def set_tricks(self, seat: int, target: int) -> None:
        """One tap on the seat's 0–10 picker (none when it already shows the count: the wait
        after a tap must be for a change the tap makes)."""
        if text_of(self.page, f"tricks-{seat}") == str(target):
            return
        tap(self.page, f"tricks-{seat}-{target}")
        has_text(self.page, f"tricks-{seat}", str(target))

    def game(
        self, declarer: int, contract: str, calls: list[str], tricks: dict[int, int] | None = None
    ) -> None:
        self.game_calls(declarer, contract, calls)
        if tricks:
            d1 = self.defenders(declarer)[0]
            self.set_tricks(declarer, tricks[declarer])
            self.set_tricks(d1, tricks[d1])
        self.confirm()

    def game_calls(self, declarer: int, contract: str, calls: list[str]) -> None:
        """The declarer, the contract and the calls, each tap waiting for what it causes."""
        from playwright.sync_api import expect

        level, trump = (
            int(contract[:-1] if not contract.endswith("NT") else contract[:-2]),
            ("NT" if contract.endswith("NT") else contract[-1]),
        )
        redrawn(self.page, f"declarer-{declarer}")
        redrawn(self.page, f"contract-{level}{trump}")
        for call in calls:
            visible(self.page, f"call-{call}")
            redrawn(self.page, f"call-{call}")
        if calls:
            expect(self.page.locator('[flt-semantics-identifier="call-undo"]').first).to_have_text(
                self.calls[calls[-1]], timeout=10000
            )

    def misere(self, declarer: int, taken: int = 0) -> None:
        from playwright.sync_api import expect

        redrawn(self.page, "kind-misere")
        # The declarer buttons are on the game screen too: wait for the misère's own prompt.
        expect(self.page.get_by_text(self.choose_misere)).to_be_visible(timeout=10000)
        redrawn(self.page, f"declarer-{declarer}")
        visible(self.page, f"tricks-{declarer}-0")
        self.set_tricks(declarer, taken)
        self.confirm()

    def raspasy(self, tricks: dict[int, int]) -> None:
        """``tricks`` for every seat but the last dealt in (filled in by the form)."""
        redrawn(self.page, "kind-raspasy")
        visible(self.page, f"tricks-{self.active()[0]}-0")
        for seat, n in tricks.items():
            self.set_tricks(seat, n)
        self.confirm()

    def confirm(self) -> None:
        from playwright.sync_api import expect

        tap(self.page, "confirm-deal")
        self.number += 1
        if self.finishing:
            # The last pool closed: the pulka says so and writes nothing more by itself.
            visible(self.page, "pulka-finished")
            self.finishing = False
            return
        expect(self.page.locator('[flt-semantics-identifier="deal-header"]').first).to_contain_text(
            f"{self.header} {self.number}:", timeout=15000
        )


def new_session(
    page: Any, names: list[str], *, target: str | None = None, convention: str | None = None
) -> None:
    from playwright.sync_api import expect

    tap(page, "session-new")
    visible(page, "players-4")
    if len(names) == 4:
        tap(page, "players-4")
        visible(page, "player-3")
    for i, name in enumerate(names):
        field = page.get_by_label(f"Player {i + 1}")
        type_text(page, field, name)
    # The browser delivers typing asynchronously: the start button is enabled once the app has
    # every name, so waiting for it orders the click after the names.
    expect(page.locator('[flt-semantics-identifier="create-session"]').first).to_be_enabled(
        timeout=10000
    )
    if target is not None:
        field = page.get_by_label("Pool target")
        type_text(page, field, target)
    if convention is not None:
        tap(page, "convention")
        page.get_by_role("button", name=convention, exact=True).click()
        expect(page.get_by_text("Doubled whists and gora", exact=False)).to_be_visible(
            timeout=10000
        )
    return None


def redrawn(page: Any, ident: str) -> None:
    """Tap ``ident`` and wait until the screen it draws has replaced the one tapped on (every tap
    on the entry draws a new frame): the next tap never lands on a control going away."""
    from playwright.sync_api import expect

    head = page.locator('[flt-semantics-identifier="deal-header"]').first
    head.wait_for(state="attached", timeout=15000)
    old = head.evaluate("n => n.id")
    tap(page, ident)
    expect(page.locator(f'[id="{old}"]')).to_have_count(0, timeout=15000)


def box_of(page: Any, ident: str) -> dict[str, float]:
    node = page.locator(f'[flt-semantics-identifier="{ident}"]').first
    node.wait_for(state="attached", timeout=15000)
    box = node.bounding_box()
    assert box is not None, ident
    return dict(box)


def on_one_screen(page: Any, idents: list[str]) -> None:
    """The entry needs no scrolling: every control named lies above the preview (which with
    Write lies above the bottom bar of a phone), inside the window."""
    view = page.viewport_size
    bottom = view["height"]
    if view["width"] < 600:  # a phone: the bottom navigation bar is below the entry
        bottom = box_of(page, "nav-entry")["y"]
    preview = box_of(page, "preview")
    limits = {"preview": bottom, "confirm-deal": bottom}
    for ident in [*idents, "preview", "confirm-deal"]:
        box = box_of(page, ident)
        low = limits.get(ident, preview["y"])
        inside = (
            box["x"] >= 0
            and box["y"] >= 0
            and box["x"] + box["width"] <= view["width"] + 0.5
            and box["y"] + box["height"] <= low + 0.5
        )
        if not inside:
            _on_failure(page, f"off-screen-{ident}")
        assert inside, f"{ident} is off the screen: {box} in {view}, bottom {low}"
