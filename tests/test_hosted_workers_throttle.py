"""``scorepad serve --workers 2`` on PostgreSQL: wrong PINs typed on pages of both workers are
counted once, in the database (throttle.py, ``wrong_tries``).  An address's 20th miss makes its
next new device wait, whichever worker the misses and the device reach: not at the 40th, as
two workers counting in their own memories would allow.  And one process on a SQLite file
counts in the file: a restart gives the address no more tries.  Real processes, raw Flet
clients (support/flet_wire.py), the test's own PostgreSQL."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from support.flet_wire import Client
from support.hosted_server import serving
from support.online import worker_of, workers
from test_table_safety import WAITING, type_pin

from scorepad.app.server.access import ADDRESS_TRIES, TRIES
from scorepad.app.server.grants import Grants
from scorepad.app.server.owners import Owners
from scorepad.store import Store

PLAYERS = ["Anna", "Boris", "Vera"]


def pin_page(port: int, route: str) -> Client:
    """A new device (its own storage) on the table's PIN screen."""
    page = Client(port, route, prefs={})
    page.wait(lambda c: c.has("pin-open"))
    page.event(page.control("pin-open"))
    page.wait(lambda c: c.has("pin-field"))
    return page


def opened_at_once(port: int, route: str, n: int = 3) -> list[Client]:
    """``n`` new devices opened at the same moment: one after another, the kernel hands every
    connection to the worker that accepted the last (measured: 24 of 24 on one worker)."""
    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(lambda _: pin_page(port, route), range(n)))


def test_wrong_pins_on_both_workers_reach_the_addresss_bound_at_its_documented_number(
    postgres_url: str, tmp_path: Path
) -> None:
    with Store(postgres_url) as store:
        sid = store.create_session(PLAYERS)
        lock = threading.RLock()
        _, pin = Owners(store, lock).issue(sid)  # a phone's table: its own PIN
        token = Grants(store, lock).link(sid)
    wrong = "000000" if pin != "000000" else "111111"
    route = f"/join/{sid}/{token}"
    with workers(postgres_url, tmp_path, hosted=True) as (port, supervisor):
        # Guessers from this one address (127.0.0.1), each a new device under its own bound
        # (4 misses), on pages the kernel spreads over the two workers: opened in batches
        # until both workers hold some.
        by_worker: dict[int, list[Client]] = {}
        opened: list[Client] = []
        while len(by_worker) < 2 or len(opened) < ADDRESS_TRIES // (TRIES - 1):
            assert len(opened) < 24, "every page reached one worker"
            for page in opened_at_once(port, route):
                opened.append(page)
                pid = worker_of(page, supervisor)
                assert pid is not None
                by_worker.setdefault(pid, []).append(page)
        # Pages of both workers, in turn, until 20 misses from the address.
        order = [p for pair in zip(*by_worker.values(), strict=False) for p in pair]
        order += [p for p in opened if p not in order]
        guessers = order[: ADDRESS_TRIES // (TRIES - 1)]
        served = {worker_of(p, supervisor) for p in guessers}
        assert len(served) == 2, "the misses were typed on both workers"
        for page in guessers:
            for _ in range(TRIES - 1):
                type_pin(page, wrong)
                assert page.shows("Wrong PIN. Tries left on this device:")
                assert not any(WAITING.fullmatch(s) for s in page.strings())
        # The next new device of that address waits, on each worker: the 21st miss is never
        # typed (with a count per worker, either would still take ten more).
        told: set[int] = set()
        for _ in range(8):
            for probe in opened_at_once(port, route):
                opened.append(probe)
                pid = worker_of(probe, supervisor)
                assert pid is not None
                if pid in told:
                    continue
                type_pin(probe, pin)  # even the right PIN: the network waits
                assert any(WAITING.fullmatch(s) for s in probe.strings()), pid
                assert not probe.has("nav-entry")
                told.add(pid)
            if len(told) == 2:
                break
        assert len(told) == 2, "a new device reached both workers"
        for page in opened:
            page.close()
    with Store(postgres_url) as store:
        rows = store.backend.query("SELECT misses FROM wrong_tries ORDER BY misses")
    # One row a device (4 misses each) and one for the address (20), none per worker.
    assert [r["misses"] for r in rows] == [TRIES - 1] * len(guessers) + [ADDRESS_TRIES]


def test_one_process_on_sqlite_counts_in_its_file_and_a_restart_gives_no_more_tries(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "serve.db")
    with Store(db) as store:
        sid = store.create_session(PLAYERS)
        lock = threading.RLock()
        _, pin = Owners(store, lock).issue(sid)
        token = Grants(store, lock).link(sid)
    wrong = "000000" if pin != "000000" else "111111"
    route = f"/join/{sid}/{token}"
    with serving(db, tmp_path) as base:
        port = int(base.rsplit(":", 1)[1])
        for _ in range(ADDRESS_TRIES // (TRIES - 1)):  # new devices under their own bound
            with pin_page(port, route) as page:
                for _ in range(TRIES - 1):
                    type_pin(page, wrong)
                    assert page.shows("Wrong PIN. Tries left on this device:")
    # The server restarted: the address's 20 misses are in the file, its new device waits.
    with serving(db, tmp_path) as base, pin_page(int(base.rsplit(":", 1)[1]), route) as probe:
        type_pin(probe, pin)
        assert any(WAITING.fullmatch(s) for s in probe.strings())
        assert not probe.has("nav-entry")
    with Store(db) as store:
        rows = store.backend.query("SELECT misses FROM wrong_tries ORDER BY misses")
    assert [r["misses"] for r in rows][-1] == ADDRESS_TRIES
