"""Benchmark a club night (issue #25).

    python benchmarks/bench_club.py [--repeat 20]
    python benchmarks/bench_club.py --wire [--rounds 3]

Targets on the project's 2-core machines:

- the draw for 40 players and 5 tours (every tour seated, repeats avoided) ≤ 1 s;
- the standings recomputed after a director's edit ≤ 200 ms: a night of 40 players at 13
  tables, two tours of 12 deals a table played into a real SQLite file; one deal corrected,
  then the night loaded and its standings computed (each table's pulya replayed as the store
  keeps it).

``--wire``: the shared tables, a real server (``python -m scorepad.cli --web``) and every phone
connected as a raw Flet client (tests/support/flet_wire.py: the server's whole work, no browser): 40
players drawn at 13 tables of three (one bye), each table's writer on the host's computer and its other players on
their table's join link, the director's view and the live standings page.  Goals:

- a write shown on that table's other phones, median ≤ 300 ms while the other tables write:
  every table writes a deal at the same moment (a burst of 13), each table's time is from its
  own tap to the update reaching each of its other phones' sockets;
- the director's view ≤ 1 s after any table's write: from the tap to the director's page
  showing that table's new deal count (in the burst, and one table at a time);
- the standings ≤ 1 s: from a single table's tap (one table at a time) to the standings page's
  next update (it is drawn again on every write; its 3-second timer is the fallback).

Printed beside the goals: the medians, the 95th percentiles and the maximum, the server's CPU
per write, the wall time of the run and the machine with its load.

Taken on 2026-12-02 on the shared 2-core machine while other helpers' tests ran (load average
5.5-7 at the end of each run, 26 earlier in the day), ``--rounds 3``, 41 pages connected:

- the table's other phones, a burst of 13 tables writing at once (goal median ≤ 300 ms):
  median 1761 ms (load 5.5), 2515 ms (load 7.1; p95 3700 ms);
- the table's other phones, one table writing at a time: median 274 ms, p95 540 ms (load 7.1);
- the director's view (goal ≤ 1 s): median 1154 ms / 1614 ms (p95 2327 ms), burst included;
- the standings page (goal ≤ 1 s): median 195 ms / 260 ms (p95 326 ms);
- the server's CPU a write: 168 ms / 173 ms; a run's wall time 43-53 s.

So under this load the goals hold for one table writing at a time and for the standings, and
not for a burst of every table at once: about 170 ms of server CPU a write (the writer's page,
the table's other pages, the director's view and the standings page drawn again; the director's
view is a whole new frame, not a diff) makes 13 writes at the same moment about 2.2 s of CPU for
2 cores.  Earlier, two rounds at a load average of 26 gave a burst median of 7.0 s.

Later on 2026-12-02, after the live redraws keep what did not change (Shell.reuse: the pulya's
paper, the sheet's buttons, the history's cards) and the director's view and the standings wait
0.15 s before drawing (follow(settle=): the writing table's phones first, a burst drawn once),
"before" (main at 13a60d1) and "after" run one after the other, ``--rounds 3``, load 15-17:

==========================================  ==============  ==============
(median / p95 ms)                           before          after
==========================================  ==============  ==============
the table's other phones, a burst of 13     4629 / 6310     2746 / 4188
the table's other phones, one table         443 / 953       365 / 1332
the director's view                         2371 / 4807     2245 / 3111
the standings                               383 / 1009      602 / 1138
server CPU a write                          197             177
wall time of the run                        102 s           90 s
==========================================  ==============  ==============

Under that load the goals are still missed for a burst; a quiet run was not to be had on the
shared machine.  Most of a burst's CPU is the 13 writers' own pages (each write draws the deal
entry anew, a frame of ~150 controls) and the director's view, a new frame on every drawing.

Later on 2026-12-02, the machine quiet (load 0.2-1.2), ``--wire --rounds 3``, after Flet's diff
was made cheaper (scorepad/app/frame/flet_diff.py), each writer's fresh form was drawn after the
other pages (live.after_others: in a burst, every table's phones first), and the director's
view and the standings took their turn behind the pages already waiting (live.turn):

==========================================  ==================  ===========
(median / p95 ms)                           four runs           goal
==========================================  ==================  ===========
the table's other phones, a burst of 13     107-173 / 232-298   median 300
the table's other phones, one table         24-31 / 73-113      median 300
the director's view                         284-399 / 364-456   1000
the standings                               187-197 / 195-267   1000
server CPU a write                           75-106
wall time of the run                        28-30 s
==========================================  ==================  ===========

and without ``--wire``: the draw for 40 players and 5 tours 2.8 ms, the standings after a
director's edit 4.5 ms (7.3 ms with the edit written).  Every goal is met on a quiet machine;
the burst is CPU-bound on one core, so a laptop busy with other work is slower.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from machine import SMOKE_NOTE, add_smoke, machine

from scorepad.club.draw import draw, repeats_of
from scorepad.club.night import Night
from scorepad.club.scoring import Places
from scorepad.club.store import ClubStore
from scorepad.store import Store


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


# --- the shared tables: a real server and raw Flet clients ------------------------------------


def _asked(players: int, index: int) -> list[int]:
    """The two seats whose tricks an all-pass entry asks in deal ``index`` at a table of three
    (the third takes the rest): the players in order from the dealer's left."""
    dealer = index % players
    return [(dealer + 1) % players, (dealer + 2) % players]


