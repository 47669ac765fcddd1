"""What the bula and Prefa deal forms share, without any widget: the defence (each defender's
call, an invitation bringing the passer in), the tricks as counted when play stopped, the trial
write and its preview, and loading or carrying a deal.

Every choice is still checked by the family's engine: a candidate deal passes the table's
``verify`` (a trial, never a second copy of the rules) and the preview is its ``play`` on a copy
of the table.  Each family's form (``bula/form.py``, ``kassa/form.py``) keeps its own fields, its deal's
shape and what a player chooses before the defence.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, Self, TypeVar

from pydantic import BaseModel, ValidationError

from ...core.i18n import N_, Msg, catalog, msg
from ...scoring.ledger.bula import BulaError, BulaTable
from ...scoring.ledger.families import (
    AnyFamilyDeal,
    FamilyScored,
    replay_family,
    session_before,
)
from ...scoring.ledger.kassa import KassaError, KassaTable
from ...scoring.ledger.ledger import Posting, explanations
from ...scoring.pulya.session import Problem, pydantic_problem
from ...store import AnyStored
from ..frame.family import TricksRefused

C = TypeVar("C", bound=str)  # a defender's call in the family's words
T = TypeVar("T", BulaTable, KassaTable)  # the family's table
D = TypeVar("D", bound=BaseModel)  # one of the family's deal models


def built(make: Callable[..., D], *args: Any) -> D | None:
    """The deal ``make(*args)`` builds, or None when a choice it needs is not made yet or is
    refused by the model (a trial: the deal the player writes says why, ``FamilyForm.deal``)."""
    try:
        return make(*args)
    except ValidationError:
        return None


def deal_dict(deal: Any) -> dict[str, Any]:
    """A written deal (model or JSON form) as its JSON form."""
    if isinstance(deal, dict):
        return deal
    out: dict[str, Any] = deal.model_dump(mode="json", exclude_none=True)
    return out


def tricks_json(tricks: dict[int, int]) -> dict[str, int]:
    return {str(s): n for s, n in tricks.items()}


def fill_last(
    tricks: dict[int, int], last: int, accepts: Callable[[dict[int, int]], bool]
) -> dict[int, int]:
    """The tricks with the last seat filled in: the rest of 10 if the engine accepts it, else the
    most it accepts (play stopped early: the defence reached its cap)."""
    rest = 10 - sum(n for s, n in tricks.items() if s != last)
    for n in range(max(rest, 0), -1, -1):
        trial = tricks | {last: n}
        if accepts(trial):
            return trial
    return tricks | {last: max(rest, 0)}


def completes(
    seats: Sequence[int],
    base: dict[int, int],
    later: list[int],
    current: dict[int, int],
    accepts: Callable[[dict[int, int]], bool],
) -> dict[int, int] | None:
    """Counts for the ``later`` seats (their current ones first, then nought, then any) with which
    the deal, the last seat filled in, is accepted; None if there are none."""
    if not later:
        trial = fill_last(base, seats[-1], accepts)
        return trial if accepts(trial) else None
    seat, rest = later[0], later[1:]
    tried: list[int] = []
    for n in (current.get(seat, 0), 0, *range(11)):
        if n in tried:
            continue
        tried.append(n)
        found = completes(seats, base | {seat: n}, rest, current, accepts)
        if found is not None:
            return found
    return None


def why_not(
    names: Sequence[str],
    seats: Sequence[int],
    fixed: dict[int, int],
    seat: int,
    n: int,
    choices: Sequence[int],
) -> Msg | None:
    """Why ``seat`` cannot take ``n`` tricks (the pulya's sentences: "8 is not possible: Anna has
    3"), or None when he can.  ``fixed``: the counts of the other seats that a tap keeps; the last
    seat of several is filled in, so it gives way by itself."""
    if n in choices:
        return None
    if len(seats) > 1 and seat == seats[-1]:
        return msg(N_("{player}: the rest of the ten, filled in"), player=names[seat])
    if fixed and sum(fixed.values()) + n > 10:
        blocker = max(fixed, key=lambda s: fixed[s])
        return msg(
            N_("{n} is not possible: {player} has {k}"),
            n=n,
            player=names[blocker],
            k=fixed[blocker],
        )
    if len(seats) > 1 and (not choices or n < min(choices)):
        last = seats[-1]
        return msg(
            N_("{n} is not possible: {player} would take {k}"),
            n=n,
            player=names[last],
            k=10 - sum(fixed.values()) - n,
        )
    return msg(
        N_("{n} is not possible: {player} takes {cap} at most"),
        n=n,
        player=names[seat],
        cap=max(choices, default=0),
    )


class FamilyForm(Generic[C, T]):
    """The shared part of a bula or Prefa deal form (each is a dataclass declaring the fields
    below and filling in the hooks at the end)."""

    scored: FamilyScored
    declarer: int | None
    calls: dict[int, C]
    tricks: dict[int, int]

    # Set by each family: its calls (the first one is joining the defence), its table, and the
    # engine's refusal.
    call_words: tuple[C, ...]
    table_kind: type[T]
    refusal: type[BulaError] | type[KassaError]

    # --- the game as it stands -----------------------------------------------------------

    @property
    def table(self) -> T:
        t = self.scored.table
        assert isinstance(t, self.table_kind)
        return t

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.scored.session.players)

    @property
    def number(self) -> int:
        """The next deal's number as said at the table (a voided deal keeps its number)."""
        return self.scored.next_number

    @property
    def finished(self) -> bool:
        return self.table.finished

    # --- trials ----------------------------------------------------------------------------

    def _accepts(self, deal: AnyFamilyDeal | None) -> bool:
        """Whether the engine takes ``deal`` (None: one that could not be built)."""
        if deal is None:
            return False
        try:
            self.table.verify(deal)
        except (ValidationError, self.refusal):
            return False
        return True

    def _defences(self) -> Iterator[dict[int, str]]:
        """Every defence with the calls chosen so far (an invite brings the other in)."""
        if len(self.defenders()) != 2:
            return  # the dealer sitting out declares nothing (four players)
        a, b = self.defenders()
        join: str = self.call_words[0]
        shapes = [
            (join, join),
            (join, "pass"),
            ("pass", join),
            ("pass", "pass"),
            ("invite", "invited"),
            ("invited", "invite"),
        ]
        if "counter" in self.call_words:  # the invited one's answer (Prefa, G-Q1)
            shapes += [("invite", "counter"), ("counter", "invite")]
        for x, y in shapes:
            if self._fits(a, x) and self._fits(b, y):
                yield {a: x, b: y}

    def _fits(self, seat: int, role: str) -> bool:
        said = self.calls.get(seat)
        return said is None or role == said or (said == "pass" and role == "invited")

    def _with(self, **changes: Any) -> bool:
        """Whether some completion passes with ``changes`` made (the form is left as it was)."""
        keep = {k: copy.copy(getattr(self, k)) for k in changes}
        try:
            for k, v in changes.items():
                setattr(self, k, v)
            return self._possible()
        finally:
            for k, v in keep.items():
                setattr(self, k, v)

    def _possible(self) -> bool:
        return any(self._accepts(d) for d in self._completions())

    # --- the defence -------------------------------------------------------------------------

    def call_options(self, seat: int) -> list[C]:
        """What defender ``seat`` may say, the other's call as chosen (invite: he calls the
        other, who passed, into play)."""
        if not self._contract_chosen() or seat not in self.defenders():
            return []
        other = next(s for s in self.defenders() if s != seat)
        kept = {other: self.calls[other]} if other in self.calls else {}
        return [
            c for c in self.call_words if self._with(calls=kept | {seat: c}, **self._after_calls())
        ]

    @property
    def defence_complete(self) -> bool:
        return self._contract_chosen() and all(s in self.calls for s in self.defenders())

    def defence(self) -> dict[int, str]:
        """Each defender's role as the deal writes it (the passer called in is ``invited``)."""
        out: dict[int, str] = dict(self.calls)
        for s, c in self.calls.items():
            if c == "invite":
                for o in self.defenders():
                    if o != s and self.calls.get(o) != "counter":
                        out[o] = "invited"
        return out

    def say(self, seat: int, call: C) -> None:
        if call not in self.call_options(seat):
            raise ValueError(f"{call!r} is not a call for seat {seat} here")
        self.calls[seat] = call
        if call == "invite":  # the other passed and is called in
            for o in self.defenders():
                if o != seat:
                    self.calls[o] = "pass"  # type: ignore[assignment]  # every family's pass
        self._rebase()

    def unsay(self, seat: int) -> None:
        """Take back ``seat``'s call (an invitation with the pass it called in)."""
        if self.defence().get(seat) in ("invite", "invited"):
            self.calls = {}
        else:
            self.calls.pop(seat, None)
        self._rebase()

    def choose_declarer(self, seat: int) -> None:
        self.declarer = seat
        self._rebase()

    def _rebase_calls(self) -> None:
        """Keep each defender's call while it is still legal."""
        calls, self.calls = dict(self.calls), {}
        if self._contract_chosen():
            # The inviter first: the other's answer (pass, or Prefa's counter-invitation) is
            # checked against the invitation it answers.
            for seat in sorted(self.defenders(), key=lambda s: calls.get(s) != "invite"):
                c = calls.get(seat)
                if c is not None and c in self.call_options(seat):
                    self.calls[seat] = c
            self.calls = {s: self.calls[s] for s in self.defenders() if s in self.calls}
            # An invitation stands only with its passer.
            if "invite" in self.calls.values() and len(self.calls) < 2:
                self.calls = {}

    # --- tricks -------------------------------------------------------------------------------

    def _reset_tricks(self) -> None:
        # No count is written that nobody chose (issue #21): each is tapped, the last seat of
        # several filled in once the others are.  An earlier choice changed: the counts go.
        self.tricks = {}

    def _picked_seats(self) -> list[int]:
        """The seats whose counts are tapped (all but the last of several, filled in)."""
        seats = self.trick_seats()
        return seats[:-1] if len(seats) > 1 else seats

    @property
    def tricks_complete(self) -> bool:
        """Whether every count is known (the players' taps, and the rest filled in)."""
        return all(s in self.tricks for s in self.trick_seats())

    def _kept(self, seat: int) -> dict[int, int]:
        """The counts chosen for the other tapped seats (a tap keeps them)."""
        return {s: self.tricks[s] for s in self._picked_seats() if s != seat and s in self.tricks}

    def trick_choices(self, seat: int) -> list[int]:
        """The counts one tap may give ``seat``: the other chosen counts kept, those not chosen
        yet free, the last seat filled in, the engine accepting some such deal."""
        seats = self.trick_seats()
        picked = self._picked_seats()
        if seat not in picked:
            return []
        kept = self._kept(seat)
        free = [s for s in picked if s != seat and s not in self.tricks]
        out = []
        for n in range(11):
            base = kept | {seat: n}
            if len(seats) == 1:
                ok = self._trick_accepts(base)
            else:
                ok = completes(seats, base, free, {}, self._trick_accepts) is not None
            if ok:
                out.append(n)
        return out

    def trick_refusal(self, seat: int, n: int) -> Msg | None:
        """Why ``seat`` cannot take ``n`` tricks now, or None: the other chosen counts are kept
        (the last is filled in)."""
        seats = self.trick_seats()
        if seat not in seats:
            return msg(N_("{player} has no tricks to enter here"), player=self.names[seat])
        return why_not(self.names, seats, self._kept(seat), seat, n, self.trick_choices(seat))

    def set_tricks(self, seat: int, n: int) -> None:
        """One tap: ``seat`` took ``n``; the other chosen counts stay, the last seat is filled in
        once every other count is chosen (a count that cannot be is refused with why:
        TricksRefused)."""
        why = self.trick_refusal(seat, n)
        if why is not None:
            raise TricksRefused(why)
        self.tricks[seat] = n
        self._fill_last()

    def _fill_last(self) -> None:
        """The last seat takes the rest once every other count was chosen (never before)."""
        seats = self.trick_seats()
        if len(seats) < 2:
            return
        picked = seats[:-1]
        if all(s in self.tricks for s in picked):
            chosen = {s: self.tricks[s] for s in picked}
            self.tricks = fill_last(chosen, seats[-1], self._trick_accepts)
        else:
            self.tricks = {s: self.tricks[s] for s in picked if s in self.tricks}

    # --- the deal ------------------------------------------------------------------------------

    def load(self, written: Any) -> None:
        """Fill the form with a written deal (to edit it)."""
        deal = deal_dict(written)
        roles = {int(s): r for s, r in (deal.get("defence") or {}).items()}
        self.declarer = deal.get("declarer")
        self.calls = {s: ("pass" if r == "invited" else r) for s, r in roles.items()}
        self._load(deal, roles)
        written_tricks = {int(s): n for s, n in (deal.get("tricks") or {}).items()}
        self.tricks = dict(written_tricks)
        self._rebase()
        if written_tricks and self._trick_accepts(written_tricks):
            self.tricks = written_tricks

    def trial(self) -> tuple[list[Posting], None] | tuple[None, Msg]:
        """The postings the deal would write (on a copy of the table), or why it cannot be."""
        missing = self.missing()
        if missing is not None:
            return None, missing
        try:
            model = self.deal()
        except ValidationError as exc:
            # The field in the player's words, never its name in the file (issue 38 item 10).
            return None, pydantic_problem(exc.errors()[0]).said()
        try:
            return copy.deepcopy(self.table).play(model), None
        except self.refusal as exc:
            return None, Problem(None, exc.field, exc.message).said()

    def preview(self, lang: str = "en") -> tuple[list[str], str | None]:
        """The sentences the deal will write (its title first), or why it cannot be written yet."""
        cat = catalog(lang)
        postings, problem = self.trial()
        if postings is None:
            assert problem is not None
            return [], cat.render(problem)
        lines = [cat.render(self._title(self.deal()))]
        lines += [cat.render(m) for m in explanations(postings)]
        return lines, None

    # --- a form for a deal to come, for a deal to edit, and one carried to a newer game ---------

    @classmethod
    def new(cls, stored: Any) -> Self:
        f = cls(stored.scored)
        f._rebase()
        return f

    @classmethod
    def edit(cls, stored: Any, index: int) -> Self:
        """A form holding live deal ``index`` as written, in the context of the deals before it."""
        f = cls(replay_family(session_before(stored.session, index)))
        f.load(stored.journal.live[index].deal)
        return f

    def touched(self) -> bool:
        """Whether the player has chosen anything: an untouched form follows the table to the
        next deal when another device writes (issue 21 item 12), as the pulya's and the pot's."""
        fresh = type(self)(self.scored)
        fresh._rebase()
        return any(
            getattr(self, f.name) != getattr(fresh, f.name)
            for f in dataclasses.fields(self)
            if f.name != "scored"
        )

    def carried(self, stored: Any) -> Self:
        """These choices rebased on the newer state, where they are still legal."""
        f = copy.copy(self)
        f.scored = stored.scored
        f.calls = dict(self.calls)
        f.tricks = dict(self.tricks)
        written = dict(self.tricks)
        f._rebase()
        if written and f.trick_seats() and f._trick_accepts(written):
            f.tricks = written
        return f

    # --- each family's own ------------------------------------------------------------------

    def deal(self) -> AnyFamilyDeal:
        """The deal as the engine reads it, its model built from the choices (the store takes
        it; a choice still missing or refused is pydantic's ValidationError, naming the field)."""
        raise NotImplementedError

    def to_deal(self) -> dict[str, Any]:
        """The deal's JSON form (``deal``'s, as written)."""
        return deal_dict(self.deal())

    def _title(self, deal: Any) -> Msg:
        raise NotImplementedError

    def defenders(self) -> list[int]:
        raise NotImplementedError

    def declarers(self) -> list[int]:
        raise NotImplementedError

    def _contract_chosen(self) -> bool:
        """The declarer's bid or contract is chosen: the defenders speak."""
        raise NotImplementedError

    def _after_calls(self) -> dict[str, Any]:
        """The choices a call's trial leaves open (they come after the defence)."""
        return {}

    def _completions(self) -> Iterator[AnyFamilyDeal | None]:
        """Complete deals with every choice made so far (None: one the model refuses)."""
        raise NotImplementedError

    def _rebase(self) -> None:
        raise NotImplementedError

    def trick_seats(self) -> list[int]:
        raise NotImplementedError

    def _trick_accepts(self, tricks: dict[int, int]) -> bool:
        raise NotImplementedError

    def _load(self, deal: dict[str, Any], roles: dict[int, str]) -> None:
        """The family's own fields from a written deal (declarer, calls and tricks are done)."""
        raise NotImplementedError

    def missing(self) -> Msg | None:
        """What is still to be chosen, in words (None when the deal can be written): the
        family's choices, then the first count not yet tapped (the pulya's sentence)."""
        missing = self.choice_missing()
        if missing is not None:
            return missing
        for seat in self.trick_seats():
            if seat not in self.tricks:
                return msg(N_("{player}: how many tricks?"), player=self.names[seat])
        return None

    def choice_missing(self) -> Msg | None:
        """What is still to be chosen before the counts (None when only they may be missing)."""
        raise NotImplementedError


def explained(stored: AnyStored) -> list[tuple[int, list[Msg]]]:
    """Each live deal's index and its sentences: a ledger family's postings, explained."""
    return [(d.index, explanations(d.postings)) for d in stored.scored.deals]
