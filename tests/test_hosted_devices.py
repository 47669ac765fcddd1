"""A phone's device token on a server of several workers (app/server/devices.py): signed with a
key the database keeps (``server_keys``, migration 12), so the token one worker issued is
known by every other and after a restart.  Without it a phone whose page reached another
worker got a new token and lost its PIN grant (and its number at a club table).  Gates on a
real SQLite file and a real PostgreSQL; then ``scorepad serve --workers 2`` with raw clients."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from support.flet_wire import Client
from support.online import worker_of, workers
from test_table_safety import type_pin

from scorepad.app.server.access import Gate, new_device_token
from scorepad.app.server.devices import KEYS, device_key, issued, signed_token
from scorepad.app.server.grants import Grants
from scorepad.app.server.owners import Owners
from scorepad.app.server.run import DEVICE_KEY
from scorepad.store import Store


def gate_of(target: str) -> tuple[Store, Gate]:
    """One worker's gate on ``target`` (its own connection, as a process has)."""
    store = Store(target, check_same_thread=False)
    lock = threading.RLock()
    gate = Gate(None, grants=Grants(store, lock), shared=True, device_key=device_key(store, lock))
    return store, gate


def test_a_token_one_worker_issued_is_known_to_the_others_and_after_a_restart(
    target: str,
) -> None:
    first, a = gate_of(target)
    second, b = gate_of(target)
    try:
        token = a.issue()
        assert a.device_key == b.device_key and a.device_key is not None
        assert len(token) == 38 and b.known(token)  # never met by b
        # The database keeps one key, made by the first worker that asked.
        assert first.backend.query(f"SELECT name FROM {KEYS}") == [{"name": "device"}]
        # A token the browser chose, a changed one, another server's, an unsigned one: not
        # known (the page replaces it).
        assert not b.known("A" * 38)
        assert not b.known(token[:-1] + ("B" if token[-1] != "B" else "C"))
        assert not b.known(signed_token(b"another server's key, 32 bytes!"))
        assert not b.known(new_device_token())
        assert issued(b.device_key, token)
    finally:
        first.close()
        second.close()
    restarted, c = gate_of(target)
    try:
        assert c.known(token)
    finally:
        restarted.close()


def test_a_phone_that_gave_the_pin_writes_on_the_other_worker_too(
    postgres_url: str, tmp_path: Path
) -> None:
    with Store(postgres_url) as store:
        sid = store.create_session(["Anna", "Boris", "Vera"])
        lock = threading.RLock()
        _, pin = Owners(store, lock).issue(sid)
        token = Grants(store, lock).link(sid)
    route = f"/join/{sid}/{token}"
    prefs: dict[str, Any] = {}  # one browser's storage, shared by its pages
    with workers(postgres_url, tmp_path, hosted=True) as (port, supervisor):
        first = Client(port, route, prefs=prefs)
        first.wait(lambda c: c.has("pin-open"))
        first.event(first.control("pin-open"))
        first.wait(lambda c: c.has("pin-field"))
        type_pin(first, pin)
        first.wait(lambda c: c.has("nav-entry"))
        device = prefs[DEVICE_KEY]
        where = worker_of(first, supervisor)
        # The same browser's pages, in batches, until one reaches the other worker.
        opened: list[Client] = []
        other: Client | None = None
        for _ in range(6):
            batch = [Client(port, route, prefs=prefs) for _ in range(6)]
            opened += batch
            for page in batch:
                page.wait(lambda c: c.has("nav-entry") or c.has("pin-open"))
                if other is None and worker_of(page, supervisor) not in (where, None):
                    other = page
            if other is not None:
                break
        assert other is not None, "every page reached one worker"
        # There it writes (no PIN asked), with the same token: its grant is every worker's.
        assert other.has("nav-entry") and not other.has("pin-open")
        assert prefs[DEVICE_KEY] == device
        for page in (first, *opened):
            page.close()
