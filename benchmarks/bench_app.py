"""Benchmark the app.

    python benchmarks/bench_app.py [--repeat 30] [--no-browser] [--skwasm-only] [--wasm-cache-now]

Targets on the project's 2-core machines: server-side time from "confirm deal" to the updated
sheet ≤ 50 ms median for a 100-deal session (a real Flet Page without a client, the handler run
as the client's click runs it); the app painted in a phone-size page ≤ 3 s cold and ≤ 1.5 s on
the second visit (issue #21; headless Debian chromium: from goto until the first screen is on
screen and stays — see ``painted`` for what is timed).

The second visit is the browser started again on the profile of the first (its HTTP cache and
compiled-code cache on disk), with nothing intercepted: Playwright's request routing, which the
earlier version of this benchmark used to keep the page offline, turns the HTTP cache off, so its
"warm" loads fetched every file again.

First paint, 2026-12-02, the shared 2-core machine under a load average of 11-17 (other
helpers' browser suites running: every time here, the confirm's too, is several times what the
same machine gives when quiet), medians at 360×740 (seconds; the page's own CPU in brackets):

                                              cold              second visit   fetched cold
    auto (skwasm), plain Flet server          5.3               4.5            15.0 MB
    auto (skwasm), tuned, main's server       6.1-7.0 (1.66)    4.4-6.6 (1.37)  5.8 MB
    auto (skwasm), tuned, this server         5.0-6.9 (1.45)    4.6-6.2 (1.45)  5.3 MB
    canvaskit, tuned, this server             12.5              10.1            5.7 MB

(main's and this server's rows: medians of 3-4 loads in each of 3-4 runs, 10-13 loads each,
mostly the two interleaved in one run; the page's CPU from the last two runs.) Quiet (load
under 1, 2026-12-02 05:20, main's server, the profile kept): 2.5 s cold, 1.8-1.9 s on the
second visit; this server at a load of 8, one load each: 2.9 s cold, 2.4 s on the second visit
(page CPU 1.6 and 1.5 s). So the cold goal is met when the machine is quiet and the second-visit one is not:
on a second visit nothing is fetched but a few 304s (the page, the bootstrap, the manifests);
what is left is the browser's: the page's renderer alone spends 1.3-1.5 s of CPU on it (Chromium keeps no
compiled code of the 8.5 MB wasm app: see 2026-12-07, later, for why), then the
server's first screen (one round trip to the browser for the remembered language and device
token, the screen built in 10-30 ms). What the server does for the page
(scorepad/app/server/serve.py): every file from memory with a content ETag, the day's max-age then a 304; Flutter's service
worker (registered and waited for on every visit over HTTPS or localhost, only to unregister
itself) left out of the bootstrap; 17 unused fonts (KaTeX, Cupertino) left out of the font
manifest and the app's DejaVu put in it; the two questions to the browser asked at once; the
engine compressed as soon as the server is up. Under this load none of it moved the second visit
measurably; the cold visit's CPU went from 1.66 to 1.45 s. The renderer Flet picks in Chromium
(skwasm with the wasm build) stays the fast one: CanvasKit with the JavaScript build is about
twice as slow to paint.

Quiet again later on 2026-12-02 (load 0.3 before the run; this server, ``--skwasm-only
--paints 3``): plain Flet server 2.10 s cold, 1.79 s second visit; compressed + cached 1.98 s
cold, 1.77 s second visit (page CPU 1.72 s; the socket open at 1.22 s, the first screen at
1.45 s); the confirm → sheet 22.4 ms.  The second-visit goal is still not met: about 1.0-1.2 s
is the engine starting in the browser, 0.2 s the round trip for the remembered language and
device token, 0.3 s painting the first screen.

2026-12-06, another 2-core VM (quiet, load under 1 before each run), ``--skwasm-only --paints
3``.  The paint is now timed without the accessibility tree (a phone without a screen reader has
it off, and building it took the page's CPU while it was timed): a screenshot every 50 ms from
the server's first message until the picture stays the same for a second; the time is when the
first screenshot of that picture ended; then the tree is turned on and the picture checked to be
the first screen's (session-new there, nothing changed).  Plain Flet server 2.24-2.36 s cold,
2.10-2.23 s second visit; compressed + cached 2.15-2.28 s cold, 1.93-2.05 s second visit (page
CPU 1.8-2.0 s; the socket open at 1.3-1.4 s, the first screen in at 1.5-1.6 s); confirm → sheet
22.7-23.9 ms.  Where the second visit goes (a timeline of the page's long tasks): the engine
runs for about 1.0 s of main-thread tasks before the socket opens (the socket's open event
itself waits 0.3 s behind one of them); the server's messages then take 50 ms; Flutter paints
the first screen in its fallback font, then again in DejaVu (about 0.3 s later) — from the
app's font manifest or page.fonts alike, and with DejaVu put in Roboto's place in the manifest
the first frame has the default theme's colours instead.  Not measurable here: the remembered
language read at the handshake instead of a round trip (the round trips after the socket opens
take 50 ms in all).  The second-visit goal (1.5 s) is not met on this machine.

2026-12-07, the same kind of VM, ``--skwasm-only`` (median of 3 loads; the sockets no longer
compress each message): plain 2.18 s cold, 1.79 s second visit; compressed + cached 2.33 s cold,
2.07 s second visit (page CPU 1.7-2.1 s); confirm → sheet 25.3 ms.  Second visit: not met.

2026-12-07, later. Why Chromium keeps no compiled wasm code here: V8 writes its wasm code cache
from a delayed task, 2 s after the last function was optimised, and in this headless Debian
Chromium 156 that task never runs (not for the app, nor for a 300 kB test module whose 200
functions are all optimised in its first second: the profile's Code Cache/wasm stays empty after
10 s). With ``--wasm-cache-now`` (V8's ``--wasm-caching-timeout-ms=0``: cache at once, after every
chunk of optimised code) it is written and read back: on the second visit the main thread's lazy
compiles fall from 0.63 s to 0.01 s and its streaming decode from 0.18 to 0.02 s, for 0.1 s of
deserialising. But the page then also serialises its module after every chunk, and the second
visit took 1.68-2.38 s against 1.92-2.39 s without the flag (2 loads each, alternated twice; the
VM's speed drifts that much): not under 1.5 s either, so the benchmark keeps the browser as it is.
Also tried, no difference beyond that noise: leaving out ``page.fonts`` (the font manifest already
loads DejaVu; ``page.fonts`` loads it again and the screen is laid out a second time, a sub-pixel
change the timer waits for). Not applicable: cross-origin isolation (COOP/COEP), which lets skwasm
render in a worker, needs a secure context, and a phone on the table's plain HTTP is not one.
Where the second visit goes (resource timing and a trace): main.dart.wasm is asked for at
0.23-0.37 s (once main.dart.mjs has been imported) and decoded on the main thread by 0.43-0.60 s;
then the engine and Flet's client start (one 8.5 MB module: its map, video, web view, Rive, Lottie
and ads extensions included) until the socket opens at 1.2-1.7 s; the server's first screen is in
50-100 ms later; painting it takes 0.3-0.5 s (its widgets' code compiled on first use). No GPU
here: the GPU process (SwiftShader) spends 0.26-0.30 s of CPU a visit, and the page's main thread
waits about 0.18 s for it in skwasm's transferToImageBitmap (a CPU profile of the second visit).
The next lever is a Flet web client built without the extensions the app does not use (``flet
build web``), which needs the Flutter SDK: not reachable from here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from machine import SMOKE_NOTE, add_smoke, machine  # noqa: E402  (benchmarks/machine.py)
from support.flet_fakes import by_id, fire, make_page  # noqa: E402

from scorepad.app.frame.screens import entry_screen  # noqa: E402  (fills the screen registry)
from scorepad.app.frame.shell import Shell  # noqa: E402
from scorepad.app.pulya.sheet import sheet_screen  # noqa: E402
from scorepad.store import Store  # noqa: E402
from scorepad.testing.generate import RandomChooser, random_session  # noqa: E402


async def confirm_times(repeat: int, folder: Path) -> list[float]:
    page, session, _ = make_page()
    raw = random_session(RandomChooser(100), deals=100, corrections=False)
    with Store(folder / "bench.db", check_same_thread=False) as store:
        sid = store.import_session(json.dumps(raw))
        shell = Shell(page, store, "en", threading.RLock())
        shell.sid = sid
        shell.state.playing_on.add(sid)  # a finished pulka: the table plays on
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


# Recorded in the page from its first script: when the WebSocket opened and when its last message
# (the first screen, then what follows it) arrived, in ms since the navigation started.
TIMELINE = """
window.__paint = {};
const Native = window.WebSocket;
window.WebSocket = function (...args) {
  const ws = new Native(...args);
  ws.addEventListener('open', () => { __paint.open = performance.now(); });
  ws.addEventListener('message', () => { __paint.message = performance.now(); });
  return ws;
};
window.WebSocket.prototype = Native.prototype;
"""


def painted(
    folder: Path, *, renderer: str = "auto", tuned: bool = True, wasm_cache_now: bool = False
) -> dict[str, float]:
    """Seconds from opening the page until the first screen is there and has stopped changing,
    cold (a new browser profile) and on the second visit (the browser started again on the same
    profile: its HTTP cache and compiled-code cache on disk, as a phone keeps them), with the
    megabytes each visit fetched, the page's own CPU (its renderer process), when the WebSocket
    opened (the engine has started) and the server's first screen had arrived.

    The page's time is when the first screenshot (one every 50 ms) of the picture that then
    stays for a second ended (the screen was painted by then; ``confirmed`` is when that second
    was over); the accessibility tree is turned on only afterwards, to check that the picture is
    the first screen's. Nothing is
    intercepted (Playwright's request routing turns the HTTP cache off): hosts other than
    127.0.0.1 are unresolvable, so the page is as offline as at a table. The tuned server is
    measured once it has compressed the engine files (it compresses each on its first request).

    ``wasm_cache_now``: V8 told to write its wasm code cache at once (after every chunk of
    optimised code) instead of from its delayed task, which this headless Chromium never runs;
    ``{visit}-wasm-cache-mb`` is what the profile's wasm code cache holds after each visit.
    """

    from e2e.harness import ARGS, CHROMIUM, running_app, semantics_on
    from playwright.sync_api import sync_playwright

    os.environ["FLET_WEB_RENDERER"] = renderer
    os.environ["SCOREPAD_WEB_TUNING"] = "1" if tuned else "0"
    db = folder / f"paint-{renderer}-{tuned}-{time.monotonic_ns()}.db"
    profile = folder / f"profile-{time.monotonic_ns()}"
    args = [*ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
    if wasm_cache_now:
        args.append("--js-flags=--wasm-caching-timeout-ms=0")
    out: dict[str, float] = {}
    with running_app(db) as (url, _db), sync_playwright() as p:
        if tuned:
            # A server runs long before a player opens the page: its files are compressed by then.
            import urllib.request

            from scorepad.app.server.serve import ENGINE

            for path in ENGINE:
                request = urllib.request.Request(
                    url.rstrip("/") + path, headers={"Accept-Encoding": "gzip"}
                )
                with contextlib.suppress(OSError):
                    urllib.request.urlopen(request, timeout=120).read()
        for visit in ("cold", "warm"):
            context = p.chromium.launch_persistent_context(
                str(profile),
                executable_path=CHROMIUM,
                headless=True,
                args=args,
                viewport={"width": 360, "height": 740},
            )
            context.add_init_script(TIMELINE)
            page = context.pages[0] if context.pages else context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Performance.enable")
            start = time.perf_counter()
            page.goto(url)
            # Once the server has answered the page, a screenshot every 50 ms until the picture
            # has not changed for a second: the screen was painted by the time the first
            # screenshot of that picture ended (back to back, the screenshots took the page's
            # CPU on these 2 cores).  The page's own CPU (its renderer process) by then is what
            # the machine's load hardly inflates.
            page.wait_for_function("window.__paint.message !== undefined", polling=20)
            shots: list[tuple[float, bytes, float]] = []
            while not shots or time.perf_counter() - shots[-1][0] < 1.0:
                png = page.screenshot()
                if not shots or png != shots[-1][1]:
                    shots.append((time.perf_counter(), png, _page_cpu(cdp)))
                page.wait_for_timeout(50)
            out[visit] = shots[-1][0] - start
            out[f"{visit}-cpu"] = shots[-1][2]
            out[f"{visit}-confirmed"] = time.perf_counter() - start
            # Only now is the accessibility tree turned on (it costs the page CPU a phone
            # without a screen reader does not spend): the picture timed is the first screen's.
            semantics_on(page)
            page.locator('[flt-semantics-identifier="session-new"]').wait_for(timeout=60000)
            if page.screenshot() != shots[-1][1]:
                raise AssertionError(f"{visit}: the screen changed after it was timed")
            marks = page.evaluate("window.__paint")
            out[f"{visit}-open"] = marks.get("open", 0) / 1000
            out[f"{visit}-screen"] = marks.get("message", 0) / 1000
            out[f"{visit}-mb"] = (
                page.evaluate(
                    "[...performance.getEntriesByType('navigation'),"
                    " ...performance.getEntriesByType('resource')]"
                    ".reduce((a, e) => a + e.transferSize, 0)"
                )
                / 1e6
            )
            context.close()
            out[f"{visit}-wasm-cache-mb"] = _wasm_code_cache(profile) / 1e6
    return out


def _wasm_code_cache(profile: Path) -> int:
    """Bytes of compiled wasm code the browser keeps in the profile (its index files left out)."""
    folder = profile / "Default" / "Code Cache" / "wasm"
    return sum(
        f.stat().st_size
        for f in folder.rglob("*")
        if f.is_file() and f.parent.name != "index-dir" and f.name != "index"
    )


def _page_cpu(cdp: Any) -> float:
    """CPU seconds of the page's renderer process so far."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return float(next((m["value"] for m in metrics if m["name"] == "ProcessTime"), 0.0))


def _children_cpu() -> float:
    """CPU seconds of the processes this one started and waited for (servers, browsers)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--paints", type=int, default=3, help="page loads per variant (median)")
    ap.add_argument("--skwasm-only", action="store_true", help="without the CanvasKit loads")
    ap.add_argument(
        "--wasm-cache-now",
        action="store_true",
        help="V8 writes its wasm code cache at once (this headless Chromium never does by itself)",
    )
    add_smoke(ap)
    args = ap.parse_args()
    if args.smoke:
        args.repeat, args.paints, args.skwasm_only = 3, 1, True
        print(SMOKE_NOTE)
    wall, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory(dir=Path(__file__).resolve().parent) as tmp:
        times = asyncio.run(confirm_times(args.repeat, Path(tmp)))
        print(
            f"confirm a deal → updated sheet, 100-deal session: median {statistics.median(times) * 1000:6.1f} ms"
            "   target ≤ 50 ms"
        )
        if not args.no_browser:
            print(
                "app painted in a phone-size page (360×740): goal cold ≤ 3 s, second visit ≤ 1.5 s"
            )
            variants = [("auto", False), ("auto", True), ("canvaskit", True)]
            for renderer, tuned in variants[:2] if args.skwasm_only else variants:
                wall0, cpu0 = time.perf_counter(), _children_cpu()
                runs = [
                    painted(
                        Path(tmp),
                        renderer=renderer,
                        tuned=tuned,
                        wasm_cache_now=args.wasm_cache_now,
                    )
                    for _ in range(args.paints)
                ]
                label = f"{renderer}{'' if renderer != 'auto' else ' (skwasm)'}, " + (
                    "compressed + cached" if tuned else "plain Flet server"
                )
                if args.wasm_cache_now:  # a V8 flag: say so beside the figures it gave
                    label += ", wasm code cache forced"
                print(f"  {label} (median of {args.paints} loads):")
                for visit, goal in (("cold", 3.0), ("warm", 1.5)):
                    seconds = statistics.median(r[visit] for r in runs)
                    verdict = "met" if seconds <= goal else "NOT met"
                    print(
                        f"    {'cold        ' if visit == 'cold' else 'second visit'}"
                        f" {seconds:5.2f} s   goal ≤ {goal} s: {verdict:7}"
                        f"  (confirmed {statistics.median(r[visit + '-confirmed'] for r in runs):4.2f} s;"
                        f" page CPU {statistics.median(r[visit + '-cpu'] for r in runs):4.2f} s;"
                        f" socket open {statistics.median(r[visit + '-open'] for r in runs):4.2f} s,"
                        f" first screen in {statistics.median(r[visit + '-screen'] for r in runs):4.2f} s;"
                        f" {statistics.median(r[visit + '-mb'] for r in runs):5.2f} MB fetched;"
                        f" wasm code cache {statistics.median(r[visit + '-wasm-cache-mb'] for r in runs):5.1f} MB after)"
                    )
                print(
                    f"    these loads: wall {time.perf_counter() - wall0:.1f} s, CPU of the server"
                    f" and the browser {_children_cpu() - cpu0:.1f} s"
                )
    print(
        f"benchmark wall {time.perf_counter() - wall:.1f} s, CPU {time.process_time() - cpu:.1f} s"
        f" (this process) + {_children_cpu():.1f} s (servers, browsers);"
        f" machine: {machine()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
