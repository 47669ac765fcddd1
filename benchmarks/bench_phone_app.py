"""Benchmark the app that runs on the phone by itself (``scorepad build-app``, issue #35).

    python benchmarks/bench_phone_app.py [--repeat 3] [--writes 5]
    python benchmarks/bench_phone_app.py --smoke      # one start of each kind, one write

Goals (issue #35, a 2-core machine): the first start cold ≤ 8 s, a start from the service
worker's cache ≤ 3 s, a deal's Write → the screen showing it written ≤ 300 ms; and the size of
the build. Each run: the app built (the build's time and size), served by a plain static server
on 127.0.0.1 and opened in headless Debian chromium at 360×740 with a fresh profile:

- cold: from ``goto`` until the first screen is there (its ``session-new`` button in the
  accessibility tree): the runtime and the app downloaded, compiled and started, the store opened;
- write: a pulka started by taps, then ``writes`` deals nobody whists, each timed from the tap on
  Write until the entry shows the next deal (the write persisted to IndexedDB first: nothing is
  shown before it is, see scorepad/phone/app.py);
- from the cache: the static server stopped, the page reloaded: the same until the first screen
  (Python restored from the snapshot of its memory that the first start kept: python_worker.js).

Printed beside the goals with the machine (cores, CPU, load average before and after): on a
loaded machine the times are several times a quiet one's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from machine import SMOKE_NOTE, add_smoke, machine  # noqa: E402  (benchmarks/machine.py)

GOALS = {"cold": 8.0, "cache": 3.0, "write": 0.300}
LABELS = (
    "engine up, Python asked for",
    "Python restored from its snapshot (a later start)",
    "Python ready (runtime, archive, imports)",
    "first screen",
)


def cpu_seconds() -> float:
    """CPU time (user and system) of this process's children so far: Playwright's driver and
    the browser with its renderer, GPU and worker processes (on a shared machine the wall time
    is this plus the wait for a core)."""
    import psutil

    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:  # ended meanwhile
            continue
        total += times.user + times.system
    return total


#: What the page's console says on the way to the first screen (Flet's python.js and the
#: Flutter bootstrap), the milestones of a start.
MILESTONES = {
    "Starting up Python worker": "engine up, Python asked for",
    "Scorepad: Python restored from its snapshot": (
        "Python restored from its snapshot (a later start)"
    ),
    "Python worker initialized": "Python ready (runtime, archive, imports)",
}


class Start:
    """One start: its wall time, the browser's CPU time, and when each milestone was said."""

    def __init__(self, page: object) -> None:
        self.page = page
        self.t0 = 0.0
        self.seen: dict[str, float] = {}
        page.on("console", self._said)  # type: ignore[attr-defined]

    def _said(self, message: object) -> None:
        text = str(message.text)  # type: ignore[attr-defined]
        for prefix, label in MILESTONES.items():
            if text.startswith(prefix) and label not in self.seen and self.t0:
                self.seen[label] = time.perf_counter() - self.t0

    def __call__(self, url: str | None) -> tuple[float, float]:
        """Seconds from the navigation (``url``, or a reload) until the first screen is there,
        and the CPU seconds the browser spent meanwhile."""
        from test_phone_e2e import started

        self.seen = {}
        cpu = cpu_seconds()
        self.t0 = time.perf_counter()
        if url is None:
            self.page.reload()  # type: ignore[attr-defined]
        else:
            self.page.goto(url)  # type: ignore[attr-defined]
        started(self.page)
        took = time.perf_counter() - self.t0
        self.seen["first screen"] = took
        return took, cpu_seconds() - cpu


def cached(page: object) -> None:
    """Wait until the service worker has every file of the build in its cache."""
    page.wait_for_function(  # type: ignore[attr-defined]
        """async () => {
            const reg = await navigator.serviceWorker.getRegistration();
            if (!reg || !reg.active) return false;
            const keys = (await caches.keys()).filter((k) => k.startsWith('scorepad-'));
            if (keys.length !== 1) return false;
            const cache = await caches.open(keys[0]);
            const files = (await (await fetch('scorepad-sw.js')).text())
                .split('const FILES = ')[1].split(';\\n')[0];
            return (await cache.keys()).length === JSON.parse(files).length;
        }""",
        timeout=600_000,
        polling=1000,
    )


