"""Session files in and out: an import is checked in full before anything is written; an export
is the canonical file."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from typing import Any, Literal

from ..core.i18n import N_, msg
from ..scoring.family import Family
from ..scoring.family import family as family_engine
from ..scoring.ledger.families import AnySession, FamilySettings
from ..scoring.peek import peek_family
from ..scoring.pulya.convention import Settings
from ..scoring.pulya.session import (
    Session,
    Struck,
)
from ..scoring.results import record_of
from .actions import canonical_deal, edit_reason
from .directory import Directory
from .errors import StoreError
from .journal import Action, Entry
from .schema import new_uid, now

#: The namespace of the ids given to what a file from before issue #36 holds (it has none).
_LEGACY = uuid.UUID("5c0e3d1a-6d1f-4c53-9a2e-7e4a1f0b9d36")

ImportStatus = Literal["new", "unchanged", "extended"]


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import did: a new session, nothing (it was here already), or new deals."""

    id: int
    status: ImportStatus
    new_deals: int = 0


class Files(Directory):
    def import_session(self, text: str | bytes) -> int:
        """A session file, validated in full before anything is written; returns its id."""
        return self.import_file(text).id

    def import_file(self, text: str | bytes) -> Imported:
        """A session file, validated in full before anything is written.

        A session is one session in every store, by its stable id: a file imported again
        changes nothing; one with more deals (the session played on elsewhere) adds them; one
        whose deals differ from the stored ones at the same number is refused, with nothing
        written (docs/session-format.md, "Stable ids")."""
        data = text.encode("utf-8") if isinstance(text, str) else text
        engine = family_engine(peek_family(data))
        scored = engine.replay(engine.parse_session(data))
        session: Session | AnySession = scored.session
        settings: Settings | FamilySettings = scored.settings
        finished, record = scored.finished, record_of(scored)
        family = engine.name
        total = len(session.deals) + len(session.struck)
        # A file without ids is known by its content; one without deals has none to be known
        # by (a new game's players and stakes): each import of it is a new game.
        uid = session.uid or (_legacy_uid(session, engine) if total else new_uid())
        given = list(session.deal_uids) + [None] * (total - len(session.deal_uids))
        deal_uids = [u or str(uuid.uuid5(uuid.UUID(uid), f"deal/{p}")) for p, u in enumerate(given)]
        deals = [canonical_deal(d, family) for d in session.deals]
        # A voided deal is written as it was (an add) and voided with its reason, in its place:
        # the deals keep the numbers they had where the file was exported.
        struck = {
            s.place: (canonical_deal(s.deal, family, s.place), edit_reason(s.reason))
            for s in session.struck
        }
        places: list[tuple[Any, str | None]] = []
        live = iter(deals)
        for place in range(total):
            places.append(struck[place] if place in struck else (next(live), None))
        with self._write():
            known = self.backend.execute("SELECT id FROM sessions WHERE uid = ?", (uid,)).fetchone()
            if known is not None:
                full = session.model_copy(update={"uid": uid, "deal_uids": tuple(deal_uids)})
                return self._merge(int(known[0]), full, settings, family, places, deal_uids)
            self._free_deal_uids(deal_uids)
            sid = self._insert_session(session, settings, family, uid)
            at = now()
            seq = 0
            for (deal, reason), deal_uid in zip(places, deal_uids, strict=True):
                seq += 1
                self._insert_action(sid, Action(seq, "add", at, deal=deal), deal_uid)
                if reason is not None:
                    seq += 1
                    self._insert_action(sid, Action(seq, "void", at, seq - 1, reason=reason))
            self._update_cache(sid, seq, len(deals), finished, record)
        return Imported(sid, "new")

    def _merge(
        self,
        sid: int,
        session: Session | AnySession,
        settings: Settings | FamilySettings,
        family: str,
        places: list[tuple[Any, str | None]],
        deal_uids: list[str],
    ) -> Imported:
        """The file's session is stored here already (``sid``): what the file has more is
        added, in the import's transaction; a deal that differs is refused."""
        row = self._row(sid)
        stored = json.loads(self.export_session(sid))
        theirs = json.loads(family_engine(family).dump_session(session))
        if (
            row["family"] != family
            or json.loads(row["settings"]) != json.loads(settings.model_dump_json())
            or any(stored.get(k) != theirs.get(k) for k in _SAME)
            or len(stored["players"]) != len(theirs["players"])
        ):
            raise StoreError(
                msg(
                    N_(
                        "the session of {players} is in this database already, with other settings: nothing was written"
                    ),
                    players=", ".join(stored["players"]),
                )
            )
        mine, new = stored["deals"], theirs["deals"]
        for place, (a, b) in enumerate(zip(mine, new, strict=False)):
            if a != b:
                raise StoreError(
                    msg(
                        N_(
                            "the session of {players} is in this database already, with another deal {deal}: nothing was written"
                        ),
                        players=", ".join(stored["players"]),
                        deal=place + 1,
                    )
                )
        if len(new) <= len(mine):
            return Imported(sid, "unchanged")
        taken = self._free_deal_uids(deal_uids[len(mine) :], sid)
        if taken is not None:  # a deal of the file that this session took back (an undone add)
            raise StoreError(
                msg(
                    N_(
                        "the session of {players} is in this database already, with another deal {deal}: nothing was written"
                    ),
                    players=", ".join(stored["players"]),
                    deal=len(mine) + taken + 1,
                )
            )
        seq = int(row["revision"])
        at = now()
        for (deal, reason), deal_uid in zip(
            places[len(mine) :], deal_uids[len(mine) :], strict=True
        ):
            seq += 1
            self._insert_action(sid, Action(seq, "add", at, deal=deal), deal_uid)
            if reason is not None:
                seq += 1
                self._insert_action(sid, Action(seq, "void", at, seq - 1, reason=reason))
        self._live.pop(sid, None)
        now_stored = self.load(sid)
        self._update_cache(
            sid,
            seq,
            len(now_stored.journal.live),
            now_stored.scored.finished,
            record_of(now_stored.scored),
        )
        return Imported(sid, "extended", len(new) - len(mine))

    def _free_deal_uids(self, uids: list[str], sid: int | None = None) -> int | None:
        """The index of the first of ``uids`` that session ``sid`` holds already (an add it
        undid), or None; one held by another session is refused: a deal is in one session."""
        for index, uid in enumerate(uids):
            row = self.backend.execute(
                "SELECT session_id FROM deal_uids WHERE uid = ?", (uid,)
            ).fetchone()
            if row is None:
                continue
            if sid is not None and int(row[0]) == sid:
                return index
            raise StoreError(msg(N_("the id {uid} is given twice"), uid=uid))
        return None

    def export_session(self, sid: int) -> str:
        """The session file of a stored session (canonical form), with its stable ids."""
        stored = self.load(sid)
        # Each voided deal goes back in its place, with its reason: its number and the numbers
        # after it are the file's too (docs/session-format.md, "Voided deals").
        struck = tuple(
            Struck[Any](place=place, reason=_void_reason(entry), deal=entry.deal)
            for place, entry in enumerate(stored.journal.entries.values())
            if entry.voided
        )
        with self._reading():
            (uid,) = self.backend.execute(
                "SELECT uid FROM sessions WHERE id = ?", (sid,)
            ).fetchone()
            players = [
                str(r[0])
                for r in self.backend.execute(
                    "SELECT p.uid FROM session_players sp JOIN players p ON p.id = sp.player_id "
                    "WHERE sp.session_id = ? ORDER BY sp.seat",
                    (sid,),
                )
            ]
            by_deal = dict(
                self.backend.execute(
                    "SELECT deal_id, uid FROM deal_uids WHERE session_id = ?", (sid,)
                ).fetchall()
            )
        ids = {
            "struck": struck,
            "uid": uid,
            "player_uids": players if len(players) == len(stored.session.players) else None,
            "deal_uids": tuple(by_deal.get(d) for d in stored.journal.entries),
        }
        return family_engine(stored.family).dump_session(stored.session.model_copy(update=ids))


#: The fields of a session file that a file of the same session must give alike.
_SAME = ("convention", "pool_target", "first_dealer", "whist_price", "currency")


def _legacy_uid(session: Session | AnySession, engine: Family) -> str:
    """The id of a session whose file has none (written before issue #36): its content's, so
    that the same file imported twice is one session."""
    plain = session.model_copy(update={"uid": None, "player_uids": None, "deal_uids": ()})
    digest = hashlib.sha256(engine.dump_session(plain).encode("utf-8")).hexdigest()
    return str(uuid.uuid5(_LEGACY, digest))


def _void_reason(entry: Entry) -> str:
    """Why the deal was voided (the last void in effect; a void always has its reason)."""
    voids = [a.reason for a in entry.revisions if a.kind == "void" and a.reason]
    return voids[-1] if voids else "-"
