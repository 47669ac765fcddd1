"""The roster and the sessions: adding a player (a look-alike of a roster name is refused),
starting a session, hiding one."""

from __future__ import annotations

import json
from typing import Any

from ..core.i18n import N_, Msg, msg
from ..scoring.family import family as family_engine
from ..scoring.ledger.families import AnySession, FamilySettings, family_of
from ..scoring.pulya.convention import Settings
from ..scoring.pulya.session import (
    FORMAT,
    FieldRefused,
    Session,
    look_alike,
    player_name,
)
from .actions import Actions
from .errors import StoreError
from .schema import new_uid, now


def clean_name(name: str) -> str:
    try:
        return player_name(name)
    except FieldRefused as exc:
        raise StoreError(exc.message) from None
    except ValueError as exc:
        raise StoreError(Msg("{detail}", {"detail": str(exc)})) from None


def _close_reason(reason: str) -> str:
    from ..scoring.pulya.session import MAX_REASON, clean_text

    try:
        text = clean_text((reason or "").strip(), "reason", limit=MAX_REASON)
    except FieldRefused as exc:
        raise StoreError(exc.message) from None
    if not text:
        raise StoreError(msg(N_("closing a game needs a reason")))
    return text


class Sessions(Actions):
    def add_player(self, name: str) -> int:
        with self._write():
            return self.player_id(clean_name(name))

    def player_id(self, name: str, uid: str | None = None) -> int:
        """The directory entry of ``name``: by its stable id first (a file's or another
        store's), then by its name (a look-alike of a roster name is refused); else a new entry,
        with ``uid`` when one is given."""
        if uid is not None:
            found = self._player_by_uid(uid)
            if found is not None:
                return found
        row = self.backend.execute(
            "SELECT coalesce(merged_into, id) FROM players WHERE name = ? COLLATE NOCASE", (name,)
        ).fetchone()
        if row:
            return int(row[0])  # a merged entry's name seats the entry it joined
        key = look_alike(name)
        for pid, other in self.backend.execute(
            "SELECT coalesce(merged_into, id), name FROM players"
        ):
            if look_alike(other) != key:
                continue
            if other.casefold() == name.casefold():
                return int(pid)  # the same name in another case (Анна, анна)
            raise StoreError(
                msg(
                    N_("the name {name} looks like {other}, already on the roster: use that one"),
                    name=repr(name),
                    other=repr(other),
                )
            )
        return self._insert("players", {"name": name, "created_at": now(), "uid": uid or new_uid()})

    def _player_by_uid(self, uid: str) -> int | None:
        """The entry with this stable id (a merged one: the entry it joined), or None."""
        row = self.backend.execute(
            "SELECT coalesce(merged_into, id) FROM players WHERE uid = ?", (uid,)
        ).fetchone()
        return None if row is None else int(row[0])

    def _insert(self, table: str, row: dict[str, Any]) -> int:
        pk = self.backend.insert(table, row)
        assert pk is not None
        return int(pk)

    def create_session(
        self,
        players: list[str],
        *,
        convention: str = "sochi",
        overrides: dict[str, Any] | None = None,
        pool_target: int = 20,
        first_dealer: int = 0,
        whist_price: str = "1.00",
        currency: str = "RUB",
    ) -> int:
        """A new session with no deals; the convention's settings are frozen now.

        A preset of a ledger family (bula, kassa, pot, direct) makes a session of that family;
        ``pool_target`` is the pulya's alone and is ignored there.
        """
        data: dict[str, Any] = {
            "format": FORMAT,
            "players": players,
            "convention": convention,
            "overrides": overrides or {},
            "first_dealer": first_dealer,
            "whist_price": whist_price,
            "currency": currency,
            "deals": [],
        }
        engine = family_engine(family_of(convention))
        if engine.pool:  # the pulya plays to a pool target; the ledger families to none
            data["pool_target"] = pool_target
        scored = engine.replay(engine.parse_session(data))
        with self._write():
            return self._insert_session(scored.session, scored.settings, engine.name)

    def _insert_session(
        self,
        session: Session | AnySession,
        settings: Settings | FamilySettings,
        family: str,
        uid: str | None = None,
    ) -> int:
        names = [clean_name(n) for n in session.players]
        # A seat whose player this directory knows by his id sits under the directory's name
        # (a rename here has renamed every seat of his already).
        given = session.player_uids
        uids: list[str | None] = list(given) if given else [None] * len(names)
        for seat, puid in enumerate(uids):
            known = None if puid is None else self._player_by_uid(puid)
            if known is not None:
                names[seat] = self._entry_name(known)
        sid = self._insert(
            "sessions",
            {
                "players": json.dumps(names, ensure_ascii=False),
                "convention": session.convention,
                "overrides": json.dumps(session.overrides, ensure_ascii=False, sort_keys=True),
                "settings": settings.model_dump_json(),
                "pool_target": getattr(session, "pool_target", 0),
                "family": family,
                "first_dealer": session.first_dealer,
                "whist_price": session.whist_price,
                "currency": session.currency,
                "created_at": now(),
                "revision": 0,
                "deals": 0,
                "uid": uid or new_uid(),
            },
        )
        ids = [self.player_id(name, puid) for name, puid in zip(names, uids, strict=True)]
        for seat, pid in enumerate(ids):
            first = ids.index(pid)
            if first != seat:  # a merged name and the entry it joined: one person, two seats
                raise StoreError(
                    msg(
                        N_(
                            "{name} and {other} are one player in the directory: one seat at a table"
                        ),
                        name=repr(names[first]),
                        other=repr(names[seat]),
                    )
                )
            self.backend.insert(
                "session_players", {"session_id": sid, "seat": seat, "player_id": pid}
            )
        return sid

    def close_session(self, sid: int, *, reason: str) -> None:
        """Close a game abandoned before its end, with the table's reason (issue 38 item 14):
        it is no longer in play, takes no write, and its cash-out as it stands is what the
        players owe.  A finished game has nothing to close; reopening undoes it."""
        why = _close_reason(reason)
        with self._write():
            row = self._row(sid)
            if row["closed_at"]:
                raise StoreError(
                    msg(N_("this game is closed already ({reason})"), reason=row["closed_reason"])
                )
            if row["finished_at"]:
                raise StoreError(msg(N_("this game is finished: there is nothing to close")))
            self.backend.execute(
                "UPDATE sessions SET closed_at = ?, closed_reason = ? WHERE id = ?",
                (now(), why, sid),
            )

    def reopen_session(self, sid: int) -> None:
        """A closed game back in play (closed by mistake, or the table met again)."""
        with self._write():
            row = self._row(sid)
            if not row["closed_at"]:
                raise StoreError(msg(N_("this game is not closed: there is nothing to reopen")))
            self.backend.execute(
                "UPDATE sessions SET closed_at = NULL, closed_reason = NULL WHERE id = ?", (sid,)
            )

    def closed_sessions(self) -> dict[int, tuple[str, str]]:
        """Every closed game: its id → (when it was closed, why)."""
        with self._reading():
            rows = self.backend.execute(
                "SELECT id, closed_at, closed_reason FROM sessions WHERE closed_at IS NOT NULL"
            ).fetchall()
        return {int(r[0]): (str(r[1]), str(r[2] or "")) for r in rows}

    def _entry_name(self, pid: int) -> str:
        (name,) = self.backend.execute("SELECT name FROM players WHERE id = ?", (pid,)).fetchone()
        return str(name)

    def delete_session(self, sid: int, *, seen: int) -> None:
        """Hide a session from the list; its journal is kept (nothing is ever lost)."""
        with self._write():
            row = self._row(sid)
            self._check_seen(sid, row, seen)
            self.backend.execute("UPDATE sessions SET deleted_at = ? WHERE id = ?", (now(), sid))
