"""Benchmark the store on a real SQLite file.

    python benchmarks/bench_store.py [--repeat 30]

Targets on the project's 2-core machines: adding an entry to a 500-deal session and getting the
recomputed sheet ≤ 20 ms median; opening a database of 1,000 sessions and listing them ≤ 100 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from machine import SMOKE_NOTE, add_smoke, machine

from scorepad.scoring.pulya.session import Raspasy
from scorepad.store import Store
from scorepad.testing.generate import RandomChooser, random_session

#: The deal each timed write adds (the store takes the model, as a form builds it).
RASPASY = Raspasy.model_validate({"type": "raspasy", "tricks": {"0": 3, "1": 3, "2": 4}})


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument(
        "--dir",
        default=str(Path(__file__).resolve().parent),
        help="where the database files go: a real disk, so that fsync costs what it costs",
    )
    add_smoke(ap)
    args = ap.parse_args()
    deals, sessions = 500, 1000
    print(f"machine: {machine()}")
    if args.smoke:
        args.repeat, deals, sessions = 3, 50, 20
        print(SMOKE_NOTE)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        db = Path(tmp) / "bench.db"
        raw = random_session(RandomChooser(500), deals=deals, corrections=False)
        with Store(db) as store:
            sid = store.import_session(json.dumps(raw))
            revision = store.load(sid).revision
            times = []
            for _ in range(args.repeat):
                deal = RASPASY
                start = time.perf_counter()
                stored = store.add_deal(sid, deal, seen=revision)
                sheet = stored.scored.sheet
                times.append(time.perf_counter() - start)
                revision = stored.revision
            assert sheet.players == 3
        add_median = statistics.median(times) * 1000
        cold = []
        for _ in range(max(5, args.repeat // 3)):
            start = time.perf_counter()
            with Store(db) as store:  # a fresh process's first action: the whole session replayed
                stored = store.add_deal(sid, RASPASY, seen=revision)
            cold.append(time.perf_counter() - start)
            revision = stored.revision
        cold_median = statistics.median(cold) * 1000

        many = Path(tmp) / "many.db"
        with Store(many) as store:
            small = random_session(RandomChooser(1), deals=12, corrections=False)
            for _ in range(sessions):  # each an evening of its own: a new stable id
                store.import_session(json.dumps({**small, "uid": str(uuid.uuid4())}))
        opens = []
        for _ in range(max(5, args.repeat // 3)):
            start = time.perf_counter()
            with Store(many) as store:
                listed = store.sessions()
            opens.append(time.perf_counter() - start)
            assert len(listed) == sessions
        open_median = statistics.median(opens) * 1000
    print(
        f"add a deal to a {deals}-deal session, sheet recomputed: median {add_median:6.1f} ms   target ≤ 20 ms"
    )
    print(
        f"  the same, first action after opening the file:    median {cold_median:6.1f} ms   (full replay)"
    )
    print(
        f"open a database of {sessions:,} sessions and list them:   median {open_median:6.1f} ms   target ≤ 100 ms"
    )
    print(
        f"benchmark wall {time.perf_counter() - wall0:.1f} s, CPU {time.process_time() - cpu0:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
