"""Starting the real hosted server (``python -m scorepad.cli serve``) for the browser tests of
tests/test_hosted_*_e2e.py: on 127.0.0.1 (which gives no rights there), its log checked for a
traceback when it stops; and their phones (each its own browser context: its own device), with
the worker that holds each page."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from e2e.harness import local_only, semantics_on, shot, tap, text_of, visible

from scorepad.app.server.server import WORKER_HEADER
from support.table_server import ROOT, free_port, stop, wait_ready

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}


@contextmanager
def serving(db: str, logs: Path, *extra: str) -> Iterator[str]:
    """``scorepad serve --db DB EXTRA…`` until the block ends: its base address."""
    port = free_port()
    env = dict(os.environ, FLET_WEB_NO_CDN="1")
    env.pop("DISPLAY", None)
    env.pop("SCOREPAD_ADMIN_SECRET", None)
    log = logs / f"server-{port}.log"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scorepad.cli",
            "serve",
            "--lang",
            "en",
            "--db",
            db,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            *extra,
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_ready(proc, f"http://127.0.0.1:{port}/", log)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc)
        assert "Traceback" not in log.read_text(errors="replace"), log.read_text()


#: Each page's workers, as its WebSocket handshakes named them (server.WORKER_HEADER).
HANDSHAKES: dict[int, list[str]] = {}
WORKER = WORKER_HEADER.decode()


def opened(browser: Any, url: str, size: dict[str, int] = PHONE) -> Any:
    """A phone (a new browser context) that opened ``url``, its app's semantics on."""
    (page,) = phones(browser, url, 1, size)
    return page


def phones(browser: Any, url: str, n: int, size: dict[str, int] = PHONE) -> list[Any]:
    """``n`` phones opening ``url`` at once, as a table's phones do: their pages connect while
    a worker is busy drawing another's, so the kernel gives some to the other worker (one
    phone after another all reach the idle one)."""
    pages = [local_only(browser.new_context(viewport=size)).new_page() for _ in range(n)]
    for page in pages:
        # Which worker holds the page: its WebSocket's handshake says (read through Chromium's
        # DevTools protocol; the page's HTTP requests may reach another worker).
        said = HANDSHAKES.setdefault(id(page), [])
        devtools = page.context.new_cdp_session(page)
        devtools.send("Network.enable")
        devtools.on(
            "Network.webSocketHandshakeResponseReceived",
            lambda event, said=said: said.extend(
                v for k, v in event["response"]["headers"].items() if k.lower() == WORKER
            ),
        )
    for page in pages:
        page.goto(url, wait_until="commit")
    for page in pages:
        semantics_on(page)
    return pages


def worker(page: Any) -> str:
    """The worker holding ``page`` (its latest handshake's: ``1`` to N)."""
    said = HANDSHAKES[id(page)]
    assert said, "the page's handshake named no worker"
    return said[-1]


def tab(page: Any, url: str) -> Any:
    """A new tab of the same browser (its storage: the same device) opened at ``url``; the same
    tab would reconnect to the page it showed (kept for a reload), not open the address."""
    fresh = page.context.new_page()
    fresh.goto(url)
    semantics_on(fresh)
    return fresh


def hand_over_code(page: Any, button: str, screenshot: str) -> str:
    """The one-time code's address the owner's ``button`` shows (its dialog closed after)."""
    tap(page, button)
    visible(page, "hand-over-dialog")
    shot(page, screenshot)
    take = re.sub(r"\s+", "", text_of(page, "hand-over-url"))
    tap(page, "hand-over-close")
    return take
