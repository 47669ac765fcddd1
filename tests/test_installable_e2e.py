"""The served web app as an installable app of its own (issue #36, "A phone that installs it";
issue #35, the phone app served by ``scorepad`` itself): the real server in a process of its
own, headless Debian chromium, every request the browser makes recorded.

- Scorepad's manifest (name, icon, colours), not Flet's;
- no request to anywhere but the server's own origin (Flet's client asked a CDN for its Rive
  runtime on every load);
- a service worker that keeps Scorepad's own screen: a reload with the server gone shows that
  the table is unreachable and nothing written is lost, in the device's language, and the app
  comes back by itself once the server is there again;
- the app that runs on a phone by itself at ``/app/``, built by the server at its first request.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from e2e.harness import ROOT, local_only, new_session, semantics_on, tap
from e2e.harness import browser as browser
from support import table_server

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)


@contextmanager
def serving(db: Path, port: int, cache: Path) -> Iterator[str]:
    """``scorepad --web`` on 127.0.0.1:``port`` (its phone app built into ``cache``; Flet's own
    client as a host gets it, not the tests' no-CDN one)."""
    with table_server.serving(db, port=port, env={"XDG_CACHE_HOME": str(cache)}, no_cdn=False):
        yield f"http://127.0.0.1:{port}/"


def recorded(ctx: Any) -> list[str]:
    """Every request of the context's pages and workers, in order (a request to elsewhere is
    recorded, then refused by local_only, so nothing leaves the machine)."""
    urls: list[str] = []
    ctx.on("request", lambda request: urls.append(request.url))
    return urls


def foreign(urls: list[str], origin: str) -> list[str]:
    return [u for u in urls if not u.startswith((origin, "data:", "blob:"))]


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.status, dict(answer.headers), answer.read()


def test_the_server_serves_scorepads_manifest_worker_and_screen(tmp_path: Path) -> None:
    with serving(tmp_path / "s.db", table_server.free_port(), tmp_path / "cache") as url:
        _status, _headers, body = get(url + "manifest.json")
        manifest = json.loads(body)
        assert (manifest["name"], manifest["short_name"]) == ("Scorepad", "Scorepad")
        assert manifest["theme_color"] == "#2E6B4F"
        for icon in manifest["icons"]:
            assert get(url + icon["src"])[2] == (ROOT / "assets" / icon["src"]).read_bytes()
        page = get(url)[2].decode()
        assert "<title>Scorepad</title>" in page
        assert '<meta name="theme-color" content="#2E6B4F">' in page
        assert "navigator.serviceWorker.register('scorepad-sw.js')" in page
        assert 'href="icons/icon-192.png"' in page and "apple-touch-icon-192" not in page
        status, headers, worker = get(url + "scorepad-sw.js")
        assert status == 200 and headers["content-type"].startswith("text/javascript")
        assert b'const OFFLINE = "scorepad-offline.html"' in worker
        screen = get(url + "scorepad-offline.html")[2].decode()
        for sentence in (
            "The table is unreachable",
            "Стол недоступен",
            "Der Tisch ist nicht erreichbar",
            "Sto nije dostupan",
            "Сто није доступан",
            "Το τραπέζι δεν είναι προσβάσιμο",
        ):
            assert sentence in screen
        assert get(url + "scorepad-alive")[0] == 204
        # The client's Rive runtime is asked of the server itself, not of cdn.jsdelivr.net.
        for name in ("main.dart.js", "main.dart.wasm"):
            assert b"cdn.jsdelivr.net" not in get(url + name)[2]


def test_a_reload_without_the_server_shows_scorepads_screen_and_comes_back_by_itself(
    browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    db, port, cache = tmp_path / "s.db", table_server.free_port(), tmp_path / "cache"
    with serving(db, port, cache) as url:
        origin = url.rstrip("/")
        # A Russian phone: the screen without the server speaks its language.
        ctx = local_only(
            browser.new_context(viewport={"width": 360, "height": 740}, locale="ru-RU")
        )
        urls = recorded(ctx)
        page = ctx.new_page()
        page.goto(url)
        semantics_on(page)
        page.wait_for_selector('[flt-semantics-identifier="session-new"]', timeout=60000)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60000)
        manifest = page.evaluate("fetch('manifest.json').then((r) => r.json())")
        assert manifest["name"] == "Scorepad"
        new_session(page, ["Anna", "Boris", "Vera"])
        tap(page, "create-session")
        page.wait_for_selector('[flt-semantics-identifier="deal-header"]', timeout=60000)
    # The server is gone: a reload gets Scorepad's own screen from the service worker.
    page.reload()
    expect(page.get_by_text("Стол недоступен")).to_be_visible(timeout=30000)
    expect(page.get_by_text("Ничего из записанного не потеряно", exact=False)).to_be_visible()
    assert page.title() == "Scorepad"
    # The server back on its address: the page reconnects by itself, the game is there.
    with serving(db, port, cache):
        semantics_on(page)
        page.wait_for_selector('[flt-semantics-identifier="session-new"]', timeout=60000)
        assert page.locator('[flt-semantics-identifier^="session-open-"]').count() == 1
    assert urls and not foreign(urls, origin), foreign(urls, origin)
    assert any(u.startswith(origin + "/scorepad-offline.html") for u in urls)
    ctx.close()


def test_the_server_serves_the_app_for_a_phone_alone_at_app(browser: Any, tmp_path: Path) -> None:
    """Built by the server at its first request (then kept in the cache folder), its Python
    running in the page: every request to the server's own origin, its worker below /app/."""
    cache = tmp_path / "cache"
    with serving(tmp_path / "s.db", table_server.free_port(), cache) as url:
        status, _headers, body = get(url + "app/")  # waits for the build
        assert status == 200 and b'<base href="/app/">' in body
        assert list(cache.glob("scorepad/phone-app/*/app/scorepad-sw.js"))
        origin = url.rstrip("/")
        ctx = local_only(
            browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US")
        )
        urls = recorded(ctx)
        page = ctx.new_page()
        page.set_default_timeout(240_000)
        page.goto(url + "app/")
        semantics_on(page)
        page.wait_for_selector('[flt-semantics-identifier="session-new"]', timeout=240_000)
        scope = page.evaluate(
            "navigator.serviceWorker.ready.then((r) => new URL(r.scope).pathname)"
        )
        assert scope == "/app/"
        assert urls and not foreign(urls, origin), foreign(urls, origin)
        assert any(u.startswith(origin + "/app/pyodide/") for u in urls)  # Python in the page
        ctx.close()
