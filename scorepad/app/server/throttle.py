"""What the wrong-PIN (and wrong admin secret) throttle remembers: each device's and each
address's misses and waits.

One process keeps them in memory (:class:`Throttle`: the LAN's laptop, one SQLite file).
Several workers on one database keep them **in the database** (:class:`SharedThrottle`,
``wrong_tries``, migration 12): otherwise N workers would give a guesser N times the tries of
one (each counting in its own memory).  A count is read, changed and written in one write
transaction (the store's ``begin``: SQLite's ``BEGIN IMMEDIATE``, PostgreSQL's advisory
lock), so two workers never both grant the last try.  The database keeps a SHA-256 of each
key (a device token, an address), never the key; a row nobody touched for a day is dropped.

The table is the schema's (:mod:`scorepad.store.schema`): nothing is created here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ...store import Store
from ...store.backend import Backend

WRONG_TRIES = "wrong_tries"
#: A row untouched for this long (and no longer waiting) is forgotten.
KEPT = 86_400.0


@dataclass
class Misses:
    count: int = 0
    until: float = 0.0
    since: float = 0.0  # the first miss (an address: which devices its waits bind)
    spared: int = 0  # an address: tries its waits let through (ADDRESS_SPARED at most)

    def clear(self) -> None:
        """The right PIN: this device's misses are forgotten."""
        self.count, self.until, self.since, self.spared = 0, 0.0, 0.0, 0


class Throttle:
    """The misses of one process, in its memory."""

    def __init__(self) -> None:
        self._rows: dict[str, Misses] = {}
        self._lock = threading.Lock()

    @contextmanager
    def counting(self, now: float, *keys: str) -> Iterator[list[Misses]]:
        """The records of ``keys`` (a new one for a key never seen), to read and change in the
        block; what it changed is kept when it ends (a record cleared is forgotten)."""
        with self._lock:
            rows = [self._rows.setdefault(k, Misses()) for k in keys]
            yield rows
            for key, row in zip(keys, rows, strict=True):
                if row == Misses():
                    self._rows.pop(key, None)

    def forget_idle(self, now: float, most: int) -> None:
        """Once this memory holds ``most`` records, those not waiting are forgotten (a flood of
        addresses never fills a process's memory)."""
        with self._lock:
            if len(self._rows) >= most:
                self._rows = {k: m for k, m in self._rows.items() if m.until > now}


class SharedThrottle(Throttle):
    """The misses of every worker of one database, in it (``wrong_tries``)."""

    def __init__(self, db: Store | Backend, lock: threading.RLock) -> None:
        super().__init__()
        self.db: Backend = db.backend if isinstance(db, Store) else db
        self.lock = lock

    @contextmanager
    def counting(self, now: float, *keys: str) -> Iterator[list[Misses]]:
        hashed = [hashlib.sha256(k.encode()).hexdigest() for k in keys]
        with self.lock:
            self.db.begin()
            try:
                rows = [self._read(h) for h in hashed]
                before = [dataclasses.replace(r) for r in rows]
                yield rows
                for key, row, was in zip(hashed, rows, before, strict=True):
                    if row == was:
                        continue
                    if row == Misses():
                        self.db.execute(f"DELETE FROM {WRONG_TRIES} WHERE who = ?", [key])
                        continue
                    self.db.upsert(
                        WRONG_TRIES,
                        {
                            "who": key,
                            "misses": row.count,
                            "waits_until": row.until,
                            "since": row.since,
                            "spared": row.spared,
                            "at": now,
                        },
                        ("who",),
                    )
                if rows != before:  # a miss was counted: the rows of long ago go
                    self.db.execute(
                        f"DELETE FROM {WRONG_TRIES} WHERE at < ? AND waits_until < ?",
                        [now - KEPT, now],
                    )
                self.db.commit()
            except BaseException:
                self.db.rollback()
                raise

    def forget_idle(self, now: float, most: int) -> None:
        """The database's rows are forgotten a day after they were last touched (``counting``)."""

    def _read(self, key: str) -> Misses:
        row = self.db.execute(
            f"SELECT misses, waits_until, since, spared FROM {WRONG_TRIES} WHERE who = ?", [key]
        ).fetchone()
        if row is None:
            return Misses()
        return Misses(int(row[0]), float(row[1]), float(row[2]), int(row[3]))


#: The clock a shared throttle's times are on: every worker's (and every machine's) the same.
WALL_CLOCK = time.time

__all__ = ["KEPT", "WALL_CLOCK", "WRONG_TRIES", "Misses", "SharedThrottle", "Throttle"]
