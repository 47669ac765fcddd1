"""Benchmark the players' statistics, ratings and a rating replay after an edit, on a real file.

    python benchmarks/bench_players.py [--sessions 1000] [--repeat 7]

Goals (issue: players across every night and every family), on the project's 2-core machines:
statistics and ratings over 1,000 stored sessions ≤ 500 ms; a rating replay after an edit of a
deal ≤ 200 ms (the edit itself, which rewrites that session's record, is not counted).  Each
figure is the median of ``--repeat`` runs, CPU time beside wall time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import SMOKE_NOTE, add_smoke, machine  # noqa: E402  (benchmarks/machine.py)

from scorepad.players.rating import ratings  # noqa: E402
from scorepad.players.stats import family_stats, played  # noqa: E402
from scorepad.scoring.pulya.session import Game  # noqa: E402
from scorepad.store import Store  # noqa: E402
from scorepad.testing.generate import RandomChooser, random_family_session, random_session  # noqa: E402


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``fn``."""
    wall, cpu = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=7)
    add_smoke(ap)
    args = ap.parse_args()
    if args.smoke:
        args.sessions, args.repeat = 12, 1
    print(f"machine: {machine()}")
    if args.smoke:
        print(SMOKE_NOTE)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "club.db"
        names = ["Anna", "Boris", "Vera", "Gleb", "Dima", "Zoya", "Ilya", "Kira"]
        with Store(db) as store:
            ch = RandomChooser(7)
            for i in range(args.sessions):
                # Every family: three pulkas in five (one in four of them for four players),
                # then a Balkan bula, a Prefa and an Austrian pot game in turn.
                n = 3 + (i % 4 == 0)
                if i % 5 < 3:
                    data = random_session(ch, players=n, deals=16, corrections=False)
                else:
                    other = ("balkan", "prefa", "austrian")[i % 3]
                    data = random_family_session(ch, convention=other, deals=16)
                    n = len(data["players"])
                data["players"] = [names[(i + k * 3) % len(names)] for k in range(n)]
                if len(set(data["players"])) < n:
                    data["players"] = names[:n]
                store.import_session(json.dumps(data))

            def everything() -> None:
                rows = played(store)
                family_stats(rows)
                ratings(rows)

            wall, cpu = timed(everything, args.repeat)
            print(
                f"statistics and ratings over {args.sessions} sessions: median {wall:6.1f} ms wall,"
                f" {cpu:6.1f} ms CPU   goal ≤ 500 ms"
            )
            # An edit of the first session's first game: its record is rewritten, then the
            # ratings are replayed in order from the records.
            first = next(s for s in store.sessions() if s.family == "pulya")
            stored = store.load(first.id)
            index = next(i for i, e in enumerate(stored.journal.live) if isinstance(e.deal, Game))
            entry = stored.journal.live[index]
            store.edit_deal(
                first.id, entry.deal_id, entry.deal, reason="the same deal", seen=stored.revision
            )
            wall, cpu = timed(lambda: ratings(played(store)), args.repeat)
            print(
                f"rating replay after an edit:                     median {wall:6.1f} ms wall,"
                f" {cpu:6.1f} ms CPU   goal ≤ 200 ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
