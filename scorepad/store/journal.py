"""The journal of a session: every action a player took, append-only, and what it amounts to.

Actions are the only source of truth (issue: the store).  Adding a deal, editing it (a new
revision, with a reason), voiding it (a tombstone, with a reason), undo and redo are all
actions; nothing is ever rewritten.  :func:`replay_journal` turns the actions into the current
deals, oldest first, each with its full history.

Undo and redo work like an editor's: undo takes back the last add/edit/void still in effect,
redo puts back the last one undone, and a new add/edit/void forgets what could be redone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from ..core.i18n import N_, ScorepadError, msg
from ..scoring.pulya.session import Deal

if TYPE_CHECKING:
    from ..scoring.family import Replaying

ActionKind = Literal["add", "edit", "void", "restore", "undo", "redo"]
KINDS: tuple[ActionKind, ...] = ("add", "edit", "void", "restore", "undo", "redo")


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a player did.  ``seq`` counts the session's actions from 1 (its revision)."""

    seq: int
    kind: ActionKind
    at: str  # ISO 8601, UTC
    deal_id: int | None = None  # the seq of the action that added the deal
    deal: Deal | None = None  # the deal as written (add, edit)
    reason: str | None = None  # edit, void (a restore needs none: it takes the void back)
    target: int | None = None  # undo, redo: the seq of the action taken back or put back


@dataclass(slots=True)
class Entry:
    """A deal as it stands: its current text, whether it is voided, and every revision."""

    deal_id: int
    deal: Deal
    voided: bool = False
    revisions: list[Action] = field(default_factory=list)


class JournalError(ScorepadError):
    """An action that the journal cannot take (edit of a voided deal, nothing to undo...)."""


@dataclass(slots=True)
class Journal:
    """The state the actions add up to."""

    entries: dict[int, Entry] = field(default_factory=dict)  # by deal_id, in the order added
    done: list[Action] = field(default_factory=list)  # add/edit/void in effect
    undone: list[Action] = field(default_factory=list)  # what redo would put back
    revision: int = 0

    @property
    def deals(self) -> list[Deal]:
        """The current deals, in the order they were added, voided ones left out."""
        return [e.deal for e in self.entries.values() if not e.voided]

    @property
    def live(self) -> list[Entry]:
        return [e for e in self.entries.values() if not e.voided]

    def fork(self) -> Journal:
        """A copy to apply further actions to; this journal (a snapshot someone holds) stays."""
        return Journal(dict(self.entries), list(self.done), list(self.undone), self.revision)

    def index_of(self, deal_id: int) -> int:
        """The deal's index in the session file (its place among the live deals)."""
        for i, e in enumerate(self.live):
            if e.deal_id == deal_id:
                return i
        raise JournalError(msg(N_("deal #{deal} is not in the session"), deal=deal_id))

    def can_undo(self) -> bool:
        return bool(self.done)

    def can_redo(self) -> bool:
        return bool(self.undone)

    def next_undo(self) -> Action:
        if not self.done:
            raise JournalError(msg(N_("there is nothing to undo")))
        return self.done[-1]

    def next_redo(self) -> Action:
        if not self.undone:
            raise JournalError(msg(N_("there is nothing to redo")))
        return self.undone[-1]

    def check(self, kind: ActionKind, deal_id: int | None) -> None:
        """Whether an edit, void or restore may target ``deal_id`` now."""
        if kind in ("edit", "void", "restore"):
            entry = self.entries.get(deal_id) if deal_id is not None else None
            if entry is None:
                raise JournalError(
                    msg(N_("there is no deal #{deal} in this session"), deal=deal_id)
                )
            if kind == "restore":
                if not entry.voided:
                    raise JournalError(msg(N_("deal #{deal} is not voided"), deal=deal_id))
            elif entry.voided:
                raise JournalError(
                    msg(N_("deal #{deal} is voided; undo the void to change it"), deal=deal_id)
                )

    def apply(self, a: Action) -> None:
        # Every check comes before any change: a refused action leaves the journal as it was.
        if a.seq != self.revision + 1:
            raise JournalError(
                msg(
                    N_("action {seq} is out of order after revision {revision}"),
                    seq=a.seq,
                    revision=self.revision,
                )
            )
        if a.kind == "undo":
            taken = self.next_undo()
            self.done.pop()
            self.undone.append(taken)
            self._rebuild()
        elif a.kind == "redo":
            again = self.next_redo()
            self.undone.pop()
            self.done.append(again)
            self._rebuild()
        else:
            self.check(a.kind, a.deal_id)
            self.done.append(a)
            self.undone.clear()
            self._effect(a)
        self.revision = a.seq

    def _effect(self, a: Action) -> None:
        if a.kind == "add":
            assert a.deal is not None
            self.entries[a.seq] = Entry(a.seq, a.deal, revisions=[a])
        elif a.kind == "edit":
            # A new entry, not a change to the old one: a fork shares the old entries.
            assert a.deal_id is not None and a.deal is not None
            old = self.entries[a.deal_id]
            self.entries[a.deal_id] = Entry(a.deal_id, a.deal, old.voided, [*old.revisions, a])
        else:  # void, restore
            assert a.deal_id is not None
            old = self.entries[a.deal_id]
            voided = a.kind == "void"
            self.entries[a.deal_id] = Entry(a.deal_id, old.deal, voided, [*old.revisions, a])

    def _rebuild(self) -> None:
        # Undo and redo are rare; recomputing from the actions in effect keeps one code path.
        self.entries = {}
        for a in self.done:
            self._effect(a)


