"""The app in a real browser: headless Debian chromium driven by Playwright (see the Flet guide).

Every screen is screenshotted into ``screenshots/`` (looked at by a person before landing).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Flutter redraws asynchronously and its semantics tree trails the canvas; the driver waits for a
# state only the next screen has, but a rare race remained (about one run in eight, cause not yet
# caught: every failed wait now saves screenshots/failed-*.png). One rerun: a real fault fails twice.
pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)
#: Two halves on CI's two workers (conftest.py): the phone's scenarios and the laptop's.
XDIST_SPLIT = "width"
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    with running_app(tmp_path_factory.mktemp("e2e") / "scorepad.db") as found:
        yield found


@contextmanager
def running_app(db: Path) -> Iterator[tuple[str, Path]]:
    port = _free_port()
    env = dict(os.environ, FLET_WEB_NO_CDN="1")
    env.pop("DISPLAY", None)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scorepad.cli",
            "--lang",
            "en",
            "--db",
            str(db),
            "--web",
            "--port",
            str(port),
        ],
        cwd=ROOT,
        env=env,
        stdout=(db.parent / "app.log").open(
            "wb"
        ),  # read on failure; a pipe could fill and stall it
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.time() + 60
    while True:
        if proc.poll() is not None:
            raise RuntimeError(
                f"the app exited: {(db.parent / 'app.log').read_text(errors='replace')}"
            )
        try:
            urllib.request.urlopen(url, timeout=1).read()
            break
        except OSError:
            if time.time() > deadline:
                proc.kill()
                raise
            time.sleep(0.2)
    try:
        yield url, db
    finally:  # a failed test must not leave its server running
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


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
    engine is ready is ignored.
    """
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60000)
    deadline = time.time() + 60
    while time.time() < deadline:
        page.evaluate("document.querySelector('flt-semantics-placeholder')?.click()")
        try:
            page.wait_for_selector("[flt-semantics-identifier]", state="attached", timeout=2000)
            return
        except Exception:
            continue
    raise AssertionError("the app's semantics tree never appeared")


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
    """Type into a text field as a player does: scrolled into view and the canvas settled (the
    focusing click goes by coordinates, see ``tap``), then typed.

    Flutter takes the focus in two steps: the DOM input first, its text editing a moment later,
    and on a loaded machine the second step can come after the typing and put the field's old
    text back. So the text must stay in the field for a while; if it is put back, type again.
    """
    for attempt in range(5):
        try:
            field.scroll_into_view_if_needed(timeout=15000)
            settle(page)
            field.click()
            field.fill(text)
            if _stays(page, field, text):
                return
        except Exception as exc:
            if attempt < 4 and "not attached" in str(exc):
                continue
            _on_failure(page, "type")
            raise
    _on_failure(page, "type")
    raise AssertionError(f"the field never kept {text!r}")


def _stays(page: Any, field: Any, text: str) -> bool:
    """Whether the field shows ``text`` at six reads in a row, 250 ms apart."""
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

    try:
        expect(page.locator(f'[flt-semantics-identifier="{ident}"]').first).to_be_visible(
            timeout=10000
        )
    except AssertionError:
        _on_failure(page, f"visible-{ident}")
        raise


def choose_language(page: Any, name: str) -> None:
    """Choose a language in the first screen's list by its own name ("Русский", "Deutsch")."""
    tap(page, "language")
    page.get_by_role("button", name=name, exact=True).last.click()


def has_text(page: Any, ident: str, text: str) -> None:
    from playwright.sync_api import expect

    try:
        expect(page.locator(f'[flt-semantics-identifier="{ident}"]').first).to_have_text(
            text, timeout=10000
        )
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

    def dealer(self) -> int:
        return (self.number - 1) % self.players

    def active(self) -> list[int]:
        d = self.dealer()
        seats = [(d + k) % self.players for k in range(1, self.players + 1)]
        return [s for s in seats if not (self.players == 4 and s == d)]

    def defenders(self, declarer: int) -> list[int]:
        order = [(declarer + k) % self.players for k in range(1, self.players)]
        return [s for s in order if not (self.players == 4 and s == self.dealer())]

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


