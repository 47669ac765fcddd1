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
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import pytest
from support.flet_wire import Client
from support.table_server import ROOT, free_port, wait_ready

from scorepad.app.server.grants import Grants
from scorepad.app.server.listen import RECONNECTING
from scorepad.journal import number_of
from scorepad.store import Store

PLAYERS = ["Anna", "Boris", "Vera"]


@contextmanager
def workers(url: str, folder: Path, n: int = 2) -> Iterator[tuple[int, psutil.Process]]:
    """``scorepad --db URL --web --workers n`` on a free port: the port and the supervisor."""
    port = free_port()
    log = folder / f"server-{port}.log"
    env = dict(os.environ, FLET_WEB_NO_CDN="1")
    env.pop("DISPLAY", None)
    argv = ["--lang", "en", "--db", url, "--web", "--port", str(port), "--workers", str(n)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorepad.cli", *argv],
        cwd=ROOT,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    supervisor = psutil.Process(proc.pid)
    try:
        wait_ready(proc, f"http://127.0.0.1:{port}/", log)
        deadline = time.monotonic() + 30
        while len(supervisor.children()) < n:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        yield port, supervisor
    finally:
        serving = supervisor.children()
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    # Every worker stopped with the supervisor (SIGTERM): nothing left serving.
    assert not any(w.is_running() and w.status() != "zombie" for w in serving)


def sessions(url: str, n: int) -> list[tuple[int, str]]:
    """``n`` new pulkas (each its own table) and their join tokens."""
    with Store(url) as store:
        made = [store.create_session(PLAYERS, pool_target=10_000) for _ in range(n)]
        grants = Grants(store, threading.RLock())
        return [(sid, grants.link(sid)) for sid in made]


def worker_of(client: Client, supervisor: psutil.Process) -> int | None:
    """The pid of the worker holding ``client``'s connection (None: none does, now)."""
    port = client.ws.socket.getsockname()[1]
    for worker in supervisor.children():
        try:
            if any(c.raddr and c.raddr.port == port for c in worker.net_connections("tcp")):
                return worker.pid
        except psutil.NoSuchProcess:
            continue
    return None


def tap(client: Client, ident: str, timeout: float = 15) -> None:
    """Tap a control and wait for the page's answer (a new frame)."""
    client.wait(lambda c: c.has(ident), timeout)
    n = len(client.frames)
    client.event(client.control(ident))
    client.wait(lambda c: len(c.frames) > n, timeout)


def nav(client: Client, label: str, timeout: float = 15) -> None:
    """A bottom-bar destination tapped, as the Flutter client does."""
    from support.flet_wire import _walk

    client.wait(lambda c: c.shows(label), timeout)
    bar = [
        v
        for f in client.frames
        for v in _walk(f)
        if isinstance(v, dict) and v.get("_c") == "NavigationBar"
    ][-1]
    index = [d.get("label") for d in bar.get("destinations", [])].index(label)
    n = len(client.frames)
    client.props(bar["_i"], {"selected_index": index})
    client.event(bar["_i"], "change", str(index))
    client.wait(lambda c: len(c.frames) > n, timeout)


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
    shown: int = 1  # the deal the page's entry names (the next one to write)
    stood: list[tuple[int, int]] = field(default_factory=list)  # (shown, stored) after reconnects

    def connect(self, url: str) -> None:
        """A new page at the table's link (a reload, or the phone finding another worker)."""
        if self.client is not None:
            self.client.close()
            self.reconnects += 1
        self.client = None
        client = Client(self.port, f"/join/{self.sid}/{self.token}")
        client.wait(lambda c: c.has("nav-entry"), 20)
        nav(client, "Deal", 20)
        # The sheet as it stands: the deal entry names the next deal after every stored one.
        stored = deals_of(url, self.sid)[0]
        client.wait(lambda c: c.shows(header(stored + 1)), 20)
        self.stood.append((stored + 1, stored))
        self.shown = stored + 1
        self.client = client

    def write(self) -> bool:
        """One deal written and acknowledged (True); False when the page went away or refused."""
        client = self.client
        assert client is not None
        try:
            for ident in ("kind-raspasy", f"tricks-1-{self.index + 1}", "tricks-2-3"):
                tap(client, ident)
            nxt = header(self.shown + 1)
            client.wait(lambda c: c.has("confirm-deal"), 15)
            self.taps += 1
            client.event(client.control("confirm-deal"))
            client.wait(lambda c: c.shows(nxt), 15)
        except (AssertionError, OSError, TimeoutError):
            return False
        self.acknowledged += 1
        self.shown += 1
        return True


def _run_phone(phone: Phone, url: str, hold: threading.Event, stop: threading.Event) -> None:
    rng = random.Random(phone.index)
    while not stop.is_set():
        if hold.is_set():  # PostgreSQL is being restarted: the page is read, nothing written
            if phone.client is not None:
                phone.client.pump(0.1)
                phone.told_reconnecting |= phone.client.shows(RECONNECTING)
            else:
                time.sleep(0.1)
            continue
        try:
            if phone.client is None or phone.client.closed is not None:
                phone.connect(url)
            if not phone.write():
                # Not acknowledged (its worker killed, or the database away): the phone comes
                # back to the table's link and reads the sheet as it stands, never writes twice.
                phone.connect(url)
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
            threading.Thread(target=_run_phone, args=(p, postgres_url, hold, stop), daemon=True)
            for p in phones
        ]
        for t in threads:
            t.start()
        rng = random.Random(36)
        kills = 0
        spread: set[int] = set()
        try:
            while kills < 50:  # bounded: 50 kills, each worker restarted by the supervisor
                time.sleep(0.3 + rng.random() * 0.5)  # the phones write meanwhile
                for p in phones:
                    if p.client is not None and p.client.closed is None:
                        pid = worker_of(p.client, supervisor)
                        if pid is not None:
                            spread.add(pid)
                alive = [w for w in supervisor.children() if w.status() != "zombie"]
                victim = rng.choice(alive)
                os.kill(victim.pid, signal.SIGKILL)
                kills += 1
                deadline = time.monotonic() + 30
                while victim.pid in [w.pid for w in supervisor.children()] or (
                    len(supervisor.children()) < 2
                ):
                    assert time.monotonic() < deadline, "the supervisor never restarted it"
                    time.sleep(0.02)
                if kills == 25:  # mid-evening: PostgreSQL restarted once
                    before = sum(p.acknowledged for p in phones)
                    hold.set()
                    time.sleep(1.0)  # the writes in flight end (written or refused)
                    postgres_cluster.restart()
                    deadline = time.monotonic() + 20
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
        assert after > before
        # The phones were on both workers.
        assert len(spread) >= 2
        for p in phones:
            count, numbers, seqs = deals_of(postgres_url, p.sid)
            # Nothing acknowledged lost; no tap written twice (at most once each).
            assert p.acknowledged <= count <= p.taps, (p.index, p.acknowledged, count, p.taps)
            assert numbers == list(range(1, count + 1))  # the deal numbers contiguous
            assert seqs == list(range(1, count + 1))  # one action a deal, none lost between
            # Every page that came back showed the sheet as it stood.
            assert all(shown == stored + 1 for shown, stored in p.stood)
        assert sum(p.reconnects for p in phones) >= 10
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
