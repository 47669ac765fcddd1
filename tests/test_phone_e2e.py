"""The app that runs on the phone by itself (``scorepad build-app``), in a real browser.

Built with the network cut (``unshare -n``: no request can leave), served by a plain static
server on 127.0.0.1, and driven in Debian's chromium at 360×740 with the helpers of
``harness.py``: the Python of the app runs in the page (Pyodide), its store in the page's
IndexedDB. No Scorepad server runs: after the static server stops, the service worker starts the
app from its cache.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

import pytest
from e2e.harness import (
    ARGS,
    CHROMIUM,
    ROOT,
    Table,
    local_only,
    new_session,
    semantics_on,
    shot,
    tap,
    text_of,
    type_text,
    visible,
)
from e2e.harness import browser as browser

from scorepad.cli import main

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)

#: The first start compiles the runtime and the app on a 2-core machine that others share.
START = 240_000  # ms


class Static:
    """A plain static web server for the built folder, as any host would serve it."""

    TYPES: ClassVar[dict[str, str]] = {
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
    }

    def __init__(self, folder: Path) -> None:
        handler = type(
            "Handler",
            (http.server.SimpleHTTPRequestHandler,),
            {
                "extensions_map": {
                    **http.server.SimpleHTTPRequestHandler.extensions_map,
                    **self.TYPES,
                },
                "log_message": lambda *a: None,
            },
        )
        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(handler, directory=str(folder))
        )
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        with pytest.raises(OSError):  # nothing answers there any more
            urllib.request.urlopen(self.url, timeout=2)


def build_offline(folder: Path, extra: list[str] | None = None) -> str:
    """``scorepad build-app`` in a network namespace of its own: no interface but a down
    loopback, so a build that needs anything from the network fails."""
    done = subprocess.run(
        [
            "unshare",
            "-n",
            sys.executable,
            "-m",
            "scorepad.cli",
            "--lang",
            "en",
            "build-app",
            str(folder),
            *(extra or []),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def built(phone_build: Path) -> Path:
    """The app built once for the test session (tests/conftest.py: ``phone_build``), with the
    network cut; the files that serve it only read it."""
    return phone_build


@pytest.fixture
def static(built: Path) -> Iterator[Static]:
    server = Static(built)
    yield server
    server.httpd.server_close()


def open_phone(browser: Any, url: str) -> Any:
    """A phone-size page that may reach nothing but 127.0.0.1."""
    ctx = local_only(browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US"))
    page = ctx.new_page()
    page.set_default_timeout(START)
    page.goto(url)
    started(page)
    return page


def started(page: Any) -> None:
    """The app's first screen is there (the runtime loaded, the store opened)."""
    semantics_on(page)
    page.wait_for_selector('[flt-semantics-identifier="session-new"]', timeout=START)
    notice = page.locator('[flt-semantics-identifier="live-notice-close"]')
    if notice.count():  # headless chromium does not grant persistent storage: the app says so
        assert "may clear them" in text_of(page, "live-notice")
        tap(page, "live-notice-close")


def reopened(page: Any, deal: int) -> None:
    """After a reload: the list, the game opened, its next deal the one expected."""
    from playwright.sync_api import expect

    started(page)
    page.locator('[flt-semantics-identifier^="session-open-"]').first.click(timeout=30000)
    expect(page.locator('[flt-semantics-identifier="deal-header"]').first).to_contain_text(
        f"Deal {deal}:", timeout=30000
    )


def exported(page: Any, tmp: Path) -> Path:
    """The game saved as a file from the list (a download on the phone)."""
    tap(page, "nav-sessions")
    visible(page, "sessions-list")
    sid = page.locator('[flt-semantics-identifier^="session-open-"]').first.get_attribute(
        "flt-semantics-identifier"
    )
    tap(page, f"session-export-{sid.removeprefix('session-open-')}")
    with page.expect_download(timeout=30000) as info:
        tap(page, "save-export")
    path = tmp / "exported.json"
    info.value.save_as(path)
    return path


