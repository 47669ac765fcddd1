"""One directory of players across every family and every night: rename once and every sheet
shows the new name; merge two entries that are the same person (with a reason, undoable); delete
an entry nobody sits under; and a season's debts marked settled.  Each is an action of the
directory's own append-only journal (``player_actions``), so nothing is ever lost.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..core.i18n import N_, msg
from ..scoring.pulya.session import (
    MAX_REASON,
    FieldRefused,
    TextKind,
    clean_text,
    look_alike,
)
from ..scoring.pulya.session import currency_code as session_currency
from .errors import NotFound, StoreError
from .schema import now
from .sessions import Sessions, clean_name


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    """One entry of the directory: its id, its name, in how many sessions it sits."""

    id: int
    name: str
    sessions: int


@dataclass(frozen=True, slots=True)
class PlayerAction:
    """One action of the directory's journal, as the history lists it."""

    kind: str  # rename, merge, unmerge, delete, settle
    player_id: int | None
    other_id: int | None
    name: str | None
    old_name: str | None
    amount: int | None
    currency: str | None
    reason: str | None
    at: str


@dataclass(frozen=True, slots=True)
class Season:
    """A named period and group: a club's Fridays."""

    id: int
    name: str
    since: str  # ISO date, inclusive
    until: str  # ISO date, inclusive
    players: tuple[int, ...]


