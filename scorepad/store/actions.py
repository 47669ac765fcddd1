"""The journal's actions: add, edit, void, restore, undo and redo, each naming the revision it saw
(a stale one is refused with what changed since)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..core.i18n import N_, Msg, msg
from ..scoring.family import family as family_engine
from ..scoring.ledger.families import AnyFamilyDeal
from ..scoring.pulya.session import (
    MAX_DEALS,
    MAX_REASON,
    Correction,
    FieldRefused,
    Game,
    Misere,
    Problem,
    Raspasy,
    SessionInvalid,
    clean_text,
    deal_data,
    too_many_deals,
)
from ..scoring.results import SessionRecord, record_of
from .errors import InvalidEntry, StaleRevision, StoreError
from .journal import Action, Journal, JournalError, deal_numbers
from .reading import AnyStored, Reading
from .schema import new_uid, now

#: The channel a session's write is announced on to other processes (PostgreSQL's NOTIFY).
WRITTEN = "scorepad_written"

#: A deal the store takes: the model of the session's family (a form builds it, a file parses it).
AnyDeal = Game | Misere | Raspasy | Correction | AnyFamilyDeal


def _journal(step: Callable[[], Action]) -> Action:
    try:
        return step()
    except JournalError as exc:
        raise StoreError(exc.message) from None


def edit_reason(reason: str) -> str:
    if not isinstance(reason, str | None):  # a page's field can send any value: no reason at all
        raise StoreError(msg(N_("an edit or a void needs a reason")))
    try:
        text = clean_text((reason or "").strip(), "reason", limit=MAX_REASON)
    except FieldRefused as exc:
        raise StoreError(exc.message) from None
    if not text:
        raise StoreError(msg(N_("an edit or a void needs a reason")))
    return text


def canonical_deal(deal: AnyDeal, family: str = "pulya", index: int | None = None) -> Any:
    """A deal in its canonical form (as exported): a deal of another family, or one built past
    its model's checks, is refused here."""
    engine = family_engine(family)
    if not isinstance(deal, engine.deal_types()):
        raise InvalidEntry(
            [Problem(index, "type", msg(N_("not a deal of the {family} family"), family=family))]
        )
    try:
        return engine.parse_deal(deal.model_dump(mode="json"), index=index)
    except SessionInvalid as exc:
        raise InvalidEntry(exc.problems) from None


def describe_action(a: Action, number: int | None = None) -> Msg:
    """What an action did, in words (the history and the stale-write message).

    ``number`` is the deal's number as the player saw it (:func:`scorepad.store.journal.deal_numbers`), never
    its id in the journal: the app, the sheet and the history count deals alike, from 1.
    """
    if a.kind == "add":
        if number is not None:
            return msg(N_("deal {deal} was written"), deal=number)
        return msg(N_("a deal was added"))
    deal = number if number is not None else "?"
    if a.kind == "edit":
        return msg(N_("deal {deal} was edited ({reason})"), deal=deal, reason=a.reason)
    if a.kind == "void":
        return msg(N_("deal {deal} was voided ({reason})"), deal=deal, reason=a.reason)
    if a.kind == "restore":
        return msg(N_("deal {deal} was restored"), deal=deal)
    if a.kind == "undo":
        return msg(N_("action {target} was undone"), target=a.target)
    return msg(N_("action {target} was redone"), target=a.target)


def _keeps_record(model: Any, old: Any) -> Any:
    """An edit keeps the cards kept with the deal (its ``record``, the evidence of a dispute)
    when it gives none of its own: the History's form writes the sheet's fields only, and
    the cards were lost with the first edit (issue #37)."""
    if getattr(model, "record", False) is None and getattr(old, "record", None) is not None:
        return model.model_copy(update={"record": old.record})
    return model


