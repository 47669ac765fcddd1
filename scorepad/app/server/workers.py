"""Several worker processes serving one table server on one address, sharing one PostgreSQL.

    scorepad --share --db postgresql://USER@HOST/DB --workers 2

:func:`serve_workers` is the launcher (``scorepad --share`` and ``scorepad serve`` call it).  A
supervisor process binds the listening socket once, then forks the workers; each worker runs
the whole server of run.py (Flet's FastAPI app under uvicorn, its own pages, its own store
connection and its own listening connection, listen.py) on that one socket.  A worker that dies
(SIGKILL, a crash) is started again at once; SIGTERM or Ctrl-C to the supervisor stops them all.

Why one socket bound by the supervisor and inherited, not SO_REUSEPORT:

- every worker accepts from one queue: a connection waiting there when a worker is killed is
  taken by another worker, never reset (with SO_REUSEPORT the kernel hashes each connection to
  one worker's own queue, and a killed worker's queue dies with the connections in it);
- the address stays bound while a worker is restarted, so no other program can take the port
  and a phone's reconnect is at worst queued a moment, never refused;
- Flet 1.0.5's web app keeps its pages (sessions, PubSub, the app manager) in its process, so
  each worker must build its own app: uvicorn's own ``workers=`` imports the app by a string,
  which Scorepad's app (a closure over the store and the table) is not; here each worker calls
  run.serve with the socket, as one server would.

Why fork: the supervisor imports Flet, FastAPI, uvicorn and the app once (some 2 s of CPU on a
small machine); a forked worker starts with all of it, so a killed worker serves again within
a fraction of a second.  Nothing is connected nor any thread started before a fork: the
database is opened by each worker after it.  Where there is no fork (Windows), several workers
are refused in a sentence; one process serves as before.

Several workers need PostgreSQL: a SQLite file is one computer's file, written by one process at
a time, and a worker would learn of another's writes only by polling it.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection as Pipe
from pathlib import Path
from typing import Any

from ...core.i18n import N_, Msg, msg
from ...store import Store, StoreError
from ...store.backend import is_postgres
from .access import ServeRefused, check_pin_option, generate_pin
from .hosted import HostedOptions
from .run import serve
from .run_hosted import run_hosted
from .server import bind, name_worker
from .share import is_loopback
from .transport import more_descriptors

log = logging.getLogger(__name__)

#: Seconds before a worker that died before it served is started again (a database that cannot
#: be reached, say): a failing start is retried, never in a tight loop.
RETRY = 1.0
#: Seconds a worker has to stop on SIGTERM before it is killed.
STOP_WITHIN = 10.0


def sqlite_refused(workers: int) -> Msg:
    return msg(
        N_(
            "--workers {n} needs a PostgreSQL database (--db postgresql://USER@HOST/DB): a SQLite file is one computer's file, written by one process at a time, so several workers cannot share it; start one worker, or move the data with scorepad copy"
        ),
        n=workers,
    )


def no_fork() -> Msg:
    return msg(
        N_("--workers needs a system that can fork processes (Linux, macOS): start one worker")
    )


@dataclass
class Worker:
    index: int
    process: Any = None  # multiprocessing.Process
    pipe: Pipe | None = None  # the worker says "ready", or why it could not start
    ready: bool = False
    started: float = 0.0


@dataclass
class Supervisor:
    """Starts ``count`` workers on ``sock`` and keeps them running until asked to stop."""

    count: int
    options: dict[str, Any]
    workers: list[Worker] = field(default_factory=list)
    stopping: bool = False
    restarts: int = 0

    def _spawn(self, worker: Worker, *, banner: bool) -> None:
        ctx = multiprocessing.get_context("fork")
        parent, child = ctx.Pipe(duplex=False)
        options = dict(self.options, quiet=not banner)
        worker.process = ctx.Process(
            target=_worker_main,
            args=(child, options, worker.index + 1),
            name=f"scorepad-worker-{worker.index}",
        )
        worker.process.start()
        child.close()
        worker.pipe = parent
        worker.ready = False
        worker.started = time.monotonic()

    def pids(self) -> list[int]:
        return [w.process.pid for w in self.workers if w.process is not None]

    def _first_start(self) -> None:
        """Every worker started and serving, or the first refusal said (nothing left running)."""
        for i in range(self.count):
            worker = Worker(i)
            self.workers.append(worker)
            self._spawn(worker, banner=i == 0)
            refusal = self._await_ready(worker)
            if refusal is not None:
                self.stop()
                raise ServeRefused(Msg("{detail}", {"detail": refusal}))

    def _await_ready(self, worker: Worker) -> str | None:
        """Wait until ``worker`` serves; the sentence of its refusal if it could not."""
        assert worker.pipe is not None
        while True:
            if worker.pipe.poll(0.1):
                try:
                    said = worker.pipe.recv()
                except EOFError:
                    said = None
                if said == "ready":
                    worker.ready = True
                    return None
                if said is not None:
                    return str(said)
            if not worker.process.is_alive():
                worker.process.join()
                return f"worker {worker.index} exited ({worker.process.exitcode})"

    def run(self) -> None:
        """Serve until SIGTERM or Ctrl-C; a worker that dies is started again."""
        old = {s: signal.signal(s, self._asked) for s in (signal.SIGTERM, signal.SIGINT)}
        try:
            self._first_start()
            while not self.stopping:
                self._tend()
                time.sleep(0.05)
        finally:
            self.stop()
            for s, handler in old.items():
                signal.signal(s, handler)

    def _asked(self, sig: int, frame: Any) -> None:
        self.stopping = True

    def _tend(self) -> None:
        for worker in self.workers:
            if worker.pipe is not None and not worker.ready and worker.pipe.poll(0):
                with contextlib.suppress(EOFError):
                    worker.ready = worker.pipe.recv() == "ready"
            if worker.process.is_alive() or self.stopping:
                continue
            worker.process.join()
            code = worker.process.exitcode
            log.warning(
                "worker %d (pid %s) ended (%s): started again",
                worker.index,
                worker.process.pid,
                code,
            )
            if worker.pipe is not None:
                worker.pipe.close()
            if not worker.ready and time.monotonic() - worker.started < RETRY:
                time.sleep(RETRY)  # it never served: the database may be down, say
            self.restarts += 1
            self._spawn(worker, banner=False)

    def stop(self) -> None:
        self.stopping = True
        live = [w.process for w in self.workers if w.process is not None and w.process.is_alive()]
        for p in live:
            with contextlib.suppress(ProcessLookupError):
                os.kill(p.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_WITHIN
        for p in live:
            p.join(max(0.1, deadline - time.monotonic()))
            if p.is_alive():
                p.kill()
                p.join()


def _worker_main(pipe: Pipe, options: dict[str, Any], number: int = 1) -> None:
    """One worker (``number``: 1 to N): the server of run.py on the supervisor's socket."""
    # The supervisor's handlers are its own; uvicorn's server installs the worker's.
    for s in (signal.SIGTERM, signal.SIGINT):
        signal.signal(s, signal.SIG_DFL)
    name_worker(number)  # each page's handshake says which worker holds it (server.py)

    def ready() -> None:
        with contextlib.suppress(OSError):
            pipe.send("ready")

    hosted = options.pop("hosted", None)
    try:
        if hosted is not None:  # scorepad serve's (hosted.py), on the same socket
            run_hosted(hosted, sock=options["sock"], quiet=options["quiet"], on_ready=ready)
        else:
            serve(on_ready=ready, **options)
    except StoreError as exc:
        with contextlib.suppress(OSError):
            pipe.send(exc.render(options["lang"]))
        os._exit(2)


