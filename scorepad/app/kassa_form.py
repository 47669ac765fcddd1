"""The Prefa deal form, without any widget: the declarer, the contract (6♠ … 10♥), each
defender's call (whist, pass, or invite the passer in) and the tricks of the players in play.

As for the bula form, every option offered is one some completion of the deal passes
:meth:`KassaTable.verify` with (a trial on the game as it stands); the preview is the engine's
explanation of a trial write on a copy of the table.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import TypeAdapter, ValidationError

from ..contract import Contract, Trump
from ..i18n import N_, Msg, catalog, msg
from ..scoring.families import FamilyScored, replay_family
from ..scoring.kassa import KassaDeal, KassaError, KassaTable
from ..scoring.ledger import Posting, explanations
from ..scoring.session import pydantic_problem
from ..scoring.table import contract_name
from .bula_form import completes, deal_dict, trick_options, tricks_json

Call = Literal["whist", "pass", "invite"]
CALLS: tuple[Call, ...] = ("whist", "pass", "invite")
LEVELS = (6, 7, 8, 9, 10)
_DEAL: TypeAdapter[Any] = TypeAdapter(KassaDeal)


def parse_deal(data: dict[str, Any]) -> Any:
    return _DEAL.validate_python(data)


@dataclass
class KassaForm:
    """One Prefa deal being entered against the game as it stands (``scored``)."""

    scored: FamilyScored
    declarer: int | None = None
    contract: Contract | None = None
    calls: dict[int, Call] = field(default_factory=dict)
    tricks: dict[int, int] = field(default_factory=dict)

    @property
    def table(self) -> KassaTable:
        t = self.scored.table
        assert isinstance(t, KassaTable)
        return t

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.scored.session.players)

    @property
    def number(self) -> int:
        return len(self.scored.deals) + 1

    @property
    def finished(self) -> bool:
        return self.table.finished

    def defenders(self) -> list[int]:
        """The two others in turn order: the declarer's right first, then his left."""
        if self.declarer is None:
            return []
        return [self.table.right(self.declarer), self.table.right(self.table.right(self.declarer))]

    # --- trials ----------------------------------------------------------------------------

    def _accepts(self, deal: dict[str, Any]) -> bool:
        try:
            self.table.verify(parse_deal(deal))
        except (ValidationError, KassaError):
            return False
        return True

    def _game(
        self,
        defence: dict[int, str],
        tricks: dict[int, int] | None,
        contract: Contract | None = None,
    ) -> dict[str, Any]:
        c = contract or self.contract
        deal: dict[str, Any] = {
            "type": "game",
            "declarer": self.declarer,
            "contract": c.code if c else None,
            "defence": {str(s): r for s, r in defence.items()},
        }
        if tricks is not None:
            deal["tricks"] = tricks_json(tricks)
        return deal

    def _fits(self, seat: int, role: str) -> bool:
        said = self.calls.get(seat)
        return said is None or role == said or (said == "pass" and role == "invited")

    def _defences(self) -> Iterator[dict[int, str]]:
        a, b = self.defenders()
        for x, y in (
            ("whist", "whist"),
            ("whist", "pass"),
            ("pass", "whist"),
            ("pass", "pass"),
            ("invite", "invited"),
            ("invited", "invite"),
        ):
            if self._fits(a, x) and self._fits(b, y):
                yield {a: x, b: y}

    def _completions(self) -> Iterator[dict[str, Any]]:
        if self.declarer is None:
            return
        contracts = [self.contract] if self.contract else [*_ALL]
        for c in contracts:
            for defence in self._defences():
                yield self._game(defence, None, c)
                seats = [self.declarer, *(s for s, r in defence.items() if r != "pass")]
                yield self._game(defence, {s: (10 if s == self.declarer else 0) for s in seats}, c)

    def _with(self, **changes: Any) -> bool:
        keep = {k: copy.copy(getattr(self, k)) for k in changes}
        try:
            for k, v in changes.items():
                setattr(self, k, v)
            return any(self._accepts(d) for d in self._completions())
        finally:
            for k, v in keep.items():
                setattr(self, k, v)

    # --- choices ---------------------------------------------------------------------------

    def declarers(self) -> list[int]:
        if self.finished:
            return []
        return [s for s in range(self.table.n) if self._with(declarer=s, contract=None, calls={})]

    def levels(self) -> list[int]:
        return sorted({c.level for c in self.contracts()})

    def contracts(self, level: int | None = None) -> list[Contract]:
        """The contracts the declarer may play (of ``level``, if given): 6♠ … 10♥, no 10NT."""
        if self.declarer is None:
            return []
        return [
            c
            for c in _ALL
            if (level is None or c.level == level) and self._with(contract=c, calls={})
        ]

    def call_options(self, seat: int) -> list[Call]:
        if self.contract is None or seat not in self.defenders():
            return []
        other = next(s for s in self.defenders() if s != seat)
        kept = {other: self.calls[other]} if other in self.calls else {}
        return [c for c in CALLS if self._with(calls=kept | {seat: c})]

    @property
    def defence_complete(self) -> bool:
        return self.contract is not None and all(s in self.calls for s in self.defenders())

    def defence(self) -> dict[int, str]:
        out: dict[int, str] = dict(self.calls)
        for s, c in self.calls.items():
            if c == "invite":
                for o in self.defenders():
                    if o != s:
                        out[o] = "invited"
        return out

    def choose_declarer(self, seat: int) -> None:
        self.declarer = seat
        self._rebase()

    def choose_contract(self, contract: Contract) -> None:
        self.contract = contract
        self._rebase()

    def say(self, seat: int, call: Call) -> None:
        if call not in self.call_options(seat):
            raise ValueError(f"{call!r} is not a call for seat {seat} here")
        self.calls[seat] = call
        if call == "invite":
            for o in self.defenders():
                if o != seat:
                    self.calls[o] = "pass"
        self._rebase()

    def _rebase(self) -> None:
        if self.declarer is not None and self.declarer not in self.declarers():
            self.declarer = None
        if self.declarer is None:
            self.contract = None
        if self.contract is not None and self.contract not in self.contracts():
            self.contract = None
        calls, self.calls = dict(self.calls), {}
        if self.contract is not None:
            for seat in self.defenders():
                c = calls.get(seat)
                if c is not None and c in self.call_options(seat):
                    self.calls[seat] = c
            if "invite" in self.calls.values() and len(self.calls) < 2:
                self.calls = {}
        self._reset_tricks()

    # --- tricks ------------------------------------------------------------------------------

    def trick_seats(self) -> list[int]:
        """The declarer and the defenders in play (the last filled in); none when both pass."""
        if not self.defence_complete or self.declarer is None:
            return []
        roles = self.defence()
        if self._accepts(self._game(roles, None)):
            return []
        return [self.declarer, *(s for s in self.defenders() if roles[s] != "pass")]

    def _trick_accepts(self, tricks: dict[int, int]) -> bool:
        return self._accepts(self._game(self.defence(), tricks))

    def _reset_tricks(self) -> None:
        seats = self.trick_seats()
        if not seats:
            self.tricks = {}
            return
        kept = {s: self.tricks.get(s, 0) for s in seats}
        if self.declarer not in self.tricks and self.contract is not None:
            kept[seats[0]] = self.contract.level  # the usual count: the contract made
        found = completes(seats, {}, seats[:-1], kept, self._trick_accepts)
        self.tricks = found if found is not None else kept

    def trick_choices(self, seat: int) -> list[int]:
        seats = self.trick_seats()
        if seat not in seats[:-1]:
            return []
        return trick_options(seats, self.tricks, seat, self._trick_accepts)

    def set_tricks(self, seat: int, n: int) -> None:
        if n not in self.trick_choices(seat):
            raise ValueError(f"seat {seat} cannot take {n} tricks here")
        seats = self.trick_seats()
        i = seats.index(seat)
        base = {s: self.tricks.get(s, 0) for s in seats[:i]} | {seat: n}
        found = completes(seats, base, seats[i + 1 : -1], self.tricks, self._trick_accepts)
        assert found is not None
        self.tricks = found

    # --- the deal --------------------------------------------------------------------------

    def to_deal(self) -> dict[str, Any]:
        return self._game(self.defence(), self.tricks if self.trick_seats() else None)

    def load(self, written: Any) -> None:
        deal = deal_dict(written)
        self.declarer = deal.get("declarer")
        self.contract = Contract.parse(deal["contract"])
        roles = {int(s): r for s, r in (deal.get("defence") or {}).items()}
        self.calls = {s: ("pass" if r == "invited" else r) for s, r in roles.items()}
        written_tricks = {int(s): n for s, n in (deal.get("tricks") or {}).items()}
        self.tricks = dict(written_tricks)
        self._rebase()
        if written_tricks and self._trick_accepts(written_tricks):
            self.tricks = written_tricks

    def missing(self) -> Msg | None:
        if self.finished:
            return msg(N_("every kassa is empty: the game is over, no deal can follow"))
        if self.declarer is None:
            return msg(N_("choose the declarer"))
        if self.contract is None:
            return msg(N_("choose the contract"))
        for s in self.defenders():
            if s not in self.calls:
                return msg(N_("{player}: whist or pass?"), player=self.names[s])
        return None

    def trial(self) -> tuple[list[Posting], None] | tuple[None, Msg]:
        missing = self.missing()
        if missing is not None:
            return None, missing
        try:
            model = parse_deal(self.to_deal())
        except ValidationError as exc:
            p = pydantic_problem(exc.errors()[0])
            return None, p.message
        try:
            return copy.deepcopy(self.table).play(model), None
        except KassaError as exc:
            if exc.field:
                return None, msg("{field}: {message}", field=exc.field, message=exc.message)
            return None, exc.message

    def preview(self, lang: str = "en") -> tuple[list[str], str | None]:
        cat = catalog(lang)
        postings, problem = self.trial()
        if postings is None:
            assert problem is not None
            return [], cat.render(problem)
        head = title(parse_deal(self.to_deal()), self.names)
        return [cat.render(head), *(cat.render(m) for m in explanations(postings))], None


