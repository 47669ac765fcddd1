"""Several workers on one PostgreSQL (scorepad/app/server/workers.py, listen.py), with real
processes: the CLI's server (``--workers 2``) on a throwaway PostgreSQL, phones as raw Flet
clients (tests/support/flet_wire.py), workers killed with SIGKILL, PostgreSQL restarted.

Which worker a phone reached is read from the workers' own sockets (psutil): the phone's local
port is the peer port of one worker's connection.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import pytest
from support.flet_wire import Client, nav
from support.online import alive, listening, serving, worker_of, workers

from scorepad.app.server.grants import Grants
from scorepad.app.server.listen import RECONNECTING
from scorepad.store import Store
from scorepad.store.journal import number_of

PLAYERS = ["Anna", "Boris", "Vera"]
KILLS = 50


def sessions(url: str, n: int) -> list[tuple[int, str]]:
    """``n`` new pulkas (each its own table) and their join tokens."""
    with Store(url) as store:
        made = [store.create_session(PLAYERS, pool_target=10_000) for _ in range(n)]
        grants = Grants(store, threading.RLock())
        return [(sid, grants.link(sid)) for sid in made]


def tap(client: Client, ident: str, timeout: float = 15) -> None:
    """Tap a control and wait for the page's answer (a new frame)."""
    client.wait(lambda c: c.has(ident), timeout)
    n = len(client.frames)
    client.event(client.control(ident))
    client.wait(lambda c: len(c.frames) > n, timeout)


def choose(client: Client, ident: str) -> None:
    """Tap a choice of the deal entry: the page answers with a new frame, or with none when
    the choice was already made (the next all-pass starts on "All pass")."""
    if not client.has(ident):
        return  # a player the entry does not ask on this deal
    n = len(client.frames)
    client.event(client.control(ident))
    deadline = time.monotonic() + 1.0
    while len(client.frames) == n and time.monotonic() < deadline:
        assert client.closed is None, f"closed with {client.closed}"
        client.pump(0.05)


def header(n: int) -> str:
    return f"Deal {n}: "


def deals_of(url: str, sid: int) -> tuple[int, list[int], list[int]]:
    """A session as the store has it: how many deals, their numbers, the actions' seqs."""
    with Store(url) as store:
        stored = store.load(sid)
        seqs = [a.seq for a in store.history(sid)]
    numbers = [number_of(stored.journal, e.deal_id) for e in stored.journal.live]
    return len(stored.journal.live), numbers, seqs


# --- a write through one worker, on a page of the other ---------------------------------------


def test_a_write_through_one_worker_is_on_a_page_of_the_other_within_a_second(
    postgres_url: str, tmp_path: Path
) -> None:
    [(sid, token)] = sessions(postgres_url, 1)
    with workers(postgres_url, tmp_path) as (port, supervisor):
        pages: dict[int, list[Client]] = {}
        opened: list[Client] = []
        for _ in range(16):  # the kernel chooses the worker: open pages until both have some
            page = Client(port, f"/join/{sid}/{token}")
            page.wait(lambda c: c.has("nav-entry"))
            opened.append(page)
            pid = worker_of(page, supervisor)
            assert pid is not None
            pages.setdefault(pid, []).append(page)
            if len(pages) == 2 and all(len(v) >= 1 for v in pages.values()):
                break
        assert len(pages) == 2, "every page reached one worker"
        (a, on_a), (b, on_b) = pages.items()
        watcher, writer = on_a[0], on_b[0]
        nav(watcher, "History")
        nav(writer, "Deal")
        for ident in ("kind-raspasy", "tricks-1-3", "tricks-2-3"):
            tap(writer, ident)
        for page in opened:
            page.pump(0.05)
        registered = watcher.session_id
        seen_before = len(watcher.frames)
        started = time.monotonic()
        writer.event(writer.control("confirm-deal"))
        while not watcher.has("edit-1"):  # deal 1's card, drawn on worker A's page
            assert time.monotonic() - started < 5, "worker A's page never showed the write"
            watcher.pump(0.01)
        took = time.monotonic() - started
        assert took < 1.0, f"{took:.2f} s"
        # Drawn live on the page as it was (its connection, its Flet session): no reload.
        assert watcher.closed is None and watcher.session_id == registered
        assert len(watcher.frames) > seen_before
        assert worker_of(watcher, supervisor) == a and worker_of(writer, supervisor) == b
        writer.wait(lambda c: c.shows(header(2)))
        assert deals_of(postgres_url, sid)[0] == 1
        for page in opened:
            page.close()


