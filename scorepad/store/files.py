"""Session files in and out: an import is checked in full before anything is written; an export
is the canonical file."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..journal import Action, Entry
from ..players.record import record_of
from ..scoring.ledger.families import (
    AnySession,
    FamilySettings,
    dump_family_session,
    parse_family_session,
    replay_family,
)
from ..scoring.peek import peek_family
from ..scoring.pulya.convention import Settings
from ..scoring.pulya.session import (
    Session,
    Struck,
    dump_session,
    parse_session,
)
from .actions import _canonical_deal, _reason
from .directory import Directory
from .reading import FamilyStored, _score
from .schema import now


class Files(Directory):
    def import_session(self, text: str | bytes) -> int:
        """A session file, validated in full before anything is written; returns its id."""
        data = text.encode("utf-8") if isinstance(text, str) else text
        family = peek_family(data)
        session: Session | AnySession
        settings: Settings | FamilySettings
        if family != "pulya":
            ledger = replay_family(parse_family_session(data))
            session, settings, finished = ledger.session, ledger.settings, ledger.finished
            record = record_of(ledger)
        else:
            pulya = parse_session(text)
            scored = _score(pulya, None)
            session, settings, finished = pulya, scored.settings, scored.finished
            record = record_of(scored)
        deals = [_canonical_deal(d, family) for d in session.deals]
        # A voided deal is written as it was (an add) and voided with its reason, in its place:
        # the deals keep the numbers they had where the file was exported.
        struck = {
            s.place: (_canonical_deal(s.deal, family, s.place), _reason(s.reason))
            for s in session.struck
        }
        actions: list[Action] = []
        live = iter(deals)
        for place in range(len(deals) + len(struck)):
            seq = len(actions) + 1
            if place in struck:
                deal, reason = struck[place]
                actions.append(Action(seq, "add", "", deal=deal))
                actions.append(Action(seq + 1, "void", "", seq, reason=reason))
            else:
                actions.append(Action(seq, "add", "", deal=next(live)))
        with self._write():
            sid = self._insert_session(session, settings, family)
            at = now()
            for a in actions:
                self._insert_action(sid, replace(a, at=at))
            self._update_cache(sid, len(actions), len(deals), finished, record)
        return sid

    def export_session(self, sid: int) -> str:
        """The session file of a stored session (canonical form)."""
        stored = self.load_any(sid)
        # Each voided deal goes back in its place, with its reason: its number and the numbers
        # after it are the file's too (docs/session-format.md, "Voided deals").
        struck = tuple(
            Struck[Any](place=place, reason=_void_reason(entry), deal=entry.deal)
            for place, entry in enumerate(stored.journal.entries.values())
            if entry.voided
        )
        if isinstance(stored, FamilyStored):
            return dump_family_session(stored.session.model_copy(update={"struck": struck}))
        return dump_session(stored.session.model_copy(update={"struck": struck}))


def _void_reason(entry: Entry) -> str:
    """Why the deal was voided (the last void in effect; a void always has its reason)."""
    voids = [a.reason for a in entry.revisions if a.kind == "void" and a.reason]
    return voids[-1] if voids else "-"
