"""What the workers share through PostgreSQL, on a real server: each write's NOTIFY (sent on
commit, never for a write refused), a worker's listener (scorepad/app/server/listen.py) and
the PIN grants asked of the shared database (access.Gate(shared=True))."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import psycopg
import pytest

from scorepad.app.frame.live import TOPIC
from scorepad.app.server.access import Gate
from scorepad.app.server.grants import Grants
from scorepad.app.server.listen import CHANNEL, DATABASE, Listener, parse
from scorepad.scoring.pulya.session import Raspasy
from scorepad.store import StaleRevision, Store

PLAYERS = ["Anna", "Boris", "Vera"]


def raspasy() -> Raspasy:
    return Raspasy.model_validate({"type": "raspasy", "tricks": {"0": 3, "1": 3, "2": 4}})


def notes(conn: psycopg.Connection[Any], wait: float = 1.0) -> list[str]:
    return [n.payload for n in conn.notifies(timeout=wait, stop_after=None)]


def test_a_write_is_announced_with_its_session_and_revision_once_committed(
    postgres_url: str,
) -> None:
    with Store(postgres_url) as store, psycopg.connect(postgres_url, autocommit=True) as ear:
        sid = store.create_session(PLAYERS, pool_target=10_000)
        ear.execute(f"LISTEN {CHANNEL}")
        store.add_deal(sid, raspasy(), seen=0)
        store.add_deal(sid, raspasy(), seen=1)
        assert notes(ear) == [f"{sid} 1", f"{sid} 2"]
        with pytest.raises(StaleRevision):  # refused: nothing written, nothing announced
            store.add_deal(sid, raspasy(), seen=0)
        store.undo(sid, seen=2)
        assert notes(ear) == [f"{sid} 3"]


def test_the_payload_is_read_as_two_numbers_or_not_at_all() -> None:
    assert parse("12 34") == (12, 34)
    for bad in ("", "12", "12 x", "1 2 3", "-1 2", "12;DROP 3"):
        assert parse(bad) is None


class Heard:
    """A worker's pages, as the listener sees them: every (topic, message) announced."""

    def __init__(self) -> None:
        self.said: list[tuple[str, Any]] = []

    def __call__(self, topic: str, message: Any) -> None:
        self.said.append((topic, message))

    def wait(self, wanted: tuple[str, Any], timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while wanted not in self.said:
            assert time.monotonic() < deadline, self.said
            time.sleep(0.02)


def listening(listener: Listener, sid: int) -> None:
    """Wait until ``listener`` listens and has read session ``sid`` (at most 10 s)."""
    deadline = time.monotonic() + 10
    while sid not in listener.revisions:
        assert time.monotonic() < deadline
        time.sleep(0.02)


@pytest.fixture
def loop() -> Any:
    """An event loop running in a thread, as a worker's server loop."""
    running = asyncio.new_event_loop()
    thread = threading.Thread(target=running.run_forever, daemon=True)
    thread.start()
    yield running
    running.call_soon_threadsafe(running.stop)
    thread.join(5)
    running.close()


def test_another_workers_write_reaches_this_worker_and_its_own_does_not_come_back(
    postgres_url: str, loop: Any
) -> None:
    with Store(postgres_url) as mine, Store(postgres_url) as other:
        sid = mine.create_session(PLAYERS, pool_target=10_000)
        heard = Heard()
        listener = Listener(postgres_url, mine, heard, loop).start()
        try:
            listening(listener, sid)
            mine.add_deal(sid, raspasy(), seen=0)  # this worker's own: its pages know it
            other.add_deal(sid, raspasy(), seen=1)  # another worker's
            heard.wait((TOPIC, (sid, 2)))
            time.sleep(0.3)
            assert heard.said == [(TOPIC, (sid, 2))]
        finally:
            listener.stop()


def test_a_postgresql_restart_is_told_and_what_was_written_meanwhile_announced(
    postgres_cluster: Any, postgres_url: str, loop: Any
) -> None:
    with Store(postgres_url) as mine:
        sid = mine.create_session(PLAYERS, pool_target=10_000)
        heard = Heard()
        listener = Listener(postgres_url, mine, heard, loop).start()
        try:
            listening(listener, sid)
            postgres_cluster.restart()
            heard.wait((DATABASE, False))
            # Written while this worker's listener may be away: announced once it is back.
            with Store(postgres_url) as other:
                other.add_deal(sid, raspasy(), seen=0)
            heard.wait((DATABASE, True))
            heard.wait((TOPIC, (sid, 1)))
            lost, back = heard.said.index((DATABASE, False)), heard.said.index((DATABASE, True))
            assert lost < back
        finally:
            listener.stop()


def test_a_grant_given_on_one_worker_is_known_on_the_other_and_forgotten_on_both(
    postgres_url: str,
) -> None:
    with Store(postgres_url) as a, Store(postgres_url) as b:
        one = Gate("471100", grants=Grants(a, threading.RLock()), shared=True)
        two = Gate("471100", grants=Grants(b, threading.RLock()), shared=True)
        assert not two.may_write("phone-token-0123456789")
        assert one.enter("phone-token-0123456789", "471100") is None
        assert two.may_write("phone-token-0123456789")
        assert two.known("phone-token-0123456789")  # its device token is kept there too
        assert two.forget_all() >= 0
        assert not one.may_write("phone-token-0123456789")


def test_a_listener_back_announces_each_session_that_moved_while_it_was_away(
    postgres_url: str, loop: Any
) -> None:
    with Store(postgres_url) as store, psycopg.connect(postgres_url, autocommit=True) as conn:
        moved, still = (store.create_session(PLAYERS, pool_target=10_000) for _ in range(2))
        heard = Heard()
        listener = Listener(postgres_url, store, heard, loop)  # not started: driven here
        listener._catch_up(conn, announce=False)  # what it knew before it lost the database
        store.add_deal(moved, raspasy(), seen=0)  # written while nobody listened
        listener._catch_up(conn, announce=True)  # back
        heard.wait((TOPIC, (moved, 1)))
        time.sleep(0.2)
        assert heard.said == [(TOPIC, (moved, 1))]
        assert listener.revisions == {moved: 1, still: 0}