def run_once(browser: object, folder: Path, writes: int) -> dict[str, list[float]]:
    from e2e.harness import Table, local_only, new_session, tap
    from playwright.sync_api import expect
    from test_phone_e2e import START, Static
    from test_phone_snapshot_e2e import snapshot_kept

    static = Static(folder)
    ctx = local_only(browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US"))  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.set_default_timeout(START)
    starting = Start(page)
    wall, cpu = starting(static.url)
    found: dict[str, list[float]] = {"cold": [wall], "cold-cpu": [cpu], "write": []}
    found["cold-at"] = [starting.seen.get(label, float("nan")) for label in LABELS]
    new_session(page, ["Anna", "Boris", "Vera"])
    tap(page, "create-session")
    expect(page.get_by_text("Deal 1: Anna deals, Boris leads.")).to_be_visible(timeout=60000)
    table = Table(page, 3)
    for k in range(writes):
        declarer = table.active()[0]
        table.game_calls(declarer, "6S", ["pass", "pass"])
        start = time.perf_counter()
        tap(page, "confirm-deal")
        expect(page.locator('[flt-semantics-identifier="deal-header"]').first).to_contain_text(
            f"Deal {k + 2}:", timeout=60000
        )
        found["write"].append(time.perf_counter() - start)
        table.number += 1
    cached(page)
    snapshot_kept(page)
    static.stop()
    wall, cpu = starting(None)
    found["cache"], found["cache-cpu"] = [wall], [cpu]
    found["cache-at"] = [starting.seen.get(label, float("nan")) for label in LABELS]
    ctx.close()
    return found


def size_of(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs, each with a fresh profile")
    parser.add_argument("--writes", type=int, default=5, help="deals written in each run")
    add_smoke(parser)
    args = parser.parse_args(argv)
    repeat, writes = (1, 1) if args.smoke else (args.repeat, args.writes)

    from e2e.harness import ARGS, CHROMIUM
    from playwright.sync_api import sync_playwright

    from scorepad.phone.build import build

    print(f"machine: {machine()}")
    if args.smoke:
        print(SMOKE_NOTE)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "app"
        start = time.perf_counter()
        build(folder)
        took = time.perf_counter() - start
        files, size = size_of(folder)
        archive = (folder / "app.tar.gz").stat().st_size
        print(
            f"build: {took:.1f} s, {files} files, {size / 1e6:.1f} MB "
            f"(the Python archive {archive / 1e6:.1f} MB, compressed)"
        )
        runs: dict[str, list[float]] = {}
        at: dict[str, list[list[float]]] = {"cold": [], "cache": []}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            for _ in range(repeat):
                for key, values in run_once(browser, folder, writes).items():
                    if key.endswith("-at"):
                        at[key.removesuffix("-at")].append(values)
                    else:
                        runs.setdefault(key, []).extend(values)
            browser.close()
    for key, label in (
        ("cold", "first start, cold"),
        ("cache", "start from the cache"),
        ("write", "Write → shown written"),
    ):
        values = runs[key]
        median, goal = statistics.median(values), GOALS[key]
        unit, scale = ("ms", 1000) if key == "write" else ("s", 1)
        verdict = "met" if median <= goal else "NOT met"
        print(
            f"{label:24} median {median * scale:8.{0 if unit == 'ms' else 1}f} {unit}"
            f"  (min {min(values) * scale:.{0 if unit == 'ms' else 1}f}, n={len(values)})"
            f"  goal ≤ {goal * scale:g} {unit}: {verdict}"
        )
        if key in at:  # where the start's time went, and the browser's CPU time for it
            cpu = statistics.median(runs[f"{key}-cpu"])
            print(f"    browser CPU time {cpu:.1f} s (all its processes, both cores)")
            for i, milestone in enumerate(LABELS):
                times = [run[i] for run in at[key] if run[i] == run[i]]  # said in this start
                if times:
                    print(f"    at {statistics.median(times):5.1f} s: {milestone}")
    print(f"machine after: {machine()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
