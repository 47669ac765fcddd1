"""The league's wrong-secret throttle shared by every worker of one database (#39 with the
hosted server's throttle, app/server/throttle.py): two workers (two doors, each with its own
connection to the same database, as two ``serve --workers`` processes have) count one address's
wrong secrets once, so a guesser gets the documented 20 tries and not 20 a worker; and the
league's count has its own key, so wrong secrets never make a PIN wait, nor wrong PINs a club.
On a real SQLite file and a real PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.league import played_night

from scorepad.app.server.access import ADDRESS_TRIES, Gate
from scorepad.app.server.grants import Grants
from scorepad.app.server.league import LeagueDoor
from scorepad.app.server.throttle import WRONG_TRIES, SharedThrottle
from scorepad.club.store import ClubStore
from scorepad.league.store import LeagueStore
from scorepad.store import Store

PIN = "246810"
GUESSER = "203.0.113.7"


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def elsewhere(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError("the league's door answers its own path")


class Worker:
    """One worker of the server: its own connection, its gate and its league door, one
    throttle in the database for both (as run_hosted wires them)."""

    def __init__(self, target: str, clock: Clock) -> None:
        self.store = Store(target, check_same_thread=False)
        lock = threading.RLock()
        throttle = SharedThrottle(self.store, lock)
        grants = Grants(self.store, lock)
        self.gate = Gate(PIN, grants=grants, shared=True, clock=clock, throttle=throttle)
        self.door = LeagueDoor(elsewhere, self.store, lock, "en", clock=clock, throttle=throttle)

    def publish(self, secret: str | None, document: bytes, client: str) -> tuple[int, Any]:
        headers = {"Content-Length": str(len(document))}
        if secret is not None:
            headers["Authorization"] = f"Bearer {secret}"
        sent: list[dict[str, Any]] = []
        chunks = [document]

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": chunks.pop(0) if chunks else b""}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "method": "POST",
            "path": "/league/publish",
            "query_string": b"",
            "client": (client, 50000),
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        }
        asyncio.run(self.door(scope, receive, send))
        return sent[0]["status"], json.loads(sent[1]["body"])


@pytest.fixture
def two(target: str, tmp_path: Path) -> Iterator[tuple[Worker, Worker, Clock, str, bytes]]:
    clock = Clock()
    a, b = Worker(target, clock), Worker(target, clock)
    _, secret = LeagueStore(a.store).add_club("Sochi")
    club = ClubStore(Store(tmp_path / "club.db"))
    document = club.export_night(played_night(club, ["Anna", "Boris", "Vera"])).encode()
    club.store.close()
    yield a, b, clock, secret, document
    a.store.close()
    b.store.close()


def test_wrong_secrets_on_two_workers_are_counted_once(two: Any) -> None:
    a, b, clock, secret, document = two
    wrong = "w" * 32
    for k in range(ADDRESS_TRIES):  # alternately on each worker: 10 each
        worker = (a, b)[k % 2]
        assert worker.publish(wrong, document, GUESSER)[0] == 401
    # 20 in all: the address waits on both workers, even with the right secret.
    waiting = {"refused": "Too many wrong secrets from this network: wait 60 s, then try again."}
    assert a.publish(secret, document, GUESSER) == (429, waiting)
    assert b.publish(secret, document, GUESSER) == (429, waiting)
    assert b.publish(secret, document, "198.51.100.1")[0] == 201  # another network
    # The database keeps the address's hash, never the address.
    rows = a.store.backend.query(f"SELECT who FROM {WRONG_TRIES}")
    assert len(rows) == 1 and GUESSER not in str(rows)
    clock.now += 61  # the wait is over on every worker; the right secret forgets the misses
    status, data = a.publish(secret, document, GUESSER)
    assert status == 200 and data["new"] is False
    assert a.store.backend.query(f"SELECT who FROM {WRONG_TRIES}") == []


def test_wrong_secrets_and_wrong_pins_are_counted_apart(two: Any) -> None:
    a, b, _, secret, document = two
    for _ in range(ADDRESS_TRIES + 1):  # a league guesser's address waits...
        assert a.publish("w" * 32, document, GUESSER)[0] in (401, 429)
    assert a.publish(secret, document, GUESSER)[0] == 429
    # ...and a phone of that network still opens its table with the PIN.
    assert b.gate.enter("d" * 24, PIN, GUESSER) is None
    # A PIN guesser's address waits (a new device each time)...
    pins = "198.51.100.9"
    for k in range(ADDRESS_TRIES):
        a.gate.enter(f"device-{k:02d}" + "x" * 16, "111111", pins)
    said = b.gate.enter("n" * 24, PIN, pins)
    assert said is not None and "network" in said.render("en")
    # ...and the club publishing from that network is not kept waiting by it.
    assert b.publish(secret, document, pins)[0] == 201


def test_the_served_league_counts_wrong_secrets_in_the_database(tmp_path: Path) -> None:
    """``scorepad serve`` (a process) wires its door to the server's throttle: the misses are
    the database's (what every worker of ``--workers N`` reads), under the league's own key."""
    import http.client

    from support.hosted_server import serving

    db = str(tmp_path / "league.db")
    Store(db).close()
    with serving(db, tmp_path) as url:
        host, port = url.removeprefix("http://").split(":")
        for _ in range(3):
            conn = http.client.HTTPConnection(host, int(port), timeout=10)
            conn.request("POST", "/league/publish", b"{}", {"Authorization": "Bearer " + "w" * 32})
            assert conn.getresponse().status == 401
            conn.close()
        with Store(db) as store:
            rows = store.backend.query(f"SELECT who, misses FROM {WRONG_TRIES}")
    assert [r["misses"] for r in rows] == [3]