def settle_matches_cli(page: Any, db: Path, players: int) -> None:
    tap(page, "nav-settle")
    visible(page, "balance-0")
    on_screen = [text_of(page, f"balance-{p}") for p in range(players)]
    sid = subprocess.run(
        [sys.executable, "-m", "scorepad.cli", "--db", str(db), "sessions"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()[0]
    settled = subprocess.run(
        [sys.executable, "-m", "scorepad.cli", "--lang", "en", "--db", str(db), "settle", sid],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    # The screen says the same whole sentences as `scorepad settle` (one formatting for both).
    start = settled.index(text_of(page, "settle-status"))
    assert on_screen == settled[start + 1 : start + 1 + players]


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)], ids=["phone", "laptop"])
def test_a_sochi_evening_of_15_deals_through_the_ui(
    browser: Any, server: tuple[str, Path], width: int, height: int
) -> None:
    from playwright.sync_api import expect

    url, db = server
    size = "phone" if width < 500 else "laptop"
    page = open_app(browser, url, width, height)
    visible(page, "session-new")
    shot(page, f"{size}-01-sessions")
    new_session(page, ["Anna", "Boris", "Vera"], target="10")
    shot(page, f"{size}-02-new-session")
    tap(page, "create-session")
    expect(page.get_by_text("Deal 1: Anna deals, Boris leads.")).to_be_visible(timeout=15000)
    t = Table(page, 3)
    t.game(1, "7S", ["whist", "pass"], {1: 7, 2: 3})  # 1 whist-pass, made
    t.game(2, "6H", ["whist", "whist"], {2: 5, 0: 3})  # 2 both whist, down one
    t.raspasy({0: 3, 1: 4})  # 3 all pass
    t.raspasy({1: 2, 2: 5})  # 4 all pass again: ×2
    expect(page.get_by_text("All-passes in a row: 2.", exact=False)).to_be_visible(timeout=10000)
    shot(page, f"{size}-03-deal-entry-raspasy")
    t.game(0, "6S", ["pass", "half", "pass"])  # 5 half-whist stands
    t.misere(1)  # 6 misère made: Boris's pool closes, 4 help
    t.game(2, "8NT", ["pass", "pass"])  # 7 nobody whists
    t.game(0, "7D", ["whist", "pass"], {0: 6, 1: 3})  # 8 down one
    t.game(1, "6C", ["whist", "whist"], {1: 6, 2: 2})  # 9 made past a closed pool: help
    t.misere(0, 1)  # 10 misère caught for one
    t.game(2, "7H", ["whist", "pass"], {2: 8, 0: 1})  # 11 made with an overtrick
    t.raspasy({0: 2, 1: 4})  # 12 all pass
    t.finishing = True
    t.game(0, "9S", ["pass", "whist"], {0: 9, 1: 0})  # 13 pass-whist, made: every pool closed
    has_text(page, "pulka-finished", "The game is finished: every pulya is closed.")
    assert page.locator('[flt-semantics-identifier="confirm-deal"]').count() == 0  # no silent deal
    shot(page, f"{size}-04-finished")
    tap(page, "play-on")
    expect(page.locator('[flt-semantics-identifier="deal-header"]').first).to_contain_text(
        "Deal 14:", timeout=15000
    )
    has_text(page, "playing-on", "Every pool is closed; the table plays on.")
    t.game(1, "6D", ["whist", "whist"], {1: 4, 2: 3})  # 14 down two
    t.game(2, "6S", ["pass", "pass"])  # 15 nobody whists
    shot(page, f"{size}-04-deal-entry")

    tap(page, "nav-sheet")
    visible(page, "sheet-picture")
    shot(page, f"{size}-05-pulya")
    tap(page, "sheet-table-view")
    visible(page, "sheet-table")
    assert (
        "✓" in text_of(page, "pool-1")
        or "✓" in page.locator('[flt-semantics-identifier="sheet-table"]').inner_text()
    )
    shot(page, f"{size}-05-sheet")

    # Edit deal 8 (Anna took 7, not 6), then undo the edit.
    tap(page, "nav-history")
    visible(page, "edit-8")
    shot(page, f"{size}-06-history")
    tap(page, "edit-8")
    visible(page, "editing")
    t.set_tricks(0, 7)
    field = page.get_by_label("Reason for the change")
    type_text(page, field, "miscounted")
    shot(page, f"{size}-07-edit")
    tap(page, "confirm-deal")
    visible(page, "undo")
    tap(page, "undo")
    expect(page.locator('[flt-semantics-identifier="redo"]').first).to_be_enabled(timeout=10000)

    # A reload loses nothing.
    page.reload()
    semantics_on(page)
    # Flet may reconnect the tab to its live session (the same screen) or start afresh (the list).
    page.wait_for_selector(
        '[flt-semantics-identifier="nav-entry"], [flt-semantics-identifier^="session-open-"]',
        timeout=30000,
    )
    if page.locator('[flt-semantics-identifier="nav-entry"]').count():
        tap(page, "nav-entry")
    else:
        page.locator('[flt-semantics-identifier^="session-open-"]').first.click(timeout=30000)
        # A fresh tab asks again whether the finished pulka goes on.
        tap(page, "play-on")
    expect(page.locator('[flt-semantics-identifier="deal-header"]').first).to_contain_text(
        "Deal 16:", timeout=15000
    )

    settle_matches_cli(page, db, 3)
    shot(page, f"{size}-08-settlement")
    tap(page, "nav-chart")
    visible(page, "chart")
    shot(page, f"{size}-09-chart")
    page.context.close()


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)], ids=["phone", "laptop"])
def test_a_leningrad_session_of_4_players_8_deals(
    browser: Any, tmp_path_factory: pytest.TempPathFactory, width: int, height: int
) -> None:
    from playwright.sync_api import expect

    with running_app(tmp_path_factory.mktemp("four") / "four.db") as (url, db):
        page = open_app(browser, url, width, height)
        size = "phone" if width < 500 else "laptop"
        visible(page, "session-new")
        new_session(page, ["Anna", "Boris", "Vera", "Gleb"], convention="Leningrad")
        tap(page, "show-settings")
        visible(page, "setting-game_price")
        shot(page, f"four-{size}-00-settings")
        tap(page, "create-session")
        expect(page.get_by_text("Deal 1: Anna deals, Boris leads.")).to_be_visible(timeout=15000)
        t = Table(page, 4)
        # Leningrad allows whist–pass–half: after whist–pass the whister is asked again.
        t.game(1, "6S", ["whist", "pass", "pass"], {1: 6, 2: 3})  # 1 Anna deals and sits out
        t.raspasy({1: 1, 2: 3, 3: 3})  # 2 Boris's talon takes one
        t.game(
            3, "7H", ["pass", "half", "pass", "pass"]
        )  # 3 half-whist; the dealer does not return
        t.misere(0)  # 4
        t.game(
            2, "8C", ["pass", "pass", "whist"], {2: 7, 3: 2}
        )  # 5 the dealer whists after two passes
        t.game(3, "6NT", ["whist", "whist"], {3: 6, 0: 2})  # 6
        t.raspasy({2: 0, 3: 4, 0: 3})  # 7 Vera's talon takes none (a count chosen, not assumed)
        t.game(1, "7S", ["whist", "pass", "pass"], {1: 7, 2: 2})  # 8
        shot(page, f"four-{size}-01-deal-entry")
        tap(page, "nav-sheet")
        visible(page, "sheet-picture")
        shot(page, f"four-{size}-02-pulya")
        tap(page, "sheet-table-view")
        visible(page, "sheet-table")
        shot(page, f"four-{size}-02-sheet")
        settle_matches_cli(page, db, 4)
        shot(page, f"four-{size}-03-settlement")
        page.context.close()

    # A server restart loses nothing either.
    with running_app(db) as (url2, _db):
        page = open_app(browser, url2, width, height)
        page.locator('[flt-semantics-identifier^="session-open-"]').first.click(timeout=30000)
        expect(page.locator('[flt-semantics-identifier="deal-header"]').first).to_contain_text(
            "Deal 9:", timeout=15000
        )
        page.context.close()


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)], ids=["phone", "laptop"])
def test_in_russian_a_refusal_the_settings_the_picker_and_the_end_of_the_pulka(
    browser: Any, tmp_path_factory: pytest.TempPathFactory, width: int, height: int
) -> None:
    """The visible fixes in Russian: a refusal in Russian that goes once fixed (a decimal comma
    accepted), the settings as a form, the tricks picker, the write button on screen for a lone
    whist, and a finished pulka that writes no deal until the table chooses to play on."""
    from playwright.sync_api import expect

    size = "phone" if width < 500 else "laptop"
    with running_app(tmp_path_factory.mktemp("ru") / "ru.db") as (url, _db):
        page = open_app(browser, url, width, height)
        visible(page, "session-new")
        choose_language(page, "Русский")
        expect(page.get_by_text("Новая пулька", exact=True)).to_be_visible(timeout=10000)
        shot(page, f"ru-{size}-01-sessions")
        tap(page, "session-new")
        visible(page, "players-4")
        for i, name in enumerate(["Аня", "Боря", "Вера"]):
            field = page.get_by_label(f"Игрок {i + 1}")
            type_text(page, field, name)
        expect(page.locator('[flt-semantics-identifier="create-session"]').first).to_be_enabled(
            timeout=10000
        )
        target = page.get_by_label("Размер пули")
        type_text(page, target, "2")
        price = page.get_by_label("Цена виста")
        refusal = "цена виста должна быть больше нуля, например 0,5 или 1"
        listen_to_announcements(page)
        type_text(page, price, "-1")
        has_text(page, "message", refusal)
        # A live region: Flutter hands the sentence to its polite announcer, which a screen
        # reader reads out when it appears (and Flutter empties again a moment later).
        page.wait_for_function(
            "text => window.announced.includes(text)", arg=refusal, timeout=10000
        )
        shot(page, f"ru-{size}-02-refusal")
        tap(page, "create-session")
        has_text(page, "message", refusal)  # nothing started
        price = page.get_by_label("Цена виста")
        type_text(page, price, "0,5")
        expect(page.locator('[flt-semantics-identifier="message"]')).to_have_count(0)
        tap(page, "show-settings")
        visible(page, "settings-whisting")
        whisting = page.locator('[flt-semantics-identifier="setting-whist_trick_factor"]').first
        whisting.scroll_into_view_if_needed(timeout=15000)
        # Its name and one-line meaning, in Russian, without the rule book's section number.
        expect(whisting).to_have_attribute(
            "aria-label",
            "Висты за взятку защиты\nВисты защитника за взятку: цена игры, умноженная на это число.",
            timeout=10000,
        )
        assert "§" not in page.locator("flt-semantics-host").inner_text()
        shot(page, f"ru-{size}-03-settings")
        tap(page, "create-session")
        expect(page.get_by_text("Сдача 1: сдаёт Аня, ходит Боря.")).to_be_visible(timeout=15000)

        # A lone whist: the picker, and the write button on screen without scrolling.
        t = Table(page, 3, lang="ru")
        tap(page, "declarer-1")
        visible(page, "contract-6C")
        # No contract yet: the preview asks for it.
        expect(page.locator('[flt-semantics-identifier="preview"]').first).to_contain_text(
            CHOOSE_CONTRACT_RU, timeout=10000
        )
        t.game_calls(1, "6C", ["whist", "pass"])
        t.set_tricks(1, 6)
        t.set_tricks(2, 3)
        has_text(page, "tricks-0", "1")
        expect(page.locator('[flt-semantics-identifier="confirm-deal"]').first).to_be_in_viewport()
        shot(page, f"ru-{size}-04-tricks")
        t.confirm()
        # Vera and Anna each make a six nobody whists: every pool (to 2) is closed.
        t.game(2, "6S", ["pass", "pass"])
        t.finishing = True
        t.game(0, "6S", ["pass", "pass"])
        has_text(page, "pulka-finished", "Пулька закончена: все пули закрыты.")
        assert page.locator('[flt-semantics-identifier="confirm-deal"]').count() == 0
        shot(page, f"ru-{size}-05-finished")
        tap(page, "play-on")
        has_text(page, "playing-on", "Все пули закрыты; стол играет дальше.")
        shot(page, f"ru-{size}-06-play-on")
        tap(page, "nav-settle")
        visible(page, "balance-0")
        shot(page, f"ru-{size}-07-settlement")
        tap(page, "nav-sheet")
        visible(page, "sheet-picture")
        shot(page, f"ru-{size}-08-sheet")
        tap(page, "nav-history")
        visible(page, "deal-1")
        shot(page, f"ru-{size}-09-history")
        tap(page, "nav-chart")
        visible(page, "chart")
        shot(page, f"ru-{size}-10-chart")
        page.context.close()