# --- kills and a PostgreSQL restart ------------------------------------------------------------


@dataclass
class Phone:
    """One phone at its own table (its own pulka): writes all-pass deals one after another."""

    index: int
    port: int
    sid: int
    token: str
    client: Client | None = None
    taps: int = 0  # "Write the deal" sent
    acknowledged: int = 0  # ... and the page then showed the next deal: the store has it
    reconnects: int = 0
    told_reconnecting: bool = False
    holding: bool = False  # connected, and writing nothing while PostgreSQL restarts
    shown: int = 1  # the deal the page's entry names (the next one to write)
    worker: int | None = None  # the pid of the worker the page reached
    acks: list[tuple[float, int | None]] = field(default_factory=list)  # (when, worker)
    misshown: list[int] = field(default_factory=list)  # pages back that showed another sheet

    def connect(self, url: str, others: list[Phone], supervisor: psutil.Process) -> None:
        """A new page at the table's link (a reload, or the phone finding another worker).

        The kernel gives the connection to whichever worker accepts first; a phone that finds
        every other phone on the same worker opens its page again (a few times at most), so
        that the phones stay on both workers (two on each) as on a busy server."""
        if self.client is not None:
            # What the page showed before it was left (the database's reconnecting note).
            self.told_reconnecting |= self.client.shows(RECONNECTING)
            self.client.close()
            self.reconnects += 1
        self.client = None
        for _ in range(6):
            client = Client(self.port, f"/join/{self.sid}/{self.token}")
            client.eager = True  # every wait below names its state
            client.wait(lambda c: c.has("nav-entry"), 20)
            mine = worker_of(client, supervisor)
            if mine is None or sum(o.worker == mine for o in others if o is not self) < 2:
                break
            client.close()
            # Opened again once two workers serve: while one killed a moment ago is restarted
            # the page can only reach the other, and a page opened again at once lands there.
            both_serving(url, supervisor)
        self.worker = mine
        nav(client, "Deal", 20)
        # The sheet as it stands: the deal entry names the next deal after every stored one.
        stored = deals_of(url, self.sid)[0]
        try:
            client.wait(lambda c: c.shows(header(stored + 1)), 20)
        except AssertionError:
            if client.closed is None and not client.crashed:  # open, and shows another deal
                self.misshown.append(stored)
            raise
        self.shown = stored + 1
        self.client = client

    def write(self) -> bool:
        """One deal written and acknowledged (True); False when the page went away or refused."""
        client = self.client
        assert client is not None
        try:
            # 3 tricks for each player the entry asks (in the deal's order; the last inferred).
            for ident in ("kind-raspasy", "tricks-0-3", "tricks-1-3", "tricks-2-3"):
                choose(client, ident)
            nxt = header(self.shown + 1)
            client.wait(lambda c: c.has("confirm-deal"), 15)
            self.taps += 1
            client.event(client.control("confirm-deal"))
            client.wait(lambda c: c.shows(nxt), 15)
        except (AssertionError, OSError, TimeoutError):
            return False
        self.acknowledged += 1
        self.shown += 1
        self.acks.append((time.monotonic(), self.worker))
        return True


def both_serving(url: str, supervisor: psutil.Process, timeout: float = 30) -> None:
    """Wait until two live workers listen (after ``timeout`` s the page takes either)."""
    deadline = time.monotonic() + timeout
    while len({w.pid for w in alive(supervisor)} & listening(url)) < 2:
        if time.monotonic() > deadline:
            return
        time.sleep(0.05)


def _run_phone(
    phone: Phone,
    phones: list[Phone],
    supervisor: psutil.Process,
    url: str,
    hold: threading.Event,
    stop: threading.Event,
) -> None:
    rng = random.Random(phone.index)
    while not stop.is_set():
        try:
            if phone.client is None or phone.client.closed is not None:
                phone.connect(url, phones, supervisor)
            assert phone.client is not None
            if hold.is_set():  # PostgreSQL is being restarted: the page is read, nothing written
                phone.holding = True
                phone.client.pump(0.1)
                phone.told_reconnecting |= phone.client.shows(RECONNECTING)
                continue
            phone.holding = False
            if not phone.write():
                # Not acknowledged (its worker killed, or the database away): the phone comes
                # back to the table's link and reads the sheet as it stands, never writes twice.
                phone.connect(url, phones, supervisor)
        except Exception:  # any failure: the phone simply comes back
            time.sleep(0.1)  # no worker accepting yet (both restarting): try again
            phone.client = None
        time.sleep(rng.random() * 0.05)


