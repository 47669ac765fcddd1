"""The wrong-PIN and wrong admin secret throttle shared by every worker of one database
(app/server/throttle.py, ``wrong_tries``, migration 12): two workers (two gates, each with its
own connection to the same database, as two processes have) count one device's misses and one
address's once, so a guesser gets the documented tries (5 a device, 20 an address) and not N
times them.  On a real SQLite file and a real PostgreSQL; the database keeps no device token and
no address, only their SHA-256."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from scorepad.app.server.access import ADDRESS_TRIES, TRIES, Gate
from scorepad.app.server.admin import Admin
from scorepad.app.server.grants import Grants
from scorepad.app.server.throttle import KEPT, WRONG_TRIES, SharedThrottle, Throttle
from scorepad.store import Store

PIN = "246810"
WRONG = "111111"
SECRET = "correct horse battery staple"


class Clock:
    """The wall clock every worker reads (one, as time.time is on one machine)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class Worker:
    """What one worker of the server holds: its own connection, its gate and admin page."""

    def __init__(self, target: str, clock: Clock) -> None:
        self.store = Store(target, check_same_thread=False)
        lock = threading.RLock()
        grants = Grants(self.store, lock)
        throttle = SharedThrottle(self.store, lock)
        self.gate = Gate(PIN, grants=grants, shared=True, clock=clock, throttle=throttle)
        self.admin = Admin(SECRET, grants, lock, clock=clock, throttle=throttle)


@pytest.fixture
def two(target: str) -> Iterator[tuple[Worker, Worker, Clock]]:
    clock = Clock()
    a, b = Worker(target, clock), Worker(target, clock)
    yield a, b, clock
    a.store.close()
    b.store.close()


def test_one_devices_wrong_pins_on_two_workers_are_counted_once(two: Any) -> None:
    a, b, clock = two
    device = "d" * 24
    said = []
    for k in range(TRIES):  # alternately on each worker
        worker = (a, b)[k % 2]
        said.append(worker.gate.enter(device, WRONG, "198.51.100.7").render("en"))
    assert said == [
        "Wrong PIN. Tries left on this device: 4.",
        "Wrong PIN. Tries left on this device: 3.",
        "Wrong PIN. Tries left on this device: 2.",
        "Wrong PIN. Tries left on this device: 1.",
        "Too many wrong PINs on this device: wait 30 s, then try again.",
    ]
    # The other worker refuses it too, even the right PIN, while the device waits.
    refused = b.gate.enter(device, PIN, "198.51.100.7")
    assert refused is not None and refused.render("en").startswith("Too many wrong PINs on")
    assert not b.gate.may_write(device)
    clock.now += 31  # the wait is over on every worker: the right PIN opens, on either
    assert a.gate.enter(device, PIN, "198.51.100.7") is None
    assert b.gate.may_write(device) and a.gate.may_write(device)
    # Its misses are forgotten (the address's are kept: they bind newcomers).
    rows = a.store.backend.query(f"SELECT misses FROM {WRONG_TRIES}")
    assert [r["misses"] for r in rows] == [TRIES]


def test_an_addresss_wrong_pins_on_two_workers_are_counted_once(two: Any) -> None:
    a, b, clock = two
    address = "203.0.113.9"
    misses = 0
    for n in range(ADDRESS_TRIES // (TRIES - 1)):  # new devices, each under its own bound
        device = f"guesser-{n:02d}-" + "x" * 16
        for k in range(TRIES - 1):
            worker = (a, b)[(n + k) % 2]
            worker.gate.meet(device)
            said = worker.gate.enter(device, WRONG, address)
            assert said is not None and said.render("en").startswith("Wrong PIN.")
            misses += 1
    assert misses == ADDRESS_TRIES
    # The 21st try, from a device new on either worker: the address waits (not at 40).
    clock.now += 1
    for worker in (a, b):
        newcomer = "newcomer-" + worker.store.backend.dialect + "x" * 10
        worker.gate.meet(newcomer)
        said = worker.gate.enter(newcomer, WRONG, address)
        assert said is not None
        assert said.render("en") == (
            "Too many wrong PINs from this network, not necessarily from this device: "
            "wait 59 s, then try again."
        )
    # Another network is not bound by it.
    assert b.gate.enter("other-device-" + "y" * 12, PIN, "198.51.100.20") is None


def test_the_admin_secrets_wrong_tries_on_two_workers_are_counted_once(two: Any) -> None:
    a, b, clock = two
    device = "a" * 24
    said = []
    for k in range(TRIES):
        token, refused = (a, b)[k % 2].admin.enter(device, "not the secret at all", "192.0.2.1")
        assert token is None and refused is not None
        said.append(refused.render("en"))
    assert said[-2] == "That is not the admin secret. Tries left on this device: 1."
    assert said[-1] == (
        "Too many wrong secrets from this device or network: wait 30 s, then try again."
    )
    token, refused = b.admin.enter(device, SECRET, "192.0.2.1")
    assert token is None and refused is not None  # waiting on the other worker too
    clock.now += 31
    token, refused = b.admin.enter(device, SECRET, "192.0.2.1")
    assert refused is None and token is not None and a.admin.opens(token)
    # The admin's misses and the PIN's are apart: the device's PIN tries are all left.
    wrong = a.gate.enter(device, WRONG, "192.0.2.1")
    assert wrong is not None
    assert wrong.render("en") == "Wrong PIN. Tries left on this device: 4."


def test_the_database_keeps_no_token_nor_address_and_forgets_old_rows(two: Any) -> None:
    a, b, clock = two
    device = "secret-device-token-" + "z" * 8
    address = "2001:db8::1234"
    assert a.gate.enter(device, WRONG, address) is not None
    rows = a.store.backend.query(f"SELECT * FROM {WRONG_TRIES}")
    assert len(rows) == 2 and all(len(r["who"]) == 64 for r in rows)
    dump = repr(rows)
    assert device not in dump and address not in dump and "admin" not in dump
    # A day later, another miss elsewhere: the old rows (no longer waiting) are forgotten.
    clock.now += KEPT + 1
    assert b.gate.enter("later-device-" + "w" * 12, WRONG, "192.0.2.77") is not None
    assert len(a.store.backend.query(f"SELECT who FROM {WRONG_TRIES}")) == 2
    assert b.gate.enter(device, WRONG, address) is not None  # counted from 1 again
    rows = a.store.backend.query(f"SELECT misses FROM {WRONG_TRIES} ORDER BY misses")
    assert [r["misses"] for r in rows] == [1, 1, 1, 1]


def test_one_process_keeps_its_misses_in_memory_as_before() -> None:
    gate = Gate(PIN)
    assert type(gate.throttle) is Throttle
    for _ in range(TRIES - 1):
        gate.enter("d" * 24, WRONG, "192.0.2.1")
    said = gate.enter("d" * 24, WRONG, "192.0.2.1")
    assert said is not None and said.render("en").startswith("Too many wrong PINs on this device")