# --- one deal on one screen, and its taps (issue #27) ---------------------------------------

TAPS_HEAD = "| Deal | Taps |"
TAP_KINDS = {
    "made-not-whisted": "Made, not whisted",
    "whist-pass": "Made, one whists, the other passes",
    "both-whist": "Down one, both whist, the calls one by one",
    "made-both-whist": "Made, both whist",
    "misere": "Misère, made",
    "raspasy": "All pass (three players)",
}


def readme_taps() -> dict[str, int]:
    """The tap counts the README states (its table under ``TAPS_HEAD``)."""
    lines = [line.strip() for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()]
    start = lines.index(TAPS_HEAD) + 2
    rows: dict[str, int] = {}
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        kind, count = (cell.strip() for cell in line.strip("|").split("|"))
        rows[kind] = int(count)
    return rows


class Taps:
    """A player's taps, counted: each waits for what it causes before the next."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def __call__(self, ident: str) -> None:
        redrawn(self.page, ident)
        self.count += 1

    def take(self) -> int:
        n, self.count = self.count, 0
        return n


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


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)], ids=["phone", "laptop"])
def test_a_deal_on_one_screen_and_the_taps_each_kind_takes(
    browser: Any, tmp_path: Path, width: int, height: int, lang: str
) -> None:
    """Each kind of deal entered with the fewest taps, the whole entry on one screen (Write and
    the preview above it in the window, nothing below to scroll to), the counts as the README
    says; a count that cannot be chosen says why when tapped."""
    from playwright.sync_api import expect

    size = "phone" if width < 500 else "laptop"
    ru = lang == "ru"

    def shot_here(name: str) -> None:
        (tmp_path / f"{size}-{lang}-{name}.png").write_bytes(settle(page))

    def header(n: int) -> None:
        expect(page.locator('[flt-semantics-identifier="deal-header"]').first).to_contain_text(
            f"{'Сдача' if ru else 'Deal'} {n}:", timeout=15000
        )

    with running_app(tmp_path / "taps.db") as (url, _db):
        page = open_app(browser, url, width, height)
        visible(page, "session-new")
        if ru:
            choose_language(page, "Русский")  # the list of six languages, not a toggle
            expect(page.get_by_text("Новая пулька", exact=True)).to_be_visible(timeout=10000)
        tap(page, "session-new")
        visible(page, "players-4")
        for i, name in enumerate(["Anna", "Boris", "Vera"]):
            type_text(page, page.get_by_label(f"{'Игрок' if ru else 'Player'} {i + 1}"), name)
        expect(page.locator('[flt-semantics-identifier="create-session"]').first).to_be_enabled(
            timeout=10000
        )
        tap(page, "create-session")
        header(1)
        taps = Taps(page)
        counted: dict[str, int] = {}
        shot_here("0-empty")
        on_one_screen(page, ["declarer-0", "kind-raspasy", "contract-10NT", "kind-misere"])

        # Deal 1, Anna deals: Boris 6♥, nobody whists.
        taps("declarer-1")
        visible(page, "contract-6H")
        taps("contract-6H")
        visible(page, "contract-chosen")
        on_one_screen(page, ["contract-chosen", "call-whist", "call-pass"])
        expect(page.locator('[flt-semantics-identifier="preview"]').first).to_contain_text(
            "Никто не вистовал" if ru else "Nobody whisted", timeout=10000
        )
        shot_here("1-not-whisted")
        taps("confirm-deal")
        header(2)
        counted["made-not-whisted"] = taps.take()

        # Deal 2, Boris deals: Vera 7♠, Anna whists, Boris passes; 7 and 3.
        taps("declarer-2")
        visible(page, "contract-7S")
        taps("contract-7S")
        visible(page, "calls-alone-0")
        on_one_screen(page, ["call-whist", "calls-both", "calls-alone-0", "calls-alone-1"])
        taps("calls-alone-0")  # Anna whists, Boris passes: both calls in one tap
        expect(page.locator('[flt-semantics-identifier="call-undo"]').first).to_have_text(
            "пас" if ru else "pass", timeout=10000
        )
        visible(page, "split-3-0")
        taps("split-3-0")  # made: Vera 7, Anna 3, Boris 0
        has_text(page, "tricks-2", "7")
        has_text(page, "tricks-0", "3")
        has_text(page, "tricks-1", "0")
        on_one_screen(page, ["open-play", "split-0-3", "tricks-2-10", "tricks-0-10", "tricks-1"])
        shot_here("2-whist-pass")
        taps("confirm-deal")
        header(3)
        counted["whist-pass"] = taps.take()

        # Deal 3, Vera deals: Anna's misère, no trick.
        taps("kind-misere")
        taps("declarer-0")
        visible(page, "tricks-0-0")
        taps("tricks-0-0")
        has_text(page, "tricks-0", "0")
        on_one_screen(page, ["contract-chosen", "tricks-0-10"])
        shot_here("3-misere")
        taps("confirm-deal")
        header(4)
        counted["misere"] = taps.take()

        # Deal 4, Anna deals: all pass, 3, 3 and the rest.
        taps("kind-raspasy")
        visible(page, "tricks-1-3")
        taps("tricks-1-3")
        has_text(page, "tricks-1", "3")
        taps("tricks-2-3")
        has_text(page, "tricks-0", "4")
        on_one_screen(page, ["kind-raspasy", "tricks-1-10", "tricks-2-10", "tricks-0"])
        shot_here("4-raspasy")
        taps("confirm-deal")
        header(5)
        counted["raspasy"] = taps.take()

        # Deal 5, Boris deals: Vera 6♦, both whist; 5, Anna 3, Boris the rest.
        taps("declarer-2")
        visible(page, "contract-6D")
        taps("contract-6D")
        visible(page, "call-whist")
        taps("call-whist")  # the calls one by one, as the rows offer them
        expect(page.locator('[flt-semantics-identifier="call-undo"]').first).to_have_text(
            "вист" if ru else "whist", timeout=10000
        )
        taps("call-whist")
        visible(page, "tricks-2-5")
        taps("tricks-2-5")
        has_text(page, "tricks-2", "5")
        taps("tricks-0-3")
        has_text(page, "tricks-1", "2")
        # A count that cannot be: tapped anyway, it says why (not counted: a slip).
        redrawn(page, "tricks-2-8")
        has_text(
            page,
            "message",
            "8 не получится: Anna — уже 3" if ru else "8 is not possible: Anna has 3",
        )
        has_text(page, "tricks-2", "5")
        shot_here("5-refused")
        redrawn(page, "tricks-2-5")  # the same count again: the preview is back
        has_text(page, "tricks-1", "2")
        on_one_screen(page, ["raspasy-series", "tricks-2-10", "tricks-0-10", "tricks-1"])
        shot_here("5-both-whist")
        taps("confirm-deal")
        header(6)
        counted["both-whist"] = taps.take()

        # Deal 6, Vera deals: Anna 6♣, both whist in one tap, made, Boris 2 and Vera 2.
        taps("declarer-0")
        visible(page, "contract-6C")
        taps("contract-6C")
        visible(page, "calls-both")
        taps("calls-both")
        visible(page, "split-2-2")
        taps("split-2-2")
        has_text(page, "tricks-0", "6")
        has_text(page, "tricks-1", "2")
        has_text(page, "tricks-2", "2")
        on_one_screen(page, ["split-4-0", "split-2-2", "tricks-0-10", "tricks-1-10", "tricks-2"])
        shot_here("6-made-both-whist")
        taps("confirm-deal")
        header(7)
        counted["made-both-whist"] = taps.take()

        assert counted == {
            "made-not-whisted": 3,
            "whist-pass": 5,
            "both-whist": 7,
            "misere": 4,
            "raspasy": 4,
            "made-both-whist": 5,
        }
        assert readme_taps() == {TAP_KINDS[k]: n for k, n in counted.items()}
        page.context.close()