def test_fifty_kills_and_a_postgresql_restart_lose_and_double_nothing(
    postgres_cluster: Any, postgres_url: str, tmp_path: Path
) -> None:
    tables = sessions(postgres_url, 4)
    with workers(postgres_url, tmp_path) as (port, supervisor):
        phones = [Phone(i, port, sid, token) for i, (sid, token) in enumerate(tables)]
        hold, stop = threading.Event(), threading.Event()
        threads = [
            threading.Thread(
                target=_run_phone,
                args=(p, phones, supervisor, postgres_url, hold, stop),
                daemon=True,
            )
            for p in phones
        ]
        for t in threads:
            t.start()
            time.sleep(0.5)  # one after another: each finds where the others are
        rng = random.Random(36)
        kills = 0
        together = 0  # the kills that came while phones were on both workers
        try:
            while kills < KILLS:  # bounded: each killed worker restarted by the supervisor
                # Every phone back at its table (on either worker), writing a moment.
                deadline = time.monotonic() + 60
                while not all(p.client is not None and p.client.closed is None for p in phones):
                    assert time.monotonic() < deadline, "a phone never came back"
                    time.sleep(0.05)
                time.sleep(0.2 + rng.random() * 0.3)
                workers_now = alive(supervisor)
                # Phones at their tables on both workers as this kill comes?
                on = {p.worker for p in phones if p.client is not None and p.client.closed is None}
                together += len(on & {w.pid for w in workers_now}) == 2
                holding = [w for w in workers_now if any(p.worker == w.pid for p in phones)]
                victim = rng.choice(holding or workers_now)  # a worker with phones on it
                os.kill(victim.pid, signal.SIGKILL)
                kills += 1
                # Restarted by the supervisor, and serving before the next kill.
                serving(postgres_url, supervisor, gone=victim.pid)
                if kills == KILLS // 2:  # mid-evening: PostgreSQL restarted once
                    # Every phone back at its table and idle (its write in flight ended), then
                    # the restart: the pages open on both workers are told.
                    hold.set()
                    deadline = time.monotonic() + 60
                    while not all(p.holding for p in phones):
                        assert time.monotonic() < deadline, "the phones never came back"
                        time.sleep(0.05)
                    before = sum(p.acknowledged for p in phones)
                    postgres_cluster.restart()
                    deadline = time.monotonic() + 30
                    while not any(p.told_reconnecting for p in phones):
                        assert time.monotonic() < deadline, "no phone was told of the reconnect"
                        time.sleep(0.1)
                    hold.clear()
            # Writes resume after the restart and the last kill.
            after = sum(p.acknowledged for p in phones)
            deadline = time.monotonic() + 30
            while sum(p.acknowledged for p in phones) < after + 4:
                assert time.monotonic() < deadline, "writes did not resume"
                time.sleep(0.1)
        finally:
            stop.set()
            for t in threads:
                t.join(30)
        for p in phones:
            count, numbers, seqs = deals_of(postgres_url, p.sid)
            # Nothing acknowledged lost; no tap written twice (at most once each).
            assert p.acknowledged <= count <= p.taps, (p.index, p.acknowledged, count, p.taps)
            assert numbers == list(range(1, count + 1))  # the deal numbers contiguous
            assert seqs == list(range(1, count + 1))  # one action a deal, none lost between
            # Every page that came back showed the sheet as it stood (its next deal's number).
            assert p.misshown == []
        assert after > before  # written after PostgreSQL's restart too
        # The phones wrote on both workers, and on many workers' lives (each restart a new pid).
        assert together >= kills // 2, together
        assert len({pid for p in phones for _, pid in p.acks}) >= kills // 5
        assert sum(p.reconnects for p in phones) >= kills // 5
        for p in phones:
            if p.client is not None:
                p.client.close()


def test_more_than_one_worker_on_a_sqlite_file_is_refused_in_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from scorepad.cli import main

    monkeypatch.chdir(tmp_path)
    db = tmp_path / "club.db"
    assert main(["--lang", "en", "--db", str(db), "--web", "--workers", "2"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "--workers 2 needs a PostgreSQL database (--db postgresql://USER@HOST/DB): a SQLite file "
        "is one computer's file, written by one process at a time, so several workers cannot "
        "share it; start one worker, or move the data with scorepad copy\n"
    )
    assert not db.exists()
