"""Writes made by another worker (or any other process) on the same PostgreSQL, shown on this
worker's pages within a moment: PostgreSQL's LISTEN/NOTIFY, one listening connection per worker.

Every write of a session announces itself in its own transaction (the store's
``_update_cache``: ``NOTIFY scorepad_written, 'SESSION REVISION'``; a join link renewed or
moved, grants.py: ``'link SESSION'``, ``'moved OLD NEW'``, told to the pages as live.py tells a
worker's own; sent by PostgreSQL only once the transaction commits, never for a write rolled
back).  Each worker holds one more connection,
which only listens, in a thread of its own: a notification from another connection is handed
to the worker's event loop and announced on the same PubSub topic as a write made on this worker
(live.TOPIC), so the pages draw it exactly as they draw a write of their own server: each page
showing that session reads it from the store.  No page polls anything.  A notification sent by
this worker's own store connection is passed over: its pages were told by the write itself.

The connection lost (PostgreSQL restarted, the network cut) is found at once (the listening
socket closes), and every page of the worker is told that the server is reconnecting to its
database (:data:`DATABASE` topic: a notice on the page, nothing redrawn under the player's
finger).  Once a connection is back, the sessions' revisions are read again and every session
that moved meanwhile is announced (a notification is not kept for a listener that was away),
then the pages are told the database is back and are drawn as the store stands.

On SQLite nothing here runs: one process serves a SQLite file, and another process's writes are
found by outside.py's light poll of ``PRAGMA data_version``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.i18n import N_
from ...store.actions import WRITTEN
from ..frame import live

if TYPE_CHECKING:
    from ...store import Store
    from ..frame.shell import Shell

log = logging.getLogger(__name__)

#: The channel every session write is announced on (scorepad/store/actions.py).
CHANNEL = WRITTEN
#: PubSub topic: False when this worker lost its database, True when it is back.
DATABASE = "scorepad-database"
#: The listening connection's name in pg_stat_activity (with the worker's pid).
APPLICATION = "scorepad-listen"
#: Seconds between two tries to reach a lost database.
RETRY = 0.5


def parse(payload: str) -> tuple[int, int] | None:
    """``'SESSION REVISION'`` as two numbers; None for anything else (nothing announced)."""
    parts = payload.split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def parse_link(payload: str) -> int | tuple[int, int] | None:
    """``'link SESSION'`` (its join link renewed: the old one is shut) as the session;
    ``'moved OLD NEW'`` (the table plays on in NEW) as the pair; None for anything else.  What
    live.link_renewed and live.table_moved tell a worker's own pages."""
    parts = payload.split()
    if not parts or not all(p.isdigit() for p in parts[1:]):
        return None
    if parts[0] == "link" and len(parts) == 2:
        return int(parts[1])
    if parts[0] == "moved" and len(parts) == 3:
        return int(parts[1]), int(parts[2])
    return None


class Listener:
    """One worker's listening connection and what it announces to the worker's pages."""

    def __init__(
        self,
        url: str,
        store: Store,
        announce: Callable[[str, Any], None],
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self.url = url
        self.store = store
        self.announce = announce  # (topic, message) → every page of this worker
        self.loop = loop
        self.stopped = threading.Event()
        self.lost = False
        self.revisions: dict[int, int] = {}  # each session's revision as last known here
        self.delivered = 0
        self.thread = threading.Thread(target=self._run, name="scorepad-listen", daemon=True)

    def start(self) -> Listener:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopped.set()

    def _tell(self, topic: str, message: Any) -> None:
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.announce, topic, message)

    def _own_pid(self) -> int | None:
        """The backend of this worker's own store connection (its notifications are its own)."""
        conn = getattr(self.store.backend, "conn", None)
        try:
            return int(conn.info.backend_pid) if conn is not None and not conn.closed else None
        except Exception:  # a connection being replaced: no notification is skipped for it
            return None

    def _run(self) -> None:
        import psycopg

        first = True
        while not self.stopped.is_set():
            try:
                # Named for the operator (pg_stat_activity): which worker listens.
                conn = psycopg.connect(
                    self.url,
                    autocommit=True,
                    connect_timeout=2,
                    application_name=f"{APPLICATION}-{os.getpid()}",
                )
            except psycopg.Error as exc:
                self._lose(exc)
                self.stopped.wait(RETRY)
                continue
            try:
                with conn:
                    conn.execute(f"LISTEN {CHANNEL}".encode())
                    # LISTEN first, then the revisions: a write between the two is both read
                    # and announced, never neither.
                    self._catch_up(conn, announce=not first)
                    first = False
                    if self.lost:
                        self.lost = False
                        self._tell(DATABASE, True)
                    while not self.stopped.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._deliver(note.payload, note.pid)
            except psycopg.Error as exc:
                self._lose(exc)
                self.stopped.wait(RETRY)

    def _lose(self, exc: BaseException) -> None:
        if self.stopped.is_set() or self.lost:
            return
        log.warning("the database is unreachable, reconnecting: %s", exc)
        self.lost = True
        self._tell(DATABASE, False)

    def _catch_up(self, conn: Any, *, announce: bool) -> None:
        """Every session's revision now; the ones that moved while nobody listened announced."""
        rows = conn.execute(b"SELECT id, revision FROM sessions").fetchall()
        for sid, revision in rows:
            sid, revision = int(sid), int(revision)
            if announce and self.revisions.get(sid) != revision:
                self._tell(live.TOPIC, (sid, revision))
            self.revisions[sid] = revision

    def _deliver(self, payload: str, pid: int) -> None:
        link = parse_link(payload)
        if link is not None:  # a join link renewed or moved (grants.py) by another process
            if pid != self._own_pid():
                self._tell(live.LINKS, link)
            return
        found = parse(payload)
        if found is None:
            return
        sid, revision = found
        if self.revisions.get(sid, -1) >= revision:
            return  # known already (the catch-up read it)
        self.revisions[sid] = revision
        if pid == self._own_pid():
            return  # this worker's own write: its pages were told by the write itself
        self.delivered += 1
        self._tell(live.TOPIC, (sid, revision))


def start(url: str, store: Store, main: Any, loop: asyncio.AbstractEventLoop) -> Listener:
    """This worker's listener, announcing on the PubSub hub of the app's pages (``main``'s)."""
    from flet_web.fastapi.flet_app import app_manager

    hub = app_manager.get_pubsubhub(main, loop=loop)
    return Listener(url, store, hub.send_all_on_topic, loop).start()


def follow(shell: Shell) -> None:
    """A page told when its worker lost the database and when it is back (PostgreSQL only)."""

    async def on_database(topic: str, back: Any) -> None:
        try:
            if back:
                live.close_notice(shell)
                live.refresh(shell)  # the sheet as it stands, whatever was written meanwhile
                shell.page.update()
            else:
                live.notice(shell, shell.t(RECONNECTING))
        except RuntimeError:  # the page's session ended meanwhile
            return

    shell.page.pubsub.subscribe_topic(DATABASE, on_database)


RECONNECTING = N_(
    "The server lost its database for a moment and is reconnecting: nothing written is lost. Write again once this note has gone."
)