_ALL = [
    Contract(level, trump)
    for level in LEVELS
    for trump in Trump
    if not (level == 10 and trump is Trump.NO_TRUMP)
]


def title(deal: Any, players: Sequence[str]) -> Msg:
    """One line naming a written Prefa deal: ``Ana: 7♥, both pass`` / ``Ana: 6♠``."""
    d = deal_dict(deal)
    who = players[d["declarer"]]
    c = contract_name(Contract.parse(d["contract"]))
    roles = list((d.get("defence") or {}).values())
    if roles and all(r == "pass" for r in roles):
        return msg(N_("{player}: {contract}, both pass"), player=who, contract=c)
    if "invite" in roles:
        return msg(N_("{player}: {contract}, invited"), player=who, contract=c)
    return msg(N_("{player}: {contract}"), player=who, contract=c)


def new_form(stored: Any) -> KassaForm:
    f = KassaForm(stored.scored)
    f._rebase()
    return f


def edit_form(stored: Any, index: int) -> KassaForm:
    session = stored.session
    before = session.model_copy(update={"deals": session.deals[:index]})
    f = KassaForm(replay_family(before))
    f.load(stored.journal.live[index].deal)
    return f


def carry(old: KassaForm, stored: Any) -> KassaForm:
    f = KassaForm(
        stored.scored,
        declarer=old.declarer,
        contract=old.contract,
        calls=dict(old.calls),
        tricks=dict(old.tricks),
    )
    written = dict(old.tricks)
    f._rebase()
    if written and f.trick_seats() and f._trick_accepts(written):
        f.tricks = written
    return f
