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
from pathlib import Path

from scorepad.generate import RandomChooser, random_session
from scorepad.scoring.pulya.session import Raspasy
from scorepad.store import Store

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
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        db = Path(tmp) / "bench.db"
        raw = random_session(RandomChooser(500), deals=500, corrections=False)
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
            small = json.dumps(random_session(RandomChooser(1), deals=12, corrections=False))
            for _ in range(1000):
                store.import_session(small)
        opens = []
        for _ in range(max(5, args.repeat // 3)):
            start = time.perf_counter()
            with Store(many) as store:
                listed = store.sessions()
            opens.append(time.perf_counter() - start)
            assert len(listed) == 1000
        open_median = statistics.median(opens) * 1000
    print(
        f"add a deal to a 500-deal session, sheet recomputed: median {add_median:6.1f} ms   target ≤ 20 ms"
    )
    print(
        f"  the same, first action after opening the file:    median {cold_median:6.1f} ms   (full replay)"
    )
    print(
        f"open a database of 1,000 sessions and list them:   median {open_median:6.1f} ms   target ≤ 100 ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
