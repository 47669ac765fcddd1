"""The league's side: its clubs and every version of the nights they published, in a Scorepad
store (a SQLite file, or the PostgreSQL database of the server that hosts the league).

- A club joins with a secret the league issues (``add_club``): 192 random bits, shown once; the
  database keeps only its SHA-256 (``league_clubs.secret``, as the hosted server keeps a table's
  owner), and a secret a club sends is compared with it in constant time.  The operator revokes
  a club (``revoke_club``): its secret opens nothing from then on, its nights stay.
- A club publishes a night (``take``): the ``scorepad-club/1`` document, checked in full
  (:func:`scorepad.club.file.parse_night`: every table adds up, every player once) before
  anything is written, and written in one transaction.  The same document twice changes
  nothing; another document of the same night (its uid) is the night's next version with the
  club's words for the change; a night is one club's (another club's copy of it is refused).

The tables are the schema's (migration 10, :mod:`scorepad.store.schema`): nothing is created
here.  The versions are append-only in the database itself.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from dataclasses import dataclass
from typing import Any

from ..club.errors import ClubError
from ..club.file import parse_night
from ..club.night import Night
from ..core.i18n import N_, ScorepadError, msg
from ..store import Store, now
from ..store.schema import new_uid
from .nights import ClubId, PublishedNight

#: A club's secret: 192 random bits (``secrets.token_urlsafe(24)``, 32 characters).
SECRET_BYTES = 24
#: The longest club name the operator gives.
NAME_MAX = 80
#: The longest words for a change (a sentence or two).
CHANGE_MAX = 500


class LeagueError(ScorepadError):
    """A refusal of the league: ``message`` is the sentence the club reads; nothing changed.

    ``kind`` says which refusal it is, for the HTTP answer's status: ``secret`` (no club has
    it, or it was revoked), ``night`` (the night is not one the league can take), ``input``."""

    def __init__(self, message: Any, kind: str = "night") -> None:
        super().__init__(message)
        self.kind = kind


def digest(text: str) -> str:
    """SHA-256 of a text (a document's, a secret's), as hex."""
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Club:
    """A club of the league, as the operator lists it."""

    id: ClubId
    name: str
    joined: str
    revoked: str | None


@dataclass(frozen=True, slots=True)
class Taken:
    """What ``take`` did: the night's version the league now holds (``night``) and whether it
    is new (False: the same document was the night's current version already)."""

    night: PublishedNight
    new: bool


def ended(night: Night) -> bool:
    """Every tour of the night drawn and ended: what a league takes."""
    return len(night.drawn) == night.tours and all(t.state == "ended" for t in night.drawn)


def verify_ended(night: Night) -> str:
    """A night the league takes: ended, and with its stable id (what names it across versions,
    returned)."""
    where = {"name": night.name, "date": night.date.isoformat()}
    if not ended(night):
        raise LeagueError(
            msg(
                N_("the club night {name} of {date} has not ended: publish it after its last tour"),
                **where,
            )
        )
    if night.uid is None:
        raise LeagueError(
            msg(N_("the club night {name} of {date} has no stable id: export it again"), **where)
        )
    return night.uid


def _clean(text: str, limit: int, what: str) -> str:
    text = " ".join(text.split())
    if not text or len(text) > limit or any(not c.isprintable() for c in text):
        raise LeagueError(
            msg(
                N_("{what} must be 1 to {limit} printable characters"), what=msg(what), limit=limit
            ),
            "input",
        )
    return text


class LeagueStore:
    """The league of a :class:`~scorepad.store.Store` (which it uses, and does not close)."""

    def __init__(self, store: Store, lock: threading.RLock | None = None) -> None:
        """``lock``: the one a server's pages share the store's connection under (held for each
        read and write here, never while a night is checked: a large night does not stop the
        server's pages)."""
        self.store = store
        self.backend = store.backend
        self.lock = lock or threading.RLock()

    # --- clubs (the operator's) ----------------------------------------------------------------

    def add_club(self, name: str) -> tuple[ClubId, str]:
        """A new club of the league: its id and its secret (shown once: only its hash is kept)."""
        name = _clean(name, NAME_MAX, N_("a club's name"))
        secret = secrets.token_urlsafe(SECRET_BYTES)
        uid = new_uid()
        with self.lock, self.store._write():
            for row in self.backend.execute("SELECT name FROM league_clubs").fetchall():
                if str(row[0]).casefold() == name.casefold():
                    raise LeagueError(
                        msg(N_("the league has a club named {name} already"), name=name),
                        "input",
                    )
            self.backend.insert(
                "league_clubs",
                {"id": uid, "name": name, "secret": digest(secret), "joined": now()},
            )
        return uid, secret

    def _club_row(self, club: str) -> dict[str, Any]:
        rows = self.backend.query("SELECT * FROM league_clubs WHERE id = ?", (club,))
        if not rows:
            raise LeagueError(msg(N_("the league has no club {club}"), club=club), "input")
        return rows[0]

    def revoke_club(self, club: ClubId) -> None:
        """The club's secret opens nothing from now on (its published nights stay)."""
        with self.lock, self.store._write():
            row = self._club_row(club)
            if row["revoked"] is None:
                self.backend.execute(
                    "UPDATE league_clubs SET revoked = ? WHERE id = ?", (now(), club)
                )

    def renew_secret(self, club: ClubId) -> str:
        """A new secret for the club (shown once): the old one opens nothing from now on, and a
        revoked club is let in again, its nights its own as before."""
        secret = secrets.token_urlsafe(SECRET_BYTES)
        with self.lock, self.store._write():
            self._club_row(club)
            self.backend.execute(
                "UPDATE league_clubs SET secret = ?, revoked = NULL WHERE id = ?",
                (digest(secret), club),
            )
        return secret

    def clubs(self) -> list[Club]:
        """Every club, by name."""
        with self.lock:
            rows = self.backend.query("SELECT * FROM league_clubs ORDER BY name")
        return [Club(r["id"], r["name"], r["joined"], r["revoked"]) for r in rows]

    def club_of(self, secret: object) -> Club:
        """The club whose secret this is (compared in constant time); refused when none is, or
        when the club was revoked (the same sentence: a stranger learns nothing)."""
        found: Club | None = None
        if isinstance(secret, str) and 16 <= len(secret) <= 128:
            wanted = digest(secret)
            with self.lock:
                rows = self.backend.query("SELECT * FROM league_clubs")
            for r in rows:
                if hmac.compare_digest(str(r["secret"]), wanted):
                    found = Club(r["id"], r["name"], r["joined"], r["revoked"])
        if found is None or found.revoked is not None:
            raise LeagueError(
                msg(N_("the league does not know this club's secret, or revoked it")), "secret"
            )
        return found

    # --- nights (the clubs') -------------------------------------------------------------------

    def take(self, secret: str, document: str | bytes, change: str | None = None) -> Taken:
        """A club's night, checked in full before anything is written, taken in one
        transaction: new, the night's next version, or nothing (the same document again).
        A wrong secret is refused before the night is read."""
        with self.lock:
            self.club_of(secret)
        if isinstance(document, bytes):
            try:
                text = document.decode("utf-8")
            except UnicodeDecodeError:
                raise LeagueError(msg(N_("this is not a club file: it is not JSON"))) from None
        else:
            text = document
        try:
            night, _sessions, _changes, _disputes = parse_night(text)
        except ClubError as exc:
            raise LeagueError(exc.message) from None
        words = None if change is None or not change.strip() else change
        if words is not None:
            words = _clean(words, CHANGE_MAX, N_("the change's words"))
        where = {"name": night.name, "date": night.date.isoformat()}
        uid = verify_ended(night)
        sha = digest(text)
        with self.lock, self.store._write():
            # The check is again inside the transaction: a revoke between the two is honoured.
            club = self.club_of(secret)
            rows = self.backend.query(
                "SELECT * FROM league_nights WHERE night = ? ORDER BY version DESC", (uid,)
            )
            if rows and rows[0]["club"] != club.id:
                raise LeagueError(
                    msg(
                        N_(
                            "the club night {name} of {date} was published by another club of the league"
                        ),
                        **where,
                    )
                )
            if rows and rows[0]["digest"] == sha:
                return Taken(_published(rows[0]), new=False)
            row = {
                "club": club.id,
                "night": uid,
                "version": int(rows[0]["version"]) + 1 if rows else 1,
                "date": night.date.isoformat(),
                "document": text,
                "digest": sha,
                "published_at": now(),
                "change_text": words if rows else None,
            }
            self.backend.insert("league_nights", row)
        return Taken(_published(row), new=True)

    def nights(self, *, current: bool = True) -> list[PublishedNight]:
        """The league's nights in the order they were played: the night's date, then when the
        league first took it (a correction keeps the night's place); with ``current=False``
        every version, each night's in order."""
        with self.lock:
            rows = self.backend.query(
                "SELECT n.*, f.first FROM league_nights n JOIN "
                "(SELECT night AS fnight, min(id) AS first, max(version) AS last "
                "FROM league_nights GROUP BY night) f ON f.fnight = n.night"
                + (" WHERE n.version = f.last" if current else "")
                + " ORDER BY n.date, f.first, n.version"
            )
        return [_published(r) for r in rows]

    def versions(self, club: ClubId, night: str) -> list[PublishedNight]:
        """Every version of one club's night, the first first."""
        with self.lock:
            rows = self.backend.query(
                "SELECT * FROM league_nights WHERE club = ? AND night = ? ORDER BY version",
                (club, night),
            )
        return [_published(r) for r in rows]


def _published(row: dict[str, Any]) -> PublishedNight:
    return PublishedNight(
        club=row["club"],
        night=row["night"],
        version=int(row["version"]),
        document=row["document"],
        digest=row["digest"],
        published_at=row["published_at"],
        change=row["change_text"],
    )


__all__ = ["Club", "LeagueError", "LeagueStore", "Taken", "digest", "ended", "verify_ended"]
