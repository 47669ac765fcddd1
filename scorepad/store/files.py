"""Session files in and out: an import is checked in full before anything is written; an export
is the canonical file."""

from __future__ import annotations

from ..journal import Action
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
    dump_session,
    parse_session,
)
from .actions import _canonical_deal
from .reading import FamilyStored, _score
from .schema import now
from .sessions import Sessions


class Files(Sessions):
    def import_session(self, text: str | bytes) -> int:
        """A session file, validated in full before anything is written; returns its id."""
        data = text.encode("utf-8") if isinstance(text, str) else text
        family = peek_family(data)
        session: Session | AnySession
        settings: Settings | FamilySettings
        if family != "pulya":
            ledger = replay_family(parse_family_session(data))
            session, settings, finished = ledger.session, ledger.settings, ledger.finished
        else:
            pulya = parse_session(text)
            scored = _score(pulya, None)
            session, settings, finished = pulya, scored.settings, scored.finished
        deals = [_canonical_deal(d, family) for d in session.deals]
        with self._write():
            sid = self._insert_session(session, settings, family)
            at = now()
            for seq, deal in enumerate(deals, start=1):
                self._insert_action(sid, Action(seq, "add", at, deal=deal))
            self._update_cache(sid, len(deals), len(deals), finished)
        return sid

    def export_session(self, sid: int) -> str:
        """The session file of a stored session (canonical form)."""
        stored = self.load_any(sid)
        if isinstance(stored, FamilyStored):
            return dump_family_session(stored.session)
        return dump_session(stored.session)