class _Pages:
    """Every connected page, read together (a page not read would stall the server's socket)."""

    def __init__(self, clients: list[Any]) -> None:
        self.clients = clients

    def pump(self) -> None:
        for c in self.clients:
            c.pump(0)

    def until(
        self,
        done: Callable[[], bool],
        what: str,
        within: float = 120.0,
        left: Callable[[], object] = lambda: "",
    ) -> None:
        deadline = time.monotonic() + within
        while not done():
            assert time.monotonic() < deadline, f"{what}: not within {within} s {left()}"
            self.pump()
            time.sleep(0.001)


def _tap(pages: _Pages, client: Any, ident: str) -> None:
    """A tap on the newest control ``ident``; back once the server answered with a frame."""
    n = len(client.frames)
    client.event(client.control(ident))
    pages.until(lambda: len(client.frames) > n, f"{ident} tapped")


def _strings_since(client: Any, start: int) -> Iterator[str]:
    from support.flet_wire import _walk

    for f in client.frames[start:]:
        for v in _walk(f):
            if isinstance(v, str):
                yield v


def _count_line(table: int, deals: int) -> str:
    return f"Table {table}: {deals} deal{'' if deals == 1 else 's'},"


def run_wire(rounds: int) -> dict[str, Any]:
    import threading

    import psutil

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from support.flet_wire import Client
    from support.table_server import free_port, start, stop, wait_ready

    from scorepad.app.server.grants import Grants

    began = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="bench-club-"))
    db = folder / "club.db"
    with Store(db) as store:
        club = ClubStore(store)
        nid = club.create_night(
            "Bench",
            date=datetime.date(2026, 12, 1),
            tours=5,
            deals_per_tour=12,
            scoring=Places(),
            seats=3,  # 13 tables of three and a bye: more tables than 12, the all-pass is one entry
            seed=1,
        )
        for i in range(40):
            club.check_in(nid, f"Player {i + 1}")
        club.draw(nid)
        grants = Grants(store.db, threading.RLock())
        tables = [
            (tab.number, club.session_of(nid, 1, tab.number), tab.players)
            for tab in club.load(nid).tour(1).tables
        ]
        links = {sid: grants.link(sid) for _, sid, _ in tables}
        token = club.standings_token(nid)
    port = free_port()
    proc = start(db, port)
    table_ms: list[float] = []
    alone_ms: list[float] = []
    director_ms: list[float] = []
    standings_ms: list[float] = []
    try:
        wait_ready(proc, f"http://127.0.0.1:{port}/", folder / f"server-{port}.log")
        director = Client(port)
        for ident in ("session-club", f"night-{nid}"):
            director.wait(lambda c, i=ident: c.has(i))
            director.event(director.control(ident))
        director.wait(lambda c: c.has("club-table-1"))
        standings = Client(port, f"/club/{token}")
        standings.wait(lambda c: c.has("club-public-1"))
        writers: dict[int, Any] = {}
        watchers: dict[int, list[Any]] = {}
        for k, sid, players in tables:
            w = Client(port)
            w.wait(lambda c, sid=sid: c.has(f"session-open-{sid}"))
            w.event(w.control(f"session-open-{sid}"))
            w.wait(lambda c: c.has("kind-raspasy"))  # the table opens on its deal entry
            _nav(w, "Sheet")
            w.wait(lambda c, n=players[0]: c.has(f"club-me-{n}"))
            w.event(w.control(f"club-me-{players[0]}"))
            w.wait(lambda c: c.has("club-me"))
            _nav(w, "Deal")
            w.wait(lambda c: c.has("kind-raspasy"))
            writers[k] = w
            watchers[k] = []
            for _ in players[1:]:
                phone = Client(port, f"/join/{sid}/{links[sid]}")
                phone.wait(lambda c: c.has("club-table"))
                watchers[k].append(phone)
        pages = _Pages(
            [director, standings, *writers.values(), *(p for ps in watchers.values() for p in ps)]
        )
        server = psutil.Process(proc.pid)
        cpu_before = sum(server.cpu_times()[:2])
        writes = 0

        def prepare(k: int, players: int, index: int) -> None:
            _tap(pages, writers[k], "kind-raspasy")
            for seat in _asked(players, index):
                _tap(pages, writers[k], f"tricks-{seat}-3")

        def burst(index: int) -> int:
            """Every table writes at once; each table's phones and the director's view timed."""
            for k, _, players in tables:
                prepare(k, len(players), index)
            pages.pump()
            marks = {id(p): len(p.frames) for ps in watchers.values() for p in ps}
            seen = [len(director.frames)]
            shown: dict[int, float] = {}
            t0: dict[int, float] = {}
            drawn = {k: len(writers[k].frames) for k, _, _ in tables}
            for k, _, _ in tables:
                t0[k] = time.monotonic()
                writers[k].event(writers[k].control("confirm-deal"))
            waiting = {id(p): (k, p) for k, ps in watchers.items() for p in ps}

            def done() -> bool:
                now = time.monotonic()
                for key, (k, p) in list(waiting.items()):
                    if len(p.frames) > marks[key]:
                        table_ms.append((now - t0[k]) * 1000)
                        del waiting[key]
                fresh = list(_strings_since(director, seen[0]))
                seen[0] = len(director.frames)
                for k, _, _ in tables:
                    if k not in shown and any(
                        s.startswith(_count_line(k, index + 1)) for s in fresh
                    ):
                        shown[k] = now
                return not waiting and len(shown) == len(tables)

            pages.until(
                done,
                "a burst of writes",
                left=lambda: (
                    sorted({k for k, _ in waiting.values()}),
                    sorted(shown),
                    [c for w in writers.values() for c in w.crashed],
                ),
            )
            director_ms.extend((shown[k] - t0[k]) * 1000 for k in shown)
            # Each writer's fresh form comes after the other pages (live.after_others): the
            # next deal is entered on it.
            fresh = f"Deal {index + 2}:"
            pages.until(
                lambda: all(
                    any(s.startswith(fresh) for s in _strings_since(writers[k], drawn[k]))
                    for k, _, _ in tables
                ),
                "the writers' fresh forms",
            )
            return len(tables)

        def single(k: int, players: int) -> int:
            """One table writes: the standings page's update and the director's view timed."""
            prepare(k, players, rounds)
            pages.pump()
            before = len(standings.frames)
            seen = [len(director.frames)]
            phones = {id(p): (p, len(p.frames)) for p in watchers[k]}
            got: dict[str, float] = {}
            t0 = time.monotonic()
            writers[k].event(writers[k].control("confirm-deal"))

            def done() -> bool:
                now = time.monotonic()
                for key, (p, mark) in list(phones.items()):
                    if len(p.frames) > mark:
                        alone_ms.append((now - t0) * 1000)
                        del phones[key]
                if "standings" not in got and len(standings.frames) > before:
                    got["standings"] = now
                fresh = list(_strings_since(director, seen[0]))
                seen[0] = len(director.frames)
                if "director" not in got and any(
                    s.startswith(_count_line(k, rounds + 1)) for s in fresh
                ):
                    got["director"] = now
                return len(got) == 2 and not phones

            pages.until(done, "a single write")
            standings_ms.append((got["standings"] - t0) * 1000)
            director_ms.append((got["director"] - t0) * 1000)
            return 1

        for index in range(rounds):
            writes += burst(index)
        for k, _, players in tables:
            writes += single(k, len(players))
        cpu_ms = (sum(server.cpu_times()[:2]) - cpu_before) * 1000 / writes
        connected = len(pages.clients)
    finally:
        stop(proc)
    return {
        "tables": len(tables),
        "pages": connected,
        "writes": writes,
        "table": table_ms,
        "alone": alone_ms,
        "director": director_ms,
        "standings": standings_ms,
        "server_cpu_ms": cpu_ms,
        "wall_s": time.perf_counter() - began,
    }