def check_action(a: Action) -> None:
    """An action as Scorepad writes it (a stored row read back): its kind known, an add or edit
    with its deal, an edit, void or restore naming its deal, an undo or redo its target."""
    if a.kind not in KINDS:
        raise JournalError(
            msg(N_("{kind} is not an action Scorepad writes"), kind=repr(a.kind)[:30])
        )
    for name, needed in (
        ("seq", True),
        ("deal", a.kind in ("add", "edit")),
        ("deal_id", a.kind in ("edit", "void", "restore")),
        ("target", a.kind in ("undo", "redo")),
    ):
        value = getattr(a, name)
        missing = value is None or (name != "deal" and not isinstance(value, int))
        if needed and missing:
            raise JournalError(msg(N_("the {kind} lacks its {field}"), kind=a.kind, field=name))


def number_of(journal: Journal, deal_id: int) -> int:
    """The deal's number as said at the table: its place among the deals written, from 1.

    A voided deal keeps its number (struck through) and so do the deals after it: "deal 14"
    stays deal 14 whatever is voided before it (issue #21).  An undone add is no deal at all.
    """
    for number, entry_id in enumerate(journal.entries, start=1):
        if entry_id == deal_id:
            return number
    raise JournalError(msg(N_("deal #{deal} is not in the session"), deal=deal_id))


def live_numbers(journal: Journal) -> list[int]:
    """The numbers of the live deals, in the session file's order (its index → the number)."""
    return [number_of(journal, e.deal_id) for e in journal.live]


def next_number(journal: Journal) -> int:
    """The number the next deal written will have."""
    return len(journal.entries) + 1


def deal_numbers(actions: list[Action]) -> dict[int, int]:
    """For each add, edit, void and restore (by ``seq``): the number its deal had on screen then.

    An added, edited or restored deal is counted as it stands after the action; a voided one
    as it stood just before (the number the player tapped).
    """
    j = Journal()
    out: dict[int, int] = {}
    for a in actions:
        entry = j.entries.get(a.deal_id) if a.deal_id is not None else None
        if a.kind == "void" and entry is not None and not entry.voided:
            out[a.seq] = number_of(j, entry.deal_id)
        j.apply(a)
        deal = a.seq if a.kind == "add" else a.deal_id
        if a.kind in ("add", "edit", "restore") and deal is not None:
            out[a.seq] = number_of(j, deal)
    return out


def replay_journal(actions: list[Action]) -> Journal:
    """The journal after ``actions`` (in ``seq`` order)."""
    j = Journal()
    for a in actions:
        j.apply(a)
    return j


@dataclass(slots=True)
class Live:
    """The last replay of a session, at ``revision``, kept for the next action: its family's
    :class:`~scorepad.scoring.family.Replaying` (the pulya writes an added deal onto it alone;
    a ledger family's session is short and is replayed whole)."""

    revision: int
    journal: Journal
    replay: Replaying