def settled(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["--lang", "en", "settle", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def money(text: str) -> str:
    """A money figure as the screen shows it (``−RUB 20.00``), as the JSON writes it."""
    sign = "-" if text.strip().startswith(("−", "-")) else ""
    return sign + "".join(c for c in text if c.isdigit() or c == ".")


def test_a_pulka_on_the_phone_alone_survives_reloads_and_the_server_gone(
    browser: Any, static: Static, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from playwright.sync_api import expect

    page = open_phone(browser, static.url)
    new_session(page, ["Anna", "Boris", "Vera"], target="10")
    tap(page, "create-session")
    expect(page.get_by_text("Deal 1: Anna deals, Boris leads.")).to_be_visible(timeout=30000)
    t = Table(page, 3)
    t.game(1, "7S", ["whist", "pass"], {1: 7, 2: 3})  # 1
    t.game(2, "6H", ["whist", "whist"], {2: 5, 0: 3})  # 2 down one
    t.raspasy({0: 3, 1: 4})  # 3 all pass
    t.raspasy({1: 2, 2: 5})  # 4 all pass again
    t.game(0, "6S", ["pass", "half", "pass"])  # 5 half-whist stands
    t.misere(1)  # 6 misère made
    t.game(2, "8NT", ["pass", "pass"])  # 7 nobody whists
    t.game(0, "7D", ["whist", "pass"], {0: 6, 1: 3})  # 8 down one
    t.game(1, "6C", ["whist", "whist"], {1: 6, 2: 2})  # 9
    t.misere(0, 1)  # 10 misère caught for one
    shot(page, "phone-app-01-deal-11")

    # A reload: the Python of the app starts again in the page, the store from IndexedDB.
    page.reload()
    reopened(page, 11)

    # No server at all: the service worker starts the app from its cache.
    static.stop()
    page.reload()
    reopened(page, 11)
    shot(page, "phone-app-02-from-the-cache")

    # A deal voided (it stays in the file, struck through), then the cash-out.
    tap(page, "nav-history")
    tap(page, "void-2")
    type_text(page, page.get_by_label("Reason"), "misdeal")
    tap(page, "confirm-void")
    visible(page, "voided-title-2")
    tap(page, "nav-settle")
    visible(page, "balance-0")
    balances = [text_of(page, f"balance-{p}") for p in range(3)]
    moneys = [money(text_of(page, f"cash-{p}-money")) for p in range(3)]
    # No picture on the phone (Pillow has no Pyodide build): the cash-out says so instead.
    assert page.locator('[flt-semantics-identifier="save-settlement"]').count() == 0
    assert "copy it as text" in text_of(page, "no-picture")
    shot(page, "phone-app-03-cash-out")

    # Exported as a file, settled on the laptop: the same cash-out.
    path = exported(page, tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [d.get("voided") for d in data["deals"]][:3] == [None, "misdeal", None]
    document = settled(path, capsys)
    assert document["money"] == moneys
    capsys.readouterr()
    assert main(["--lang", "en", "settle", str(path)]) == 0
    text = capsys.readouterr().out.splitlines()
    start = text.index(balances[0])
    assert text[start : start + 3] == balances
    page.context.close()


def family_cash_out_matches(
    page: Any, tmp: Path, capsys: pytest.CaptureFixture[str]
) -> dict[str, Any]:
    """The phone's cash-out (results, money, payments) equals ``settle --json`` of the file the
    phone saves."""
    from test_bula_e2e import EN

    from scorepad.core.i18n import N_
    from scorepad.core.numbers import whist_figure
    from scorepad.report.pulya import money_text

    tap(page, "nav-settle")
    visible(page, "cash-0-result")
    players = page.locator('[flt-semantics-identifier$="-result"]').count()
    shown = [
        (text_of(page, f"cash-{p}-result"), text_of(page, f"cash-{p}-money"))
        for p in range(players)
    ]
    payments = []
    while page.locator(f'[flt-semantics-identifier="payment-{len(payments)}"]').count():
        payments.append(text_of(page, f"payment-{len(payments)}"))
    path = exported(page, tmp)
    session = json.loads(path.read_text(encoding="utf-8"))
    document = settled(path, capsys)
    names, currency = document["players"], session.get("currency", "RUB")

    def amount(figure: str) -> str:
        digits = len(figure.partition(".")[2])
        return money_text(int(figure.replace(".", "")), digits, currency, "en")

    # The screen writes a fraction as the sheet does (114⅔), the JSON exactly (344/3).
    assert shown == [
        (whist_figure(Fraction(document["balance"][p])), amount(document["money"][p]))
        for p in range(len(names))
    ]
    assert payments == [
        EN(
            N_("{payer} → {payee}: {amount}"),
            payer=names[pay["from"]],
            payee=names[pay["to"]],
            amount=amount(pay["amount"]),
        )
        for pay in document["payments"]
    ]
    return document


@pytest.mark.parametrize("family", ["bula", "prefa"])
def test_a_bula_and_a_prefa_game_on_the_phone_alone(
    browser: Any, static: Static, tmp_path: Path, capsys: pytest.CaptureFixture[str], family: str
) -> None:
    from support.evenings import BALKAN, BALKAN_PLAYERS, BALKAN_START, PREFA, PREFA_PLAYERS
    from test_bula_e2e import Entry, new_game

    page = open_phone(browser, static.url)
    if family == "bula":
        new_game(page, BALKAN_PLAYERS, "Balkan bula", {"Starting bula": str(BALKAN_START)})
        table = Entry(page, BALKAN_PLAYERS)
        for k, deal in enumerate(BALKAN, start=1):
            table.bula(deal, last=k == len(BALKAN))
    else:
        new_game(page, PREFA_PLAYERS, "Greek Prefa", {})
        table = Entry(page, PREFA_PLAYERS)
        for deal in PREFA:
            table.prefa(deal)
    static.stop()
    page.reload()
    started(page)
    page.locator('[flt-semantics-identifier^="session-open-"]').first.click(timeout=30000)
    visible(page, "game-finished" if family == "bula" else "deal-header")
    settled_ = family_cash_out_matches(page, tmp_path, capsys)
    assert settled_["balance"] == (
        ["104", "10", "-114"] if family == "bula" else ["60", "-22", "-38"]
    )
    page.context.close()


class Chromium:
    """Debian's chromium as a process of its own (so that it can be killed), with a profile
    folder that outlives it, driven over its DevTools port."""

    command = (CHROMIUM, *ARGS, "--headless=new", "--remote-debugging-port=0")

    def __init__(self, browser: Any, profile: Path) -> None:
        port_file = profile / "DevToolsActivePort"
        port_file.unlink(missing_ok=True)
        self.proc = subprocess.Popen(
            [*self.command, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.time() + 60
        while not port_file.is_file() or not port_file.read_text().strip():
            assert time.time() < deadline and self.proc.poll() is None, "chromium did not start"
            time.sleep(0.2)
        port = port_file.read_text().split()[0]
        self.cdp = browser.browser_type.connect_over_cdp(f"http://127.0.0.1:{port}")

    def page(self, url: str) -> Any:
        page = local_only(self.cdp.contexts[0]).new_page()
        page.set_viewport_size({"width": 360, "height": 740})
        page.set_default_timeout(START)
        page.goto(url)
        started(page)
        return page

    def kill(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        with contextlib.suppress(Exception):
            self.cdp.close()


def test_a_deal_written_is_there_after_the_browser_is_killed(
    browser: Any, static: Static, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    profile = tmp_path / "profile"
    profile.mkdir()
    chromium = Chromium(browser, profile)
    try:
        page = chromium.page(static.url)
        new_session(page, ["Anna", "Boris", "Vera"])
        tap(page, "create-session")
        expect(page.get_by_text("Deal 1: Anna deals, Boris leads.")).to_be_visible(timeout=30000)
        Table(page, 3).game(1, "7S", ["whist", "pass"], {1: 7, 2: 3})  # the screen shows deal 2
    finally:
        chromium.kill()  # at once: the deal's Write answered, nothing else happens
    chromium = Chromium(browser, profile)
    try:
        page = chromium.page(static.url)
        page.locator('[flt-semantics-identifier^="session-open-"]').first.click(timeout=30000)
        expect(page.locator('[flt-semantics-identifier="deal-header"]').first).to_contain_text(
            "Deal 2:", timeout=30000
        )
        tap(page, "nav-history")
        visible(page, "deal-1")
    finally:
        chromium.kill()


def test_the_app_served_below_a_path_of_its_host(browser: Any, tmp_path: Path) -> None:
    """A static host that serves it at /scorepad/ (a project's pages, a shared server)."""
    build_offline(tmp_path / "site" / "scorepad", extra=["--base", "/scorepad/"])
    server = Static(tmp_path / "site")
    try:
        page = open_phone(browser, server.url + "scorepad/")
        visible(page, "session-new")
        page.context.close()
    finally:
        server.stop()