def _nav(client: Any, label: str) -> None:
    """Tap a bottom-bar destination, as the Flutter client does (bench_table.py's way)."""
    from support.flet_wire import _walk

    bars = [
        v
        for f in client.frames
        for v in _walk(f)
        if isinstance(v, dict) and v.get("_c") == "NavigationBar"
    ]
    bar = bars[-1]
    index = [d.get("label") for d in bar.get("destinations", [])].index(label)
    n = len(client.frames)
    client.props(bar["_i"], {"selected_index": index})
    client.event(bar["_i"], "change", str(index))
    client.wait(lambda c: len(c.frames) > n)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def print_wire(f: dict[str, Any]) -> None:
    print(
        f"shared tables: {f['tables']} tables, {f['pages']} pages connected, {f['writes']} writes"
    )
    for name, key, goal in (
        ("a write on that table's other phones", "table", "median ≤ 300 ms"),
        ("  … one table writing at a time     ", "alone", "median ≤ 300 ms"),
        ("the director's view after a write   ", "director", "≤ 1000 ms"),
        ("the standings after a write         ", "standings", "≤ 1000 ms"),
    ):
        v = f[key]
        print(
            f"  {name}: median {statistics.median(v):7.1f} ms, p95 {_p95(v):7.1f}, "
            f"max {max(v):7.1f} ({len(v)} measured)   goal {goal}"
        )
    print(
        f"  server CPU per write: {f['server_cpu_ms']:.1f} ms; wall time of the run "
        f"{f['wall_s']:.1f} s; machine: {machine()}"
    )


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument(
        "--wire", action="store_true", help="the shared tables: a real server, raw Flet clients"
    )
    ap.add_argument("--rounds", type=int, default=3, help="--wire: bursts of every table writing")
    ap.add_argument(
        "--dir",
        default=str(Path(__file__).resolve().parent),
        help="where the database goes: a real disk",
    )
    add_smoke(ap)
    args = ap.parse_args()
    if args.smoke:
        args.repeat, args.rounds = 4, 1
        print(SMOKE_NOTE)
    if args.wire:
        print_wire(run_wire(args.rounds))
        return 0
    print(f"machine: {machine()}")
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
