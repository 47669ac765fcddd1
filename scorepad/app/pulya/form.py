"""The deal entry form, without any widget: what the screen offers and what a tap does.

It offers only legal choices (declarers who play, contracts from the exit level of a running
all-pass series, the whist calls of the convention speaker by speaker), keeps the tricks summing
to 10 with the last one filled in, and previews in words what the deal will write.  The Flet
view draws it; the tests drive it directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError

from ...core.i18n import N_, Msg, catalog, msg
from ...report.pulya import deal_title
from ...scoring.contract import Contract, Trump
from ...scoring.pulya import legal
from ...scoring.pulya.legal import KINDS, DealError
from ...scoring.pulya.legal import DealKind as Kind
from ...scoring.pulya.score import Scored, preview, replay
from ...scoring.pulya.session import (
    Deal,
    Game,
    Misere,
    PlayedDeal,
    Raspasy,
    deal_data,
    pydantic_problem,
)
from ...scoring.pulya.table import Table
from ...scoring.pulya.whist import Call, Whisting, shortest
from ...scoring.pulya.whist import Kind as WhistKind
from ...store import AnyStored, PulyaStored
from ..frame.family import TricksRefused

_UNDECIDED = Whisting(WhistKind.ALL_PASSED)  # calls still to come: no tricks, no open play
__all__ = ["KINDS", "DealForm", "Kind", "TricksRefused"]


@dataclass
class DealForm:
    """One deal being entered against a session as it stands (``scored``)."""

    scored: Scored
    kind: Kind = "game"
    declarer: int | None = None
    level: int | None = None
    trump: Trump | None = None
    calls: list[Call] = field(default_factory=list)
    tricks: dict[int, int] = field(default_factory=dict)
    open: bool = False

    # --- the table as it stands --------------------------------------------------------

    @property
    def table(self) -> Table:
        return self.scored.table()

    @property
    def dealer(self) -> int:
        return self.scored.next_dealer

    @property
    def leader(self) -> int:
        """Who leads the first trick: the dealer's left."""
        return self.table.active[0]

    @property
    def raspasy_in_row(self) -> int:
        return self.scored.raspasy_in_row

    @property
    def required_exit(self) -> int | None:
        return self.scored.required_exit

    # --- choices -------------------------------------------------------------------------

    def kinds(self) -> list[Kind]:
        return list(legal.kinds(self.table))

    def declarers(self) -> list[int]:
        return list(legal.declarers(self.table))

    def levels(self) -> list[int]:
        return list(legal.levels(self.table))

    def choose_kind(self, kind: Kind) -> None:
        self.kind = kind
        self.calls = []
        self._reset_tricks()

    def choose_declarer(self, seat: int) -> None:
        self.declarer = seat
        self.calls = []
        self._reset_tricks()

    def choose_level(self, level: int) -> None:
        """A level alone: the suit stays as it was (none at first), for the player to pick."""
        self.level = level
        self.calls = []
        self._reset_tricks()

    def choose_contract(self, level: int, trump: Trump) -> None:
        self.level, self.trump = level, trump
        self.calls = []
        self._reset_tricks()

    @property
    def contract(self) -> Contract | None:
        if self.level is None or self.trump is None:
            return None
        return Contract(self.level, self.trump)

    @property
    def checked_ten(self) -> bool:
        return self.contract is not None and legal.is_checked_ten(
            self.scored.settings, self.contract
        )

    def call_options(self) -> tuple[int | None, list[Call]]:
        """Who speaks next and what he may say ([] when the calls are complete)."""
        if self.kind != "game" or self.declarer is None or self.contract is None:
            return None, []
        who, options = legal.call_options(
            self.table, declarer=self.declarer, contract=self.contract, said=self.calls
        )
        return who, list(options)

    def say(self, call: str) -> None:
        options = self.call_options()[1]
        if call not in options:
            raise ValueError(f"{call!r} is not a call here; the options are {options}")
        self.calls.append(Call(call))
        self._reset_tricks()

    def undo_call(self) -> None:
        if self.calls:
            self.calls.pop()
            self._reset_tricks()

    def call_shortcuts(self) -> list[tuple[int | None, list[Call]]]:
        """The common calls in one tap each, before anybody spoke (issue #27's fewest taps):
        both defenders whist (``None``), or one whists and the other passes (his seat).

        Each is a whole sequence of calls the convention allows here, as if said speaker by
        speaker, and one that plays the game; a player still taps it: nothing is assumed.
        """
        if self.kind != "game" or self.contract is None or self.checked_ten or self.calls:
            return []
        out: list[tuple[int | None, list[Call]]] = []
        for calls in ([Call.WHIST, Call.WHIST], [Call.WHIST, Call.PASS], [Call.PASS, Call.WHIST]):
            f = replace(self, calls=[], tricks={})
            for call in calls:
                who, options = f.call_options()
                if who is None or call not in options:
                    break
                f.calls.append(call)
            else:
                outcome = f._outcome() if f.calls_complete else _UNDECIDED
                if outcome.played and len(outcome.whisters) == calls.count(Call.WHIST):
                    lone = outcome.whisters[0] if len(outcome.whisters) == 1 else None
                    out.append((lone, calls))
        return out

    def take_back_calls(self, k: int) -> None:
        """Call ``k`` and the calls after it taken back (the counts go with them)."""
        del self.calls[k:]
        self.tricks = {}

    def say_all(self, calls: list[Call]) -> None:
        """One of :meth:`call_shortcuts` tapped: its calls said, speaker by speaker."""
        if calls not in [c for _, c in self.call_shortcuts()]:
            raise ValueError(f"{calls!r} is not a shortcut here")
        for call in calls:
            self.say(call)

    def passed_out(self) -> DealForm | None:
        """This deal with every defender passing, when nothing is said yet and that is legal:
        "made, not whisted" in one tap (the screen shows its preview on the button's side)."""
        if self.kind != "game" or self.contract is None or self.checked_ten or self.calls:
            return None
        f = replace(self, calls=[], tricks={})
        while True:
            who, options = f.call_options()
            if who is None:
                break
            if Call.PASS not in options:
                return None  # a defender must whist here (Stalingrad)
            f.calls.append(Call.PASS)
        return None if f.played else f

    @property
    def calls_complete(self) -> bool:
        if self.kind != "game" or self.checked_ten:
            return True
        if self.declarer is None or self.contract is None:
            return False
        return self.call_options()[0] is None

    def _outcome(self) -> Whisting:
        """What the calls amount to; until they are complete nothing is played."""
        if self.declarer is None or self.contract is None or not self.calls_complete:
            return _UNDECIDED
        calls = None if self.checked_ten else shortest(self.calls)
        return legal.verify_calls(
            self.table, declarer=self.declarer, contract=self.contract, calls=calls
        )

    @property
    def played(self) -> bool:
        """Whether tricks are entered (a game nobody whisted, or a half-whist, is not played)."""
        return self.kind != "game" or self._outcome().played

    @property
    def lone_whister(self) -> bool:
        """One defender whists alone (he may play open, всветлую)."""
        return self.kind == "game" and self._outcome().lone_whister

    def set_open(self, value: bool) -> None:
        self.open = value and self.lone_whister

    # --- tricks: every count chosen by a player, the last one filled in ---------------------

    def trick_seats(self) -> list[int]:
        """Whose tricks are entered, the last of them filled in by the form.

        A capped seat (the 4-player dealer's talon) comes first, so it is never the filled-in
        one; a seat capped at nought is not shown and is written as nought.
        """
        t = self.table
        seats = legal.trick_seats(t, self.kind, self.declarer)
        caps = {s: legal.trick_cap(t, self.kind, s) for s in seats}
        if self.kind == "game" and self.declarer is not None:
            shown = (self.declarer, *t.defenders(self.declarer))  # the declarer's count first
            return [s for s in shown if s in seats]
        if self.kind != "raspasy":
            return list(seats)
        capped = [s for s in seats if 0 < caps[s] < 10]
        return capped + [s for s in t.active if caps[s] == 10]

    def trick_range(self, seat: int) -> tuple[int, int]:
        return 0, legal.trick_cap(self.table, self.kind, seat)

    def _reset_tricks(self) -> None:
        # No count is written that nobody chose (issue #21: an all-pass once wrote 0 / 0 / 10).
        self.tricks = {}

    @property
    def last_seat(self) -> int | None:
        """The seat the form fills in (the rest of the ten); None for a misère."""
        seats = self.trick_seats()
        if self.kind == "misere" or len(seats) < 2:
            return None
        return seats[-1]

    def _chosen_seats(self) -> list[int]:
        last = self.last_seat
        return [s for s in self.trick_seats() if s != last]

    def _fill_last(self) -> None:
        """The last seat takes the rest once every other count was chosen (never before)."""
        last = self.last_seat
        if last is None:
            return
        chosen = self._chosen_seats()
        if all(s in self.tricks for s in chosen):
            self.tricks[last] = 10 - sum(self.tricks[s] for s in chosen)
        else:
            self.tricks.pop(last, None)

    @property
    def tricks_complete(self) -> bool:
        """Whether every count is known (the player's choices, and the rest filled in)."""
        return all(s in self.tricks for s in self.trick_seats())

    def refusal(self, seat: int, n: int) -> Msg | None:
        """Why ``seat`` cannot take ``n`` tricks now ("8 is not possible: Vera has 3"), or None.

        The last seat gives way by itself: only the counts chosen by hand can refuse.
        """
        seats = self.trick_seats()
        if seat not in seats:
            return msg(N_("{player} has no tricks to enter here"), player=self._name(seat))
        low, high = self.trick_range(seat)
        if not low <= n <= high:
            return msg(
                N_("{n} is not possible: {player} takes {cap} at most"),
                n=n,
                player=self._name(seat),
                cap=high,
            )
        last = self.last_seat
        if last is None:
            return None
        if seat == last:
            return msg(N_("{player}: the rest of the ten, filled in"), player=self._name(seat))
        others = {s: self.tricks[s] for s in self._chosen_seats() if s != seat and s in self.tricks}
        rest = 10 - sum(others.values()) - n
        if rest < 0:
            blocker = max(others, key=lambda s: others[s])
            return msg(
                N_("{n} is not possible: {player} has {k}"),
                n=n,
                player=self._name(blocker),
                k=others[blocker],
            )
        if len(others) == len(self._chosen_seats()) - 1 and rest > self.trick_range(last)[1]:
            return msg(
                N_("{n} is not possible: {player} would take {k}"),
                n=n,
                player=self._name(last),
                k=rest,
            )
        return None

    def _name(self, seat: int) -> str:
        return self.scored.session.players[seat]

    def trick_choices(self, seat: int) -> list[int]:
        """The counts one tap may give ``seat`` (the others kept, the last filling up to 10)."""
        if seat == self.last_seat:
            return []  # filled in
        low, high = self.trick_range(seat)
        return [n for n in range(low, high + 1) if self.refusal(seat, n) is None]

    def set_tricks(self, seat: int, n: int) -> None:
        """One tap on the picker: ``seat`` took ``n``; raising it lowers the last seat's count.

        A count it may not take is refused with the reason (:class:`TricksRefused`).
        """
        why = self.refusal(seat, n)
        if why is not None:
            raise TricksRefused(why)
        self.tricks[seat] = n
        self._fill_last()

    def made_splits(self) -> list[tuple[int, int]]:
        """The contract made exactly, each way the defence's tricks split between the two
        defenders (in :meth:`trick_seats` order): one tap chooses all three counts."""
        if self.kind != "game" or self.contract is None or not self.calls_complete:
            return []
        if not self.played:
            return []
        seats = self.trick_seats()
        if len(seats) != 3:
            return []
        declarer, first, _ = seats
        rest = 10 - self.contract.level
        splits = []
        for n in range(rest, -1, -1):
            f = replace(self, tricks={})
            try:
                f.set_tricks(declarer, self.contract.level)
                f.set_tricks(first, n)
            except TricksRefused:
                continue
            splits.append((n, rest - n))
        return splits

    def choose_made(self, first: int) -> None:
        """A made split tapped: the declarer took his contract, the first defender ``first``."""
        if first not in [a for a, _ in self.made_splits()]:
            raise ValueError(f"{first} is not a split here")
        assert self.contract is not None
        declarer, defender, _ = self.trick_seats()
        self.tricks = {}
        self.set_tricks(declarer, self.contract.level)
        self.set_tricks(defender, first)

    @property
    def made_split(self) -> tuple[int, int] | None:
        """The made split the counts show now, if they show one."""
        splits = self.made_splits()
        if not splits or not self.tricks_complete:
            return None
        declarer, first, last = self.trick_seats()
        assert self.contract is not None
        if self.tricks[declarer] != self.contract.level:
            return None
        split = (self.tricks[first], self.tricks[last])
        return split if split in splits else None

    def step(self, seat: int, delta: int) -> None:
        """A stepper tap: ``seat``'s count changed by ``delta`` (from nought when not yet chosen),
        kept within what the others leave; the last seat takes the rest."""
        if seat == self.last_seat:
            raise ValueError("the last count is filled in")
        choices = self.trick_choices(seat)
        if not choices:
            raise ValueError(f"seat {seat} has no tricks to enter here")
        want = self.tricks.get(seat, 0) + delta
        self.set_tricks(seat, max(choices[0], min(choices[-1], want)))

    # --- the deal --------------------------------------------------------------------------

    def load(self, written: Deal | dict[str, Any]) -> None:
        """Fill the form with a written deal (to edit it)."""
        deal = written if isinstance(written, dict) else deal_data(written)
        kind = deal["type"]
        if kind not in KINDS:
            raise ValueError(f"a {kind} is not entered with this form")
        self.kind = kind
        self.declarer = deal.get("declarer")
        if kind == "game":
            contract = Contract.parse(deal["contract"])
            self.level, self.trump = contract.level, contract.trump
            self.calls = [Call(c) for c in deal.get("calls") or []]
            self.open = bool(deal.get("open", False))
            # A written deal keeps the shortest form: whoever else was asked passed.
            for _ in range(5):
                if self.checked_ten or self.calls_complete:
                    break
                self.calls.append(Call.PASS)
        self._reset_tricks()
        for seat, n in (deal.get("tricks") or {}).items():
            self.tricks[int(seat)] = n

    def deal(self) -> PlayedDeal:
        """The deal as the engine reads it, its model built from the choices (the store takes
        it; a field still unchosen or refused is pydantic's ValidationError, which names it)."""
        if self.kind == "raspasy":
            seats = legal.trick_seats(self.table, "raspasy")
            unseen = {s: 0 for s in seats if s not in self.tricks}
            return Raspasy(type="raspasy", tricks={**self.tricks, **unseen})
        if self.kind == "misere":
            return Misere(type="misere", declarer=self.declarer, tricks=dict(self.tricks))
        return Game(
            type="game",
            declarer=self.declarer,
            contract=self.contract.code if self.contract else None,
            calls=None if self.checked_ten else list(self.calls),
            open=bool(self.open and self.lone_whister),
            tricks=dict(self.tricks) if self.played else None,
        )

    def to_deal(self) -> dict[str, Any]:
        """The deal's JSON form, as its file and the store write it."""
        return deal_data(self.deal())

    def missing(self) -> Msg | None:
        """What is still to be chosen, in words (None when the deal can be confirmed)."""
        if self.kind == "misere" and self.declarer is None:
            return msg(N_("choose who plays the misère"))
        if self.kind == "game" and self.declarer is None:
            return msg(N_("choose the declarer"))
        if self.kind == "game":
            if self.contract is None:
                return msg(N_("choose the contract"))
            if not self.calls_complete:
                who, _ = self.call_options()
                return msg(
                    N_("{player}: whist or pass?"), player=self.scored.session.players[who or 0]
                )
        if self.played:
            for seat in self.trick_seats():
                if seat not in self.tricks and seat != self.last_seat:
                    return msg(N_("{player}: how many tricks?"), player=self._name(seat))
        return None

    def preview(self, lang: str = "en") -> tuple[list[str], str | None]:
        """The sentences the deal will write, or the reason it cannot be written yet."""
        cat = catalog(lang)
        missing = self.missing()
        if missing is not None:
            return [], cat.render(missing)
        try:
            deal = self.deal()
        except ValidationError as exc:
            return [], pydantic_problem(exc.errors()[0]).render(lang)
        try:
            w = preview(self.scored, deal)
        except DealError as exc:
            return (
                [],
                f"{exc.field}: {exc.message.render(lang)}"
                if exc.field
                else exc.message.render(lang),
            )
        # The contract first: the explanation alone can miss it (a deal that only helps a
        # closed pulya explains only the help).
        title = deal_title(deal, list(self.scored.session.players))
        return [cat.render(title), *(cat.render(m) for m in w.explain or ())], None