class Directory(Sessions):
    def directory(self) -> list[PlayerEntry]:
        """Every entry of the directory (merged ones left out), by name."""
        with self._reading():
            rows = self.backend.execute(
                "SELECT p.id, p.name, count(DISTINCT sp.session_id) FROM players p "
                "LEFT JOIN session_players sp ON sp.player_id = p.id "
                "WHERE p.merged_into IS NULL GROUP BY p.id ORDER BY p.name COLLATE NOCASE"
            ).fetchall()
        return [PlayerEntry(int(r[0]), str(r[1]), int(r[2])) for r in rows]

    def player_uid(self, pid: int) -> str | None:
        """The stable id of directory entry ``pid`` (issue #36)."""
        with self._reading():
            row = self.backend.execute("SELECT uid FROM players WHERE id = ?", (pid,)).fetchone()
        return None if row is None else row[0]

    def player_ids(self, sid: int) -> list[int]:
        """The directory entry of each seat of session ``sid``, in seating order."""
        with self._reading():
            rows = self.backend.execute(
                "SELECT player_id FROM session_players WHERE session_id = ? ORDER BY seat", (sid,)
            ).fetchall()
        return [int(r[0]) for r in rows]

    def _entry(self, pid: int) -> dict[str, Any]:
        rows = list(self.backend.query("SELECT * FROM players WHERE id = ?", [pid]))
        if not rows:
            raise NotFound(msg(N_("there is no player {id} in the directory"), id=pid))
        return rows[0]

    def _journal_player(self, kind: str, **fields: Any) -> None:
        self.backend.insert("player_actions", {"kind": kind, "at": now(), **fields})

    def _seats_of(self, pid: int) -> list[tuple[int, int]]:
        return [
            (int(r[0]), int(r[1]))
            for r in self.backend.execute(
                "SELECT session_id, seat FROM session_players WHERE player_id = ? "
                "ORDER BY session_id, seat",
                (pid,),
            )
        ]

    def _rename_seats(self, seats: list[tuple[int, int]], name: str) -> None:
        """Write ``name`` at these seats of their sessions (what every sheet shows)."""
        for sid, seat in seats:
            (text,) = self.backend.execute(
                "SELECT players FROM sessions WHERE id = ?", (sid,)
            ).fetchone()
            names = json.loads(text)
            names[seat] = name
            self.backend.execute(
                "UPDATE sessions SET players = ? WHERE id = ?",
                (json.dumps(names, ensure_ascii=False), sid),
            )
            self._live.pop(sid, None)  # the kept replay carries the old name

    def rename_player(self, pid: int, name: str, *, reason: str = "") -> None:
        """Rename an entry: every session it sits in shows the new name."""
        new = clean_name(name)
        reason = _free_text(reason, "reason", MAX_REASON)
        with self._write():
            entry = self._entry(pid)
            key = look_alike(new)
            for (other,) in self.backend.execute(
                "SELECT name FROM players WHERE id != ? AND merged_into IS NULL", (pid,)
            ):
                if look_alike(other) == key:
                    raise StoreError(
                        msg(
                            N_(
                                "the name {name} looks like {other}, already on the roster: use that one"
                            ),
                            name=repr(new),
                            other=repr(other),
                        )
                    )
            self.backend.execute("UPDATE players SET name = ? WHERE id = ?", (new, pid))
            self._rename_seats(self._seats_of(pid), new)
            self._journal_player(
                "rename", player_id=pid, name=new, old_name=entry["name"], reason=reason or None
            )

    def merge_players(self, pid: int, into: int, *, reason: str) -> None:
        """``pid`` is the same person as ``into``: his seats become ``into``'s (undoable)."""
        try:
            why = clean_text((reason or "").strip(), "reason", limit=500)
        except FieldRefused as exc:
            raise StoreError(exc.message) from None
        if not why:
            raise StoreError(msg(N_("a merge needs a reason")))
        if pid == into:
            raise StoreError(msg(N_("a player cannot be merged into himself")))
        with self._write():
            entry, target = self._entry(pid), self._entry(into)
            if entry["merged_into"] is not None or target["merged_into"] is not None:
                raise StoreError(msg(N_("{name} was merged already"), name=entry["name"]))
            seats = self._seats_of(pid)
            theirs = {sid for sid, _ in self._seats_of(into)}
            both = sorted({sid for sid, _ in seats} & theirs)
            if both:
                raise StoreError(
                    msg(
                        N_(
                            "{name} and {other} sat at the same table in session {id}: not one person"
                        ),
                        name=entry["name"],
                        other=target["name"],
                        id=both[0],
                    )
                )
            self.backend.execute(
                "UPDATE session_players SET player_id = ? WHERE player_id = ?", (into, pid)
            )
            self._rename_seats(seats, target["name"])
            self.backend.execute("UPDATE players SET merged_into = ? WHERE id = ?", (into, pid))
            self._journal_player(
                "merge",
                player_id=pid,
                other_id=into,
                name=target["name"],
                old_name=entry["name"],
                moved=json.dumps(seats),
                reason=why,
            )

    def undo_merge(self, pid: int, *, reason: str = "") -> None:
        """Take back the last merge of ``pid``: his seats are his again, under his name."""
        reason = _free_text(reason, "reason", MAX_REASON)
        with self._write():
            entry = self._entry(pid)
            if entry["merged_into"] is None:
                raise StoreError(msg(N_("{name} is not merged into anyone"), name=entry["name"]))
            row = self.backend.execute(
                "SELECT other_id, moved FROM player_actions WHERE kind = 'merge' AND player_id = ? "
                "ORDER BY id DESC LIMIT 1",
                (pid,),
            ).fetchone()
            into, moved = int(row[0]), [tuple(x) for x in json.loads(row[1])]
            for sid, seat in moved:
                self.backend.execute(
                    "UPDATE session_players SET player_id = ? WHERE session_id = ? AND seat = ?",
                    (pid, sid, seat),
                )
            self._rename_seats(moved, entry["name"])
            self.backend.execute("UPDATE players SET merged_into = NULL WHERE id = ?", (pid,))
            self._journal_player(
                "unmerge", player_id=pid, other_id=into, name=entry["name"], reason=reason or None
            )

    def delete_player(self, pid: int) -> None:
        """Delete an entry nobody sits under (the journal keeps its name)."""
        with self._write():
            entry = self._entry(pid)
            seats = self._seats_of(pid)
            if seats:
                raise StoreError(
                    msg(
                        N_(
                            "{name} still sits in session {id}: a player in a session cannot be deleted"
                        ),
                        name=entry["name"],
                        id=seats[0][0],
                    )
                )
            self.backend.execute("DELETE FROM players WHERE id = ?", (pid,))
            self._journal_player("delete", player_id=pid, old_name=entry["name"])

    def settle_debt(
        self, payer: int, payee: int, amount: int, *, currency: str, reason: str = ""
    ) -> None:
        """``payer`` paid ``payee`` ``amount`` (minor units): the debts between them go down."""
        reason = _free_text(reason, "reason", MAX_REASON)
        currency = currency_code(currency)
        if amount <= 0:
            raise StoreError(msg(N_("a settled amount must be more than zero")))
        with self._write():
            self._entry(payer), self._entry(payee)
            self._journal_player(
                "settle",
                player_id=payer,
                other_id=payee,
                amount=amount,
                currency=currency,
                reason=reason or None,
            )

    def player_history(self) -> list[PlayerAction]:
        """The directory's journal, oldest first."""
        with self._reading():
            rows = self.backend.execute(
                "SELECT kind, player_id, other_id, name, old_name, amount, currency, reason, at "
                "FROM player_actions ORDER BY id"
            ).fetchall()
        return [PlayerAction(*r) for r in rows]

    def create_season(self, name: str, *, since: str, until: str, players: list[int]) -> int:
        """A named period (ISO dates, inclusive) and group of directory entries."""
        title = _free_text(name, "season", MAX_SEASON)
        if not title:
            raise StoreError(msg(N_("a season needs a name")))
        if until < since:
            raise StoreError(msg(N_("a season cannot end before it starts")))
        with self._write():
            for pid in players:
                self._entry(pid)
            return self._insert(
                "seasons",
                {
                    "name": title,
                    "since": since,
                    "until": until,
                    "players": json.dumps(sorted(set(players))),
                    "created_at": now(),
                },
            )

    def seasons(self) -> list[Season]:
        with self._reading():
            rows = self.backend.execute(
                "SELECT id, name, since, until, players FROM seasons ORDER BY since, id"
            ).fetchall()
        return [Season(int(r[0]), r[1], r[2], r[3], tuple(json.loads(r[4]))) for r in rows]

    def session_records(self) -> list[tuple[int, str, str, list[int], str | None]]:
        """``(id, family, created_at, player ids by seat, record JSON)`` of every kept session,
        oldest first (two queries: one row a session, one a seat)."""
        with self._reading():
            rows = self.backend.execute(
                "SELECT id, family, created_at, record FROM sessions "
                "WHERE deleted_at IS NULL ORDER BY created_at, id"
            ).fetchall()
            seats: dict[int, list[int]] = {}
            for sid, pid in self.backend.execute(
                "SELECT session_id, player_id FROM session_players ORDER BY session_id, seat"
            ):
                seats.setdefault(int(sid), []).append(int(pid))
        return [(int(r[0]), r[1], r[2], seats.get(int(r[0]), []), r[3]) for r in rows]


__all__ = ["Directory", "PlayerAction", "PlayerEntry", "Season"]


#: The longest season name (as a night's).
MAX_SEASON = 80


def _free_text(text: str | None, what: TextKind, limit: int) -> str:
    """A text a player typed (a reason, a season's name): checked as a player's name is (no
    control, bidi or hidden character), so that no line shows it raw."""
    try:
        return clean_text((text or "").strip(), what, limit=limit)
    except FieldRefused as exc:
        raise StoreError(exc.message) from None


def currency_code(code: str) -> str:
    """An ISO 4217 currency code, as a session file's ``currency`` is checked (Babel's list)."""
    try:
        return session_currency(code)
    except FieldRefused as exc:
        raise StoreError(exc.message) from None
