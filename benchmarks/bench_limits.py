"""Benchmark the largest session the format accepts (10,000 deals): import time and memory.

    python benchmarks/bench_limits.py

The limit keeps a hostile file from costing more than this; the numbers are what
docs/session-format.md ("Limits") quotes.  Each case runs in a fresh process, so the peak
memory is its own.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scorepad.generate import RandomChooser, random_session
from scorepad.scoring.pulya.session import MAX_DEALS
from scorepad.store import Store


def one(kind: str, folder: Path) -> None:
    if kind == "played":
        raw = random_session(RandomChooser(5), deals=MAX_DEALS)
    else:
        raw = {
            "format": "scorepad-session/1",
            "players": ["Anna", "Boris", "Vera"],
            "convention": "sochi",
            "pool_target": 20,
            "deals": [
                {"type": "correction", "seat": i % 3, "pool": 1, "note": "paper"}
                for i in range(MAX_DEALS)
            ],
        }
    text = json.dumps(raw)
    start = time.perf_counter()
    with Store(folder / f"{kind}.db") as store:
        store.import_session(text)
    took = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"import {MAX_DEALS} {kind:11} deals: {took:5.2f} s, peak {peak} MB")


def main() -> int:
    if len(sys.argv) == 3:
        one(sys.argv[1], Path(sys.argv[2]))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("played", "corrections"):
            subprocess.run([sys.executable, __file__, kind, tmp], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