# --- the pulya's part of the app (registered in app/pulya/__init__.py, frame/family.py) ------


def _pulya(stored: AnyStored) -> PulyaStored:
    """The view as the pulya's: the registry (frame/family.py) hands a family's part its own."""
    return stored


def new_form(stored: AnyStored) -> DealForm:
    return DealForm(_pulya(stored).scored)


def edit_form(stored: AnyStored, index: int) -> DealForm:
    """Live deal ``index`` as written, on the sheet of the deals before it."""
    pulka = _pulya(stored)
    before = pulka.session.model_copy(update={"deals": pulka.session.deals[:index]})
    form = DealForm(replay(before, pulka.settings))
    form.load(pulka.journal.live[index].deal)
    return form


def carry_stored(old: Any, stored: AnyStored) -> DealForm:
    return carry(old, _pulya(stored).scored) if isinstance(old, DealForm) else new_form(stored)


def carry_edit(old: Any, fresh: Any) -> DealForm:
    """An edit rebased: the player's choices carried onto the deal as written anew."""
    assert isinstance(fresh, DealForm)
    return carry(old, fresh.scored, start=fresh) if isinstance(old, DealForm) else fresh


def touched(form: Any) -> bool:
    return isinstance(form, DealForm) and dirty(form)


def explained(stored: AnyStored) -> list[tuple[int, list[Msg]]]:
    return [(d.index, list(d.writing.explain or ())) for d in _pulya(stored).scored.deals]


def dirty(form: DealForm) -> bool:
    """Whether the player has chosen anything yet."""
    return form.kind != "game" or form.declarer is not None


def carry(old: DealForm, scored: Scored, *, start: DealForm | None = None) -> DealForm:
    """A form on ``scored`` with ``old``'s choices, each kept only while it is still legal."""
    f = start if start is not None else DealForm(scored)
    if old.kind not in f.kinds():
        return f
    f.choose_kind(old.kind)
    if old.kind != "raspasy":
        if old.declarer is None or old.declarer not in f.declarers():
            return f
        f.choose_declarer(old.declarer)
    if old.kind == "game":
        if old.level is None or old.trump is None or old.level not in f.levels():
            return f
        f.choose_contract(old.level, old.trump)
        for call in old.calls:
            if call not in f.call_options()[1]:
                break
            f.say(call)
        f.set_open(old.open)
    if f.trick_seats() == old.trick_seats():
        for seat in f.trick_seats():
            if seat == f.last_seat or seat not in old.tricks:
                continue  # only the counts the player chose; the rest is filled in again
            try:
                f.set_tricks(seat, old.tricks[seat])
            except ValueError:
                break
    return f
