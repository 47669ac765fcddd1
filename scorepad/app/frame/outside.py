"""Writes made by another process on the same database (``scorepad club deal …`` in a
terminal, another server) shown on every page as the app's own writes are.

One light poll per server: every :data:`POLL` seconds, ``PRAGMA data_version`` on the server's
own connection, which changes only when another connection has committed (so the app's own
writes never announce anything twice: they only bring the last look up to date).  A read never writes: no table, no file, no journal mode is touched.
Only when the number changed are the sources asked what they look like now (each session's
revision, each club table's confirmations...); what differs from the last look is announced on
the same PubSub topics as an in-app write (live.TOPIC, the club's), and the pages draw it the
same way.  The poll skips a turn while a page holds the database lock: the event loop never
waits for it.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import weakref
from collections.abc import Callable, Hashable
from typing import Any

import flet as ft

from ...store import Store
from .live import TOPIC

#: Seconds between two looks at the database (issue #25: seen within a second).
POLL = 0.5
#: What a source says: for each thing it follows, (its fingerprint, the topic, the message
#: announced when the fingerprint changes).
Look = dict[Hashable, tuple[Any, str, Any]]
Source = Callable[[sqlite3.Connection], Look]
log = logging.getLogger(__name__)


def _sessions(conn: sqlite3.Connection) -> Look:
    """Each session's revision: a change is announced as a write (live.listener)."""
    return {
        ("session", sid): (revision, TOPIC, (sid, revision))
        for sid, revision in conn.execute("SELECT id, revision FROM sessions")
    }


_SOURCES: list[Source] = [_sessions]


def add_source(source: Source) -> None:
    """A package's own state to follow (the club's confirmations, announcements, tours)."""
    _SOURCES.append(source)


class Outside:
    """What the database looked like at the last look, and the look that finds what changed."""

    def __init__(self, store: Store, lock: threading.RLock) -> None:
        self.store = store
        self.lock = lock
        self.version: int | None = None
        self.own = 0  # the connection's total_changes at the last look
        self.seen: Look = {}
        self.task: asyncio.Task[None] | None = None  # the poll, kept while the server runs

    def look(self) -> list[tuple[str, Any]]:
        """What other processes changed since the last look: (topic, message) to announce.

        Two counters, both read without touching the file: ``PRAGMA data_version`` (another
        connection committed) and the connection's own ``total_changes`` (this server wrote,
        and announced it itself).  Neither moved: nothing to do.  Only this server wrote: the
        last look is brought up to date silently, so that the next outside write announces
        only what it changed (a page redrawn for nothing may lose a tap in flight).  The first
        look only learns the state; a busy lock is a turn skipped."""
        if not self.lock.acquire(blocking=False):
            return []
        try:
            conn = self.store.conn
            version = conn.execute("PRAGMA data_version").fetchone()[0]
            own = conn.total_changes
            outside = version != self.version
            if not outside and own == self.own:
                return []
            first = self.version is None
            self.version, self.own = version, own
            now: Look = {}
            for source in _SOURCES:
                try:
                    now.update(source(conn))
                except sqlite3.OperationalError:  # a database without that source's tables
                    continue
        finally:
            self.lock.release()
        changed: list[tuple[str, Any]] = []
        for key, (print_, topic, message) in now.items():
            if (key not in self.seen or self.seen[key][0] != print_) and (
                (topic, message) not in changed  # a table's marks and changes: one message
            ):
                changed.append((topic, message))
        self.seen = now
        return changed if outside and not first else []


_WATCHING: weakref.WeakKeyDictionary[Store, Outside] = weakref.WeakKeyDictionary()


def watch(page: ft.Page, store: Store, lock: threading.RLock) -> None:
    """Start the server's poll (once per store: the first page starts it, for every page; it
    runs on the server's event loop, not as the page's task, so it outlives that page)."""
    if store in _WATCHING or store.backend.dialect != "sqlite":
        return  # PostgreSQL tells each worker of the others' writes (app/server/listen.py)
    outside = _WATCHING[store] = Outside(store, lock)
    pubsub = page.pubsub  # its hub is the server's: the message reaches every page

    async def run() -> None:
        while True:
            try:
                changes = outside.look()
            except sqlite3.Error as exc:  # the database closed: the server is stopping
                log.debug("outside writes no longer watched: %s", exc)
                _WATCHING.pop(store, None)
                return
            for topic, message in changes:
                pubsub.send_all_on_topic(topic, message)
            await asyncio.sleep(POLL)

    outside.task = asyncio.get_running_loop().create_task(run())
