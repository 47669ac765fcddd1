"""Benchmark the app.

    python benchmarks/bench_app.py [--repeat 30] [--no-browser]

Targets on the project's 2-core machines: server-side time from "confirm deal" to the updated
sheet ≤ 50 ms median for a 100-deal session (a real Flet Page without a client, the handler run
as the client's click runs it); the app painted in the browser ≤ 5 s after the page is opened
(headless Debian chromium: from goto until the first screen's controls exist and two
screenshots agree).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from flet_fakes import by_id, fire, make_page  # noqa: E402

from scorepad.app.entry import entry_screen  # noqa: E402
from scorepad.app.sheet import sheet_screen  # noqa: E402
from scorepad.app.shell import Shell  # noqa: E402
from scorepad.generate import RandomChooser, random_session  # noqa: E402
from scorepad.store import Store  # noqa: E402


async def confirm_times(repeat: int, folder: Path) -> list[float]:
    page, session, _ = make_page()
    raw = random_session(RandomChooser(100), deals=100, corrections=False)
    with Store(folder / "bench.db", check_same_thread=False) as store:
        sid = store.import_session(json.dumps(raw))
        shell = Shell(page, store, "en", threading.RLock())
        shell.sid = sid
        times = []
        for _ in range(repeat):
            form = shell.new_form()
            form.choose_kind("raspasy")
            form.step(form.trick_seats()[0], 3)
            form.step(form.trick_seats()[1], 3)
            shell.show(entry_screen)
            button = by_id(page, "confirm-deal")
            start = time.perf_counter()
            await fire(session, button)
            shell.show(sheet_screen)  # the updated sheet
            times.append(time.perf_counter() - start)
        return times


def painted(folder: Path) -> float:
    """Seconds from opening the page until the first screen is there and has stopped changing."""
    from playwright.sync_api import sync_playwright
    from test_app_e2e import ARGS, CHROMIUM, running_app, semantics_on

    with running_app(folder / "paint.db") as (url, _db), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 360, "height": 740})
        page.route(
            "**/*",
            lambda r: (
                r.continue_()
                if r.request.url.startswith(("http://127.0.0.1", "blob:", "data:"))
                else r.abort()
            ),
        )
        start = time.perf_counter()
        page.goto(url)
        semantics_on(page)
        page.locator('[flt-semantics-identifier="session-new"]').wait_for(timeout=60000)
        prev = None
        while (png := page.screenshot()) != prev:
            prev = png
            page.wait_for_timeout(100)
        elapsed = time.perf_counter() - start
        browser.close()
        return elapsed


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=Path(__file__).resolve().parent) as tmp:
        times = asyncio.run(confirm_times(args.repeat, Path(tmp)))
        print(
            f"confirm a deal → updated sheet, 100-deal session: median {statistics.median(times) * 1000:6.1f} ms"
            "   target ≤ 50 ms"
        )
        if not args.no_browser:
            print(
                f"app painted in the browser after opening:         {painted(Path(tmp)):6.2f} s"
                "    target ≤ 5 s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
