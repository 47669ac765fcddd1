"""Benchmark a club night (issue #25).

    python benchmarks/bench_club.py [--repeat 20]

Targets on the project's 2-core machines:

- the draw for 40 players and 5 tours (every tour seated, repeats avoided) ≤ 1 s;
- the standings recomputed after a director's edit ≤ 200 ms: a night of 40 players at 13
  tables, two tours of 12 deals a table played into a real SQLite file; one deal corrected,
  then the night loaded and its standings computed (each table's pulya replayed as the store
  keeps it).

The latencies of the shared tables (a write on the other phones ≤ 300 ms, the director's view
≤ 1 s) need the app's club screens, which are not built yet: they are not measured here.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from scorepad.club.draw import draw, repeats_of
from scorepad.club.night import Night
from scorepad.club.scoring import Places
from scorepad.club.store import ClubStore
from scorepad.store import Store


def _machine() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {load:.1f}, Python {platform.python_version()}"


def _timed(step: object) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    step()  # type: ignore[operator]
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def bench_draw(repeat: int) -> tuple[list[float], list[float], int]:
    walls, cpus, repeats = [], [], 0
    for seed in range(repeat):
        n = Night(
            name="Bench",
            date=datetime.date(2026, 12, 1),
            convention="sochi",
            pool_target=10,
            tours=5,
            seed=seed,
        )
        for i in range(40):
            n = n.check_in(f"Player {i + 1}")

        def five(n: Night = n) -> None:
            nonlocal repeats
            for _ in range(5):
                n, _ = draw(n)
                t = n.drawn[-1]
                for tab in t.tables:
                    n = n.with_whists(t.number, tab.number, dict.fromkeys(tab.players, 0))
                n = n.end(t.number)
            repeats += repeats_of(n)

        wall, cpu = _timed(five)
        walls.append(wall)
        cpus.append(cpu)
    return walls, cpus, repeats


def _deal(dealer: int, players: int, k: int) -> dict[str, object]:
    # A game nobody whists (made as bid), by the player after the dealer: legal at 3 and 4.
    declarer = (dealer + 1 + k % (players - 1)) % players
    if players == 4 and declarer == dealer:
        declarer = (declarer + 1) % players
    return {"type": "game", "declarer": declarer, "contract": "6S", "calls": []}


def bench_standings(folder: Path, repeat: int) -> tuple[list[float], list[float], list[float]]:
    with Store(folder / "club.db") as store:
        club = ClubStore(store)
        nid = club.create_night(
            "Bench",
            date=datetime.date(2026, 12, 1),
            tours=5,
            deals_per_tour=12,
            scoring=Places(),
            seed=1,
        )
        for i in range(40):
            club.check_in(nid, f"Player {i + 1}")
        for tour in (1, 2):
            club.draw(nid)
            for tab in club.load(nid).tour(tour).tables:
                sid = club.session_of(nid, tour, tab.number)
                size = len(tab.players)
                for k in range(12):
                    stored = club.write_deal(
                        nid,
                        tour,
                        tab.number,
                        _deal(k % size, size, k),
                        by=tab.players[0],
                        seen=store.load(sid).revision,
                    )
                    club.confirm(
                        nid, tour, tab.number, stored.journal.live[-1].deal_id, by=tab.players[1]
                    )
            club.end_tour(nid, tour)
        tab = club.load(nid).tour(1).tables[0]
        sid = club.session_of(nid, 1, 1)
        first = store.load(sid).journal.live[0].deal_id
        walls, cpus, both = [], [], []
        for k in range(repeat):
            deal = _deal(0, len(tab.players), k % 2)
            store_rev = store.load(sid).revision
            start = time.perf_counter()
            club.correct_deal(nid, 1, 1, first, deal, reason="bench", seen=store_rev)
            wall, cpu = _timed(lambda: club.standings(nid))
            both.append((time.perf_counter() - start) * 1000)
            walls.append(wall)
            cpus.append(cpu)
    return walls, cpus, both


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument(
        "--dir",
        default=str(Path(__file__).resolve().parent),
        help="where the database goes: a real disk",
    )
    args = ap.parse_args()
    print(f"machine: {_machine()}")
    walls, cpus, repeats = bench_draw(max(3, args.repeat // 4))
    print(
        f"draw 40 players, 5 tours:            median {statistics.median(walls):7.1f} ms wall, "
        f"{statistics.median(cpus):7.1f} ms CPU (max {max(walls):.1f})   goal ≤ 1000 ms; "
        f"repeats left: {repeats}"
    )
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        walls, cpus, both = bench_standings(Path(tmp), args.repeat)
    print(
        f"standings after a director's edit:   median {statistics.median(walls):7.1f} ms wall, "
        f"{statistics.median(cpus):7.1f} ms CPU (max {max(walls):.1f})   goal ≤ 200 ms"
    )
    print(
        f"  the edit written and the standings: median {statistics.median(both):7.1f} ms wall "
        f"(max {max(both):.1f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
