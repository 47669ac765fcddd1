"""Deal analyses (the double-dummy search) run off the event loop, a bounded number at once.

The search takes from milliseconds (the compiled core) to seconds (the Python one, or a long
record) of CPU, and the compiled core holds the GIL: run on the event loop or in a thread, it
stalled every page of the server (three viewers tapping "Analyse" held an honest write for over
a second).  Here it runs in worker processes (:data:`WORKERS`), at most :data:`PER_PAGE` for
one page at a time and :data:`IN_ALL` for the whole server (running and waiting); a request
past either bound is refused in a sentence.  This module imports no Flet: the workers load only
the engine.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..core.i18n import N_, Msg, msg
from ..phone import ON_PHONE
from ..play.analysis import analyse, lines
from ..play.record import RecordInvalid, audit, parse_record
from ..play.revoke import audit_revoke, best_play, best_play_lines

T = TypeVar("T")

_CPUS = os.cpu_count() or 2
WORKERS = 1 if _CPUS <= 2 else min(4, _CPUS - 1)  # a core stays with the pages
PER_PAGE = 1  # analyses of one page at once
IN_ALL = 2 * WORKERS  # analyses of the whole server at once, running and waiting


class Busy(Exception):
    """An analysis refused: too many at once (nothing was run)."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message.text)
        self.message = message


def record_lines(text: str) -> list[Msg]:
    """The sentences for a pasted record: the verdict, then the analysis (or why it is refused)."""
    if not text.strip():
        return [msg(N_("Paste a deal record first."))]
    try:
        found = audit(parse_record(text.encode("utf-8")))
    except RecordInvalid as exc:
        step = exc.step
        if step is None:
            return [exc.message]
        return [msg(N_("Illegal: {step}: {why}"), step=step, why=exc.message)]
    out = [msg(N_("Verdict: every step is legal."))]
    out.extend(lines(found, analyse(found)))
    return out


def revoke_lines(text: str, sheet: dict[str, Any] | None) -> list[Msg]:
    """After a revoke's verdict (the card check): what best play made, from the deal's start
    and from the revoke's position, beside the sheet's count (``sheet``: the sheet's deal, or
    None).  ``text``: the record as JSON (a worker process is given text, not models)."""
    try:
        record = parse_record(text.encode("utf-8"))
        return best_play_lines(audit_revoke(record), best_play(record), sheet)
    except RecordInvalid as exc:  # the record changed under the request: said, not raised
        return [exc.message]


class Analyses:
    """The server's (or the desktop app's) analyses: a process pool and its two bounds."""

    def __init__(
        self, workers: int = WORKERS, in_all: int = IN_ALL, per_page: int = PER_PAGE
    ) -> None:
        self.workers = workers
        self.in_all = in_all
        self.per_page = per_page
        self.pending = 0
        self._pages: Counter[int] = Counter()
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # spawn: a fresh interpreter, never a fork of the server's threads and sockets
                self._pool = ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn")
                )
            return self._pool

    async def run(self, page: object, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker process for ``page``; :class:`Busy` past a bound."""
        key = id(page)
        if self._pages[key] >= self.per_page:
            raise Busy(msg(N_("An analysis from this page is still running: wait for it.")))
        if self.pending >= self.in_all:
            raise Busy(msg(N_("The server is busy with other analyses: try again in a moment.")))
        self._pages[key] += 1
        self.pending += 1
        try:
            if ON_PHONE:  # Pyodide has no processes (nor threads): the page's own Python runs it
                return work(*args)
            pool = self.pool()
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, work, *args)
            except BrokenProcessPool:  # a worker died (killed, out of memory): a new pool next
                with self._lock:
                    if self._pool is pool:
                        self._pool = None
                raise
        finally:
            self.pending -= 1
            self._pages[key] -= 1
            if self._pages[key] <= 0:
                del self._pages[key]

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


#: The one of this process.
ANALYSES = Analyses()
