"""The app in a real browser: headless Debian chromium driven by Playwright (see the Flet guide).

Every screen is screenshotted into ``screenshots/`` (looked at by a person before landing).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
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

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="needs Debian chromium (scripts/test installs it)"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("e2e") / "scorepad.db"
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
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.time() + 60
    while True:
        if proc.poll() is not None:
            raise RuntimeError(
                f"the app exited: {proc.stdout.read().decode() if proc.stdout else ''}"
            )
        try:
            urllib.request.urlopen(url, timeout=1).read()
            break
        except OSError:
            if time.time() > deadline:
                proc.kill()
                raise
            time.sleep(0.2)
    yield url, db
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


def open_app(browser: Any, url: str, width: int, height: int) -> Any:
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(("http://127.0.0.1", "blob:", "data:"))
            else route.abort()
        ),
    )
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60000)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    expect(page.locator("flt-semantics").first).to_be_attached(timeout=60000)
    return page


def tap(page: Any, ident: str) -> None:
    try:
        page.locator(f'[flt-semantics-identifier="{ident}"]').first.click(timeout=15000)
    except Exception:
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"failed-{ident}.png"))
        raise


def shot(page: Any, name: str) -> bytes:
    """A screenshot once two captures agree (the canvas paints after the semantics tree)."""
    SHOTS.mkdir(exist_ok=True)
    prev, deadline = None, time.time() + 10
    while time.time() < deadline:
        png = page.screenshot()
        if png == prev:
            break
        prev = png
        page.wait_for_timeout(300)
    assert prev is not None
    (SHOTS / f"{name}.png").write_bytes(prev)
    return prev


def visible(page: Any, ident: str) -> None:
    from playwright.sync_api import expect

    expect(page.locator(f'[flt-semantics-identifier="{ident}"]').first).to_be_visible(timeout=10000)


def has_text(page: Any, ident: str, text: str) -> None:
    from playwright.sync_api import expect

    expect(page.locator(f'[flt-semantics-identifier="{ident}"]').first).to_have_text(
        text, timeout=10000
    )


def text_of(page: Any, ident: str) -> str:
    return str(page.locator(f'[flt-semantics-identifier="{ident}"]').first.inner_text())


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)], ids=["phone", "laptop"])
def test_an_evening_through_the_ui_settles_like_the_cli(
    browser: Any, server: tuple[str, Path], width: int, height: int
) -> None:
    from playwright.sync_api import expect

    url, db = server
    page = open_app(browser, url, width, height)
    size = "phone" if width < 500 else "laptop"
    expect(page.locator('[flt-semantics-identifier="session-new"]')).to_be_visible(timeout=30000)
    shot(page, f"{size}-01-sessions")
    tap(page, "session-new")
    for i, name in enumerate(["Anna", "Boris", "Vera"]):
        field = page.get_by_label(f"Player {i + 1}")
        field.click()
        field.fill(name)
    shot(page, f"{size}-02-new-session")
    tap(page, "create-session")
    expect(page.get_by_text("Deal 1: Anna deals, Boris leads.")).to_be_visible(timeout=15000)

    # Deal 1: Boris 7♠, Vera whists, Anna passes; the defence takes 3.  Each tap waits for the
    # screen it causes, so no click lands on the previous drawing.
    tap(page, "declarer-1")
    visible(page, "level-7")
    tap(page, "level-7")
    visible(page, "trump-S")
    tap(page, "trump-S")
    visible(page, "call-whist")
    tap(page, "call-whist")
    has_text(page, "calls-said", "Calls: whist")
    tap(page, "call-pass")
    has_text(page, "calls-said", "Calls: whist, pass")
    for n in (1, 2, 3):
        tap(page, "tricks-2-plus")
        has_text(page, "tricks-2", str(n))
    expect(page.get_by_text("Boris made 7♠: 4 into his pulya.")).to_be_visible(timeout=10000)
    shot(page, f"{size}-03-deal-entry")
    tap(page, "confirm-deal")
    expect(page.get_by_text("Deal 2: Boris deals, Vera leads.")).to_be_visible(timeout=10000)

    # Deal 2: all pass, Vera 4, Anna 3, Boris the rest (3).
    tap(page, "kind-raspasy")
    visible(page, "tricks-2-plus")
    for seat, n in ((2, 4), (0, 3)):
        for k in range(1, n + 1):
            tap(page, f"tricks-{seat}-plus")
            has_text(page, f"tricks-{seat}", str(k))
    tap(page, "confirm-deal")
    expect(
        page.get_by_text("All-passes in a row: 1. A contract of 6 or higher ends the series.")
    ).to_be_visible(timeout=10000)

    # Deal 3: Anna's misère, clean.
    tap(page, "kind-misere")
    visible(page, "declarer-0")
    tap(page, "declarer-0")
    expect(page.get_by_text("Anna made the misère: 10 into his pulya.")).to_be_visible(
        timeout=10000
    )
    tap(page, "confirm-deal")
    expect(page.get_by_text("Deal 4: Anna deals, Boris leads.")).to_be_visible(timeout=10000)

    tap(page, "nav-sheet")
    expect(page.locator('[flt-semantics-identifier="sheet-table"]')).to_be_visible(timeout=10000)
    shot(page, f"{size}-04-sheet")
    tap(page, "nav-history")
    # A deal's lines form one semantics group; its void button has a stable id.
    expect(page.locator('[flt-semantics-identifier="void-3"]')).to_be_visible(timeout=10000)
    shot(page, f"{size}-05-history")
    tap(page, "nav-settle")
    expect(page.locator('[flt-semantics-identifier="balance-0"]')).to_be_visible(timeout=10000)
    shot(page, f"{size}-06-settlement")
    on_screen = [text_of(page, f"balance-{p}") for p in range(3)]

    # The same session, exported, settled by the real CLI.
    sessions = subprocess.run(
        [sys.executable, "-m", "scorepad.cli", "--db", str(db), "sessions"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    sid = sessions.split()[0]
    exported = subprocess.run(
        [sys.executable, "-m", "scorepad.cli", "--db", str(db), "export", sid, "-"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    settled = json.loads(
        subprocess.run(
            [sys.executable, "-m", "scorepad.cli", "settle", "-", "--json"],
            cwd=ROOT,
            input=exported,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    names = settled["players"]
    expected = [
        f"{names[p]}: {settled['balance'][p]} whists, {settled['money'][p]} RUB" for p in range(3)
    ]
    # The screen agrees in number (plural words aside: "1 whist", "2 whists").
    for shown, want in zip(on_screen, expected, strict=True):
        assert (
            shown.split(",")[1:] == want.split(",")[1:]
            and shown.split(" ")[1] == want.split(" ")[1]
        )
    page.context.close()
