"""The club's outbox: where its league is, and the nights waiting to be sent there.

It is a small JSON file **beside the club's store**, never a table in it: the issue keeps the
clubs' own stores unchanged (no migration on a club's laptop for joining a league), and the
league's secret does not travel with the store (a backup, a file sent to another club, a
database moved to a server carry no secret).  For a SQLite store ``club.db`` it is
``club.db.league.json``; for a PostgreSQL store (no folder of its own) it is
``league-HASH.json`` in the user's data folder, HASH naming the database's address.  The file
is private (0600: it holds the secret), written whole (a new file renamed over the old one), and
one writer at a time holds its lock.

A night is queued as its club file (:meth:`ClubStore.export_night
<scorepad.club.store.ClubStore.export_night>`); :meth:`Outbox.flush` sends the queue in order
and keeps what the league could not be reached for, so a club publishes offline and the nights
go when the league is back.  The digests of what was sent are kept: a night published again
unchanged is not sent again (and the league would change nothing if it were).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..club.night import Night
from ..core.i18n import N_, Msg, ScorepadError, msg, nmsg
from .client import Refusal, Sent, Unreachable, league_base, send_night
from .store import ended, verify_ended

FORMAT = "scorepad-league-outbox/1"


class OutboxError(ScorepadError):
    """The outbox cannot be read or written, or the club has not joined a league."""


def outbox_path(db: Path | str) -> Path:
    """Where the outbox of the club store ``db`` lives (see the module's note)."""
    text = str(db)
    if text.startswith(("postgresql://", "postgres://")):
        from platformdirs import user_data_path

        from ..store.backend import redacted

        key = hashlib.sha256(redacted(text).encode()).hexdigest()[:16]
        return user_data_path("scorepad", appauthor=False) / f"league-{key}.json"
    return Path(text + ".league.json")


@dataclass
class Queued:
    night: str  # the night's uid
    name: str
    date: str
    document: str
    digest: str
    change: str | None = None


@dataclass
class Flushed:
    """What one flush did: each night sent (with the league's answer), each refused (with its
    sentence), and how many still wait (``unreachable`` says why)."""

    sent: list[tuple[Queued, Sent]] = field(default_factory=list)
    refused: list[tuple[Queued, str]] = field(default_factory=list)
    waiting: int = 0
    unreachable: Msg | None = None

    def lines(self) -> list[Msg]:
        """The report, a sentence a night."""
        out: list[Msg] = []
        for q, s in self.sent:
            where = {"name": q.name, "date": q.date}
            out.append(
                msg(
                    N_("{name} of {date}: published, version {version}"), version=s.version, **where
                )
                if s.new
                else msg(N_("{name} of {date}: the league has it already"), **where)
            )
        for q, said in self.refused:
            out.append(
                msg(
                    N_("{name} of {date}: refused by the league: {said}"),
                    name=q.name,
                    date=q.date,
                    said=said,
                )
            )
        if self.waiting:
            reason = self.unreachable or msg(N_("the league refused the club's secret"))
            out.append(
                nmsg(
                    "{count} night waits in the outbox: {reason}",
                    "{count} nights wait in the outbox: {reason}",
                    self.waiting,
                    count=self.waiting,
                    reason=reason,
                )
            )
        return out


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class Outbox:
    """The outbox file of one club store; use :meth:`open` (a context that holds its lock)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.league: str | None = None
        self.secret: str | None = None
        self.ca: str | None = None
        self.queue: list[Queued] = []
        self.sent: dict[str, str] = {}  # night uid -> digest of what the league took last

    @classmethod
    @contextlib.contextmanager
    def open(cls, path: Path) -> Iterator[Outbox]:
        """The outbox, locked against another writer until the block ends; saved if changed."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            lock = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise OutboxError(_cannot(path, exc)) from None
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            box = cls(path)
            box._read()
            before = box._data()
            yield box
            if box._data() != before:
                box._write()
        finally:
            os.close(lock)

    def _data(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "league": self.league,
            "secret": self.secret,
            "ca": self.ca,
            "queue": [asdict(q) for q in self.queue],
            "sent": dict(self.sent),
        }

    def _read(self) -> None:
        try:
            text = self.path.read_text("utf-8")
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            raise OutboxError(_cannot(self.path, exc)) from None
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError(data)
            self.league, self.secret, self.ca = data["league"], data["secret"], data.get("ca")
            self.queue = [Queued(**q) for q in data["queue"]]
            self.sent = {str(k): str(v) for k, v in dict(data["sent"]).items()}
        except (KeyError, TypeError, ValueError):
            raise OutboxError(
                msg(N_("{path} is not a league outbox: nothing was sent"), path=str(self.path))
            ) from None

    def _write(self) -> None:
        text = json.dumps(self._data(), ensure_ascii=False, indent=2) + "\n"
        try:
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(text)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            raise OutboxError(_cannot(self.path, exc)) from None

    # --- the club's actions ----------------------------------------------------------------------

    def join(self, url: str, secret: str, ca: str | None = None) -> str:
        """The club's league (its address checked) and the secret the league issued."""
        base = league_base(url)
        secret = secret.strip()
        if not 16 <= len(secret) <= 128 or not secret.isascii() or not secret.isprintable():
            raise OutboxError(msg(N_("this is not a secret the league issued")))
        self.league, self.secret = base, secret
        self.ca = None if ca is None else str(Path(ca).resolve())
        return base

    def add(self, night: Night, document: str, change: str | None = None) -> bool:
        """A night to send (False: the league has this very document already, or it waits
        already); a newer document of a night that waits takes its place."""
        uid = verify_ended(night)
        sha = _digest(document)
        if self.sent.get(uid) == sha:
            return False
        item = Queued(uid, night.name, night.date.isoformat(), document, sha, change)
        for k, q in enumerate(self.queue):
            if q.night == uid:
                # A publish of every night names no change: the words given for the waiting
                # version stay with it.
                item.change = change or q.change
                if q.digest == sha and q.change == item.change:
                    return False
                self.queue[k] = item
                return True
        self.queue.append(item)
        return True

    def flush(self, lang: str = "en") -> Flushed:
        """Send what waits, in order, until the league cannot be reached."""
        if self.league is None or self.secret is None:
            raise OutboxError(
                msg(N_("this club has not joined a league: scorepad league join URL SECRET"))
            )
        done = Flushed()
        while self.queue:
            q = self.queue[0]
            answer = send_night(
                self.league, self.secret, q.document, q.change, lang=lang, ca=self.ca
            )
            if isinstance(answer, Unreachable) or (
                isinstance(answer, Refusal) and not answer.final
            ):
                done.unreachable = (
                    answer.reason
                    if isinstance(answer, Unreachable)
                    else msg(N_("the league says: {said}"), said=answer.said)
                )
                break
            self.queue.pop(0)
            if isinstance(answer, Sent):
                self.sent[q.night] = q.digest
                done.sent.append((q, answer))
            else:
                done.refused.append((q, answer.said))
        done.waiting = len(self.queue)
        return done


def _cannot(path: Path, exc: Exception) -> Msg:
    reason = getattr(exc, "strerror", None) or str(exc)
    return msg(N_("cannot use the league outbox {path}: {reason}"), path=str(path), reason=reason)


def queue_nights(
    club: Any, box: Outbox, nights: Sequence[int] | None = None, *, change: str | None = None
) -> None:
    """The nights named (their ids in the club's store; None: every ended night) queued as
    their club files.  A night named that has not ended is refused before anything is queued.
    It reads the club's store only (the caller holds its lock), and sends nothing."""
    chosen: list[tuple[dt.date, int, Night, str]] = []
    ids = [nid for nid, _name, _date in club.nights()] if nights is None else list(nights)
    for nid in ids:
        night = club.load(nid)
        if nights is None and not ended(night):
            continue
        chosen.append((night.date, nid, night, club.export_night(nid)))
    for _date, _nid, night, document in chosen:
        if not ended(night):
            box.add(night, document, change)  # raises: nothing was queued
    # In the order they were played (a day's nights in the order the club made them): the
    # league keeps its nights in the order it first took them on a day.
    for _date, _nid, night, document in sorted(chosen, key=lambda c: c[:2]):
        box.add(night, document, change)


def publish(
    club: Any,
    box: Outbox,
    nights: Sequence[int] | None = None,
    *,
    change: str | None = None,
    lang: str = "en",
) -> Flushed:
    """The club's ``publish``: the nights queued (:func:`queue_nights`), then the outbox sent."""
    queue_nights(club, box, nights, change=change)
    return box.flush(lang)


def joined(path: Path) -> bool:
    """Whether the club of this outbox file has joined a league (a read, no lock: a hint for
    showing the button; publishing checks again)."""
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT and bool(data.get("league"))


__all__ = [
    "Flushed",
    "Outbox",
    "OutboxError",
    "Queued",
    "ended",
    "joined",
    "outbox_path",
    "publish",
    "queue_nights",
]
