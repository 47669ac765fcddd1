"""Benchmark the largest session the format accepts (10,000 deals): import time and memory.

    python benchmarks/bench_limits.py

The limit keeps a hostile file from costing more than this; the numbers are what
docs/session-format.md ("Limits") quotes.  Each case runs in a fresh process, so the peak
memory is its own.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import SMOKE_NOTE, add_smoke, machine

from scorepad.scoring.pulya.session import MAX_DEALS
from scorepad.store import Store
from scorepad.testing.generate import RandomChooser, random_session

# What docs/session-format.md ("Limits") promises for the largest session: 6-8 s measured on a
# loaded 2-core machine, so the goal is said with room; the memory is the process's peak.
GOAL_S, GOAL_MB = 10.0, 150


def one(kind: str, folder: Path, deals: int) -> None:
    if kind == "played":
        raw = random_session(RandomChooser(5), deals=deals)
    else:
        raw = {
            "format": "scorepad-session/1",
            "players": ["Anna", "Boris", "Vera"],
            "convention": "sochi",
            "pool_target": 20,
            "deals": [
                {"type": "correction", "seat": i % 3, "pool": 1, "note": "paper"}
                for i in range(deals)
            ],
        }
    text = json.dumps(raw)
    start, cpu = time.perf_counter(), time.process_time()
    with Store(folder / f"{kind}.db") as store:
        store.import_session(text)
    took, used = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(
        f"import {deals:,} {kind:11} deals: {took:5.2f} s wall, {used:5.2f} s CPU   goal ≤ {GOAL_S:.0f} s;"
        f" peak {peak} MB   goal ≤ {GOAL_MB} MB"
    )


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] in ("played", "corrections"):
        one(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_smoke(ap)
    args = ap.parse_args()
    deals = 300 if args.smoke else MAX_DEALS
    print(f"machine: {machine()}")
    if args.smoke:
        print(SMOKE_NOTE)
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("played", "corrections"):  # each in a fresh process: its own peak memory
            subprocess.run([sys.executable, __file__, kind, tmp, str(deals)], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
