"""The hosted server's workers for the tests and bench_online: ``scorepad --db URL --web
--workers N`` as a process on a free port, which worker serves a page, which workers listen.

Which worker a page reached is read from the workers' own sockets (psutil): the page's local
port is the peer port of one worker's connection.  A worker serves (and hears the others'
writes) once its listening connection is up: listen.py names it with the worker's pid in
``pg_stat_activity``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil

from scorepad.app.server.listen import APPLICATION

from .flet_wire import Client
from .table_server import ROOT, free_port, wait_ready


@contextmanager
def workers(
    url: str, folder: Path, n: int = 2, *, hosted: bool = False
) -> Iterator[tuple[int, psutil.Process]]:
    """``scorepad --db URL --web --workers n`` on a free port (``hosted``: ``scorepad serve``
    on 127.0.0.1): the port and the supervisor."""
    port = free_port()
    log = folder / f"server-{port}.log"
    env = dict(os.environ, FLET_WEB_NO_CDN="1")
    env.pop("DISPLAY", None)
    env.pop("SCOREPAD_ADMIN_SECRET", None)
    argv = ["--lang", "en", "--db", url, "--web", "--port", str(port), "--workers", str(n)]
    if hosted:
        argv = ["serve", "--lang", "en", "--db", url, "--host", "127.0.0.1"]
        argv += ["--port", str(port), "--workers", str(n)]
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
        serving(url, supervisor, n)
        yield port, supervisor
    finally:
        running = supervisor.children()
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    # Every worker stopped with the supervisor (SIGTERM): nothing left serving.
    assert not [w for w in running if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]


def listening(url: str) -> set[int]:
    """The workers whose listening connection is up (listen.py names it with the pid): each
    serves, and hears the others' writes."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT application_name FROM pg_stat_activity WHERE application_name LIKE %s",
            (f"{APPLICATION}-%",),
        ).fetchall()
    return {int(r[0].rsplit("-", 1)[1]) for r in rows}


def alive(supervisor: psutil.Process) -> list[psutil.Process]:
    """The supervisor's workers now (one killed a moment ago and not yet reaped left out)."""
    found = []
    for worker in supervisor.children():
        try:
            if worker.status() != psutil.STATUS_ZOMBIE:
                found.append(worker)
        except psutil.NoSuchProcess:
            continue
    return found


def serving(
    url: str, supervisor: psutil.Process, n: int = 2, *, gone: int = 0, timeout: float = 60
) -> set[int]:
    """Wait until ``n`` live workers listen (``gone``, one killed, not among them); their pids.
    (A killed worker's connection may be listed a moment longer: PostgreSQL has not noticed.)"""
    deadline = time.monotonic() + timeout
    while True:
        live = {w.pid for w in alive(supervisor)} - {gone}
        ready = live & listening(url)
        if len(ready) >= n:
            return ready
        assert time.monotonic() < deadline, f"workers {live}, listening {ready}"
        time.sleep(0.05)


def worker_of(client: Client, supervisor: psutil.Process) -> int | None:
    """The pid of the worker holding ``client``'s connection (None: none does, now)."""
    try:
        port = client.ws.socket.getsockname()[1]
    except OSError:  # closed meanwhile (its phone is reconnecting)
        return None
    for worker in supervisor.children():
        try:
            if any(c.raddr and c.raddr.port == port for c in worker.net_connections("tcp")):
                return worker.pid
        except psutil.NoSuchProcess:
            continue
    return None