def hosted_workers(options: HostedOptions) -> None:
    """``scorepad serve`` in ``options.workers`` processes on one socket (one: run_hosted alone),
    as :func:`serve_workers` does for the shared table; several need PostgreSQL."""
    if options.workers <= 1:
        run_hosted(options)
        return
    if not is_postgres(options.db):
        raise ServeRefused(sqlite_refused(options.workers))
    if "fork" not in multiprocessing.get_all_start_methods():
        raise ServeRefused(no_fork())
    more_descriptors()
    sock = bind(options.host, options.port)
    try:
        Store(str(options.db), check_same_thread=False).close()  # migrated once, before any
        Supervisor(options.workers, {"hosted": options, "sock": sock, "lang": options.lang}).run()
    finally:
        sock.close()


def serve_workers(
    db: Path | str,
    lang: str,
    *,
    workers: int,
    host: str,
    port: int,
    pin: str | None,
    certfile: Path | None = None,
    keyfile: Path | None = None,
    pin_wait: float | None = None,
    trusted_proxy: tuple[str, ...] = (),
    join_session: int | None = None,
    public_url: tuple[str, ...] = (),
) -> None:
    """The web app on ``host:port`` in ``workers`` processes (one: as run.serve alone) until
    SIGTERM or Ctrl-C.  Several need a PostgreSQL ``db`` (:func:`sqlite_refused`)."""
    options: dict[str, Any] = {
        "db": db,
        "lang": lang,
        "host": host,
        "port": port,
        "pin": pin,
        "certfile": certfile,
        "keyfile": keyfile,
        "pin_wait": pin_wait,
        "trusted_proxy": trusted_proxy,
        "join_session": join_session,
        "public_url": public_url,
    }
    if workers <= 1:
        serve(**options)
        return
    if not is_postgres(db):
        raise ServeRefused(sqlite_refused(workers))
    if "fork" not in multiprocessing.get_all_start_methods():
        raise ServeRefused(no_fork())
    # One PIN for every worker: a phone that gave it on one writes on all of them.
    networked = not is_loopback(host) or bool(trusted_proxy) or bool(public_url)
    options["explicit"] = pin is not None
    if pin is not None:
        options["pin"] = check_pin_option(pin, shared=networked)
    elif networked:
        options["pin"] = generate_pin()
    more_descriptors()
    sock = bind(host, port)
    try:
        # Migrated (and found reachable) once, before any worker opens it.
        Store(str(db), check_same_thread=False).close()
        options["sock"] = sock
        Supervisor(workers, options).run()
    finally:
        sock.close()