class Actions(Reading):
    def add_deal(self, sid: int, deal: AnyDeal, *, seen: int) -> AnyStored:
        family = self.family(sid)

        def make(j: Journal, seq: int, at: str) -> Action:
            if len(j.live) >= MAX_DEALS:
                raise StoreError(too_many_deals())
            # A family's refusal names the deal by its number as said at the table (the voided
            # deals counted); the pulya's by its index among the live deals, as before.
            index = len(j.entries) if family_engine(family).places_count_voided else len(j.live)
            return Action(seq, "add", at, deal=canonical_deal(deal, family, index))

        return self._act(sid, seen, make)

    def edit_deal(
        self, sid: int, deal_id: int, deal: AnyDeal, *, reason: str, seen: int
    ) -> AnyStored:
        why = edit_reason(reason)
        family = self.family(sid)

        def make(j: Journal, seq: int, at: str) -> Action:
            index = j.index_of(deal_id)
            if family_engine(family).places_count_voided and deal_id in j.entries:
                index = list(j.entries).index(deal_id)  # its place: its number less one
            model = canonical_deal(deal, family, index)
            entry = j.entries.get(deal_id)
            return Action(seq, "edit", at, deal_id, _keeps_record(model, entry and entry.deal), why)

        return self._act(sid, seen, make)

    def void_deal(self, sid: int, deal_id: int, *, reason: str, seen: int) -> AnyStored:
        why = edit_reason(reason)
        return self._act(sid, seen, lambda j, seq, at: Action(seq, "void", at, deal_id, reason=why))

    def restore_deal(self, sid: int, deal_id: int, *, seen: int) -> AnyStored:
        """Take a void back: the deal returns to its place, as it was written before the void."""
        return self._act(sid, seen, lambda j, seq, at: Action(seq, "restore", at, deal_id))

    def undo(self, sid: int, *, seen: int) -> AnyStored:
        return self._act(
            sid, seen, lambda j, seq, at: Action(seq, "undo", at, target=_journal(j.next_undo).seq)
        )

    def redo(self, sid: int, *, seen: int) -> AnyStored:
        return self._act(
            sid, seen, lambda j, seq, at: Action(seq, "redo", at, target=_journal(j.next_redo).seq)
        )

    def _act(self, sid: int, seen: int, make: Callable[[Journal, int, str], Action]) -> AnyStored:
        try:
            with self._write():
                row = self._row(sid)
                self._check_seen(sid, row, seen)
                if row.get("closed_at"):  # an abandoned game: nothing is written until reopened
                    raise StoreError(
                        msg(
                            N_("this game was closed ({reason}): reopen it to write in it"),
                            reason=row["closed_reason"],
                        )
                    )
                live = self._live.pop(sid, None)
                if live is not None and live.revision != row["revision"]:
                    live = None
                # A fork: snapshots already handed out keep their journal (and their revision).
                journal = (
                    live.journal.fork()
                    if live is not None
                    else self._journal(sid, self._actions(sid, row["family"]))
                )
                action = make(journal, journal.revision + 1, now())
                try:
                    journal.apply(action)
                except JournalError as exc:
                    raise StoreError(exc.message) from None
                appended = (
                    live.replay.append(action.deal)
                    if live is not None and action.kind == "add"
                    else None
                )
                if appended:
                    raise InvalidEntry(appended)
                if live is not None and appended is not None:  # written onto the kept replay
                    live.revision, live.journal = action.seq, journal
                else:
                    try:
                        live = self._replay(row, journal)
                    except SessionInvalid as exc:
                        raise InvalidEntry(exc.problems) from None
                self._insert_action(sid, action)
                stored = self._stored(row, live)
                self._update_cache(
                    sid,
                    journal.revision,
                    len(journal.live),
                    stored.scored.finished,
                    record_of(stored.scored),
                )
        except BaseException:
            self._live.pop(sid, None)  # whatever failed, the next action starts from the file
            raise
        self._live[sid] = live
        return stored

    def _check_seen(self, sid: int, row: dict[str, Any], seen: int) -> None:
        revision = row["revision"]
        if revision == seen:
            return
        actions = self._actions(sid, row["family"])
        numbers = deal_numbers(actions)
        changes = [
            msg(N_("{at}: {what}"), at=a.at[11:19], what=describe_action(a, numbers.get(a.seq)))
            for a in actions
            if a.seq > seen
        ]
        raise StaleRevision(
            msg(
                N_(
                    "session {id} changed since you looked (revision {seen}, now {now}); nothing was written:"
                ),
                id=sid,
                seen=seen,
                now=revision,
            ),
            *changes,
        )

    def _insert_action(self, sid: int, a: Action, uid: str | None = None) -> None:
        """One action of the journal; an added deal gets its stable id (``uid``, a file's, or a
        new one) in the same transaction."""
        if a.kind == "add":
            self.backend.execute(
                "INSERT INTO deal_uids (session_id, deal_id, uid) VALUES (?, ?, ?)",
                (sid, a.seq, uid or new_uid()),
            )
        self.backend.insert(
            "actions",
            {
                "session_id": sid,
                "seq": a.seq,
                "kind": a.kind,
                "deal_id": a.deal_id,
                "deal": None
                if a.deal is None
                else json.dumps(deal_data(a.deal), ensure_ascii=False),
                "reason": a.reason,
                "target": a.target,
                "at": a.at,
            },
        )

    def _update_cache(
        self, sid: int, revision: int, deals: int, finished: bool, record: SessionRecord
    ) -> None:
        # The seats' record (money, result, counts) is what the statistics, ratings and seasons
        # read: written in the same transaction as the action, so it is never stale.
        self.backend.execute(
            "UPDATE sessions SET revision = ?, deals = ?, record = ?, "
            "finished_at = CASE WHEN ? THEN coalesce(finished_at, ?) ELSE NULL END WHERE id = ?",
            (revision, deals, record.to_json(), finished, now(), sid),
        )
        # Other processes on the same database told, once this transaction commits (PostgreSQL's
        # NOTIFY; nothing on SQLite): a server's other workers draw the write on their pages
        # (scorepad/app/server/listen.py).  The session and its revision; they read the rest.
        self.backend.notify(WRITTEN, f"{sid} {revision}")
