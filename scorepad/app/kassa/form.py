"""The Prefa deal form, without any widget: the declarer, the contract (6♠ … 10♥), each
defender's call (whist, pass, or invite the passer in, who may answer with a counter-invitation
where the convention plays it), who held four aces where they are paid (G-Q1) and the tricks of
the players in play.

As for the bula form, every option offered is one some completion of the deal passes
:meth:`KassaTable.verify` with (a trial on the game as it stands); the preview is the engine's
explanation of a trial write on a copy of the table.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ...core.i18n import N_, Msg, msg
from ...scoring.contract import Contract, Trump
from ...scoring.ledger.families import FamilyScored
from ...scoring.ledger.kassa import KassaError, KassaGame, KassaRedeal, KassaTable
from ...scoring.ledger.seats import dealt_in
from ...scoring.pulya.table import contract_name
from ..families.form import FamilyForm, built, deal_dict, tricks_json

# ``counter``: the invited player's answer to an invitation (G-Q1, ``counter_invitation``).
Call = Literal["whist", "pass", "invite", "counter"]
CALLS: tuple[Call, ...] = ("whist", "pass", "invite", "counter")
LEVELS = (6, 7, 8, 9, 10)


@dataclass
class KassaForm(FamilyForm[Call, KassaTable]):
    """One Prefa deal being entered against the game as it stands (``scored``)."""

    scored: FamilyScored
    declarer: int | None = None
    contract: Contract | None = None
    calls: dict[int, Call] = field(default_factory=dict)
    tricks: dict[int, int] = field(default_factory=dict)
    four_aces: int | None = None  # who held them, where the convention pays them (G-Q1)
    # All passed: the cards are redealt (§7.1).  Nothing is scored, but the deal passes on: with
    # four players it decides who sits out next (issue 38 item 4).
    redeal: bool = False

    call_words = CALLS
    table_kind = KassaTable
    refusal = KassaError

    def _title(self, deal: Any) -> Msg:
        return title(deal, self.names)

    def _contract_chosen(self) -> bool:
        return self.contract is not None

    def defenders(self) -> list[int]:
        """The two others in turn order: the declarer's right first, then his left."""
        if self.declarer not in dealt_in(self.table.n, self.table.dealer):
            return []  # none chosen, or the dealer sitting out (four players, §7.1)
        return [self.table.right(self.declarer), self.table.right(self.table.right(self.declarer))]

    # --- trials ----------------------------------------------------------------------------

    def _game(
        self,
        defence: dict[int, str],
        tricks: dict[int, int] | None,
        contract: Contract | None = None,
    ) -> KassaGame:
        """The game with these choices (a ValidationError while one it needs is not made)."""
        c = contract or self.contract
        return KassaGame(
            type="game",
            declarer=self.declarer,
            contract=c.code if c else None,
            defence={str(s): r for s, r in defence.items()},
            tricks=None if tricks is None else tricks_json(tricks),
            four_aces=self.four_aces,
        )

    def _possible(self) -> bool:
        if self.redeal:
            return self._accepts(KassaRedeal(type="redeal"))
        return super()._possible()

    def _completions(self) -> Iterator[KassaGame | None]:
        if self.declarer is None:
            return
        contracts = [self.contract] if self.contract else [*_ALL]
        for c in contracts:
            for defence in self._defences():
                yield built(self._game, defence, None, c)
                seats = [self.declarer, *(s for s, r in defence.items() if r != "pass")]
                made = {s: (10 if s == self.declarer else 0) for s in seats}
                yield built(self._game, defence, made, c)

    # --- choices ---------------------------------------------------------------------------

    def declarers(self) -> list[int]:
        if self.finished:
            return []
        return [
            s
            for s in range(self.table.n)
            if self._with(declarer=s, contract=None, calls={}, redeal=False)
        ]

    def may_redeal(self) -> bool:
        """Whether an all-pass redeal may be written now (not after the end)."""
        return not self.finished and self._with(redeal=True)

    def choose_redeal(self) -> None:
        """All passed: the cards are redealt (the declarer and his contract are let go)."""
        if not self.may_redeal():
            raise ValueError("no redeal here")
        self.redeal, self.declarer, self.contract, self.four_aces = True, None, None, None
        self.calls, self.tricks = {}, {}

    def choose_declarer(self, seat: int) -> None:
        self.redeal = False
        super().choose_declarer(seat)

    def levels(self) -> list[int]:
        return sorted({c.level for c in self.contracts()})

    def contracts(self, level: int | None = None) -> list[Contract]:
        """The contracts the declarer may play (of ``level``, if given): 6♠ … 10♥ (10NT where the
        convention plays it)."""
        if self.declarer is None:
            return []
        return [
            c
            for c in _ALL
            if (level is None or c.level == level) and self._with(contract=c, calls={})
        ]

    def choose_contract(self, contract: Contract) -> None:
        self.contract = contract
        self._rebase()

    def call_options(self, seat: int) -> list[Call]:
        """As for every family; a counter-invitation only answers the other's invitation."""
        other = [s for s in self.defenders() if s != seat]
        invited = bool(other) and self.calls.get(other[0]) == "invite"
        return [c for c in super().call_options(seat) if c != "counter" or invited]

    def four_aces_options(self) -> list[int]:
        """Who may have held four aces: none unless the convention pays them (G-Q1); the
        players dealt in (the dealer sitting out holds no cards)."""
        if self.table.settings.four_aces == "off" or self.contract is None:
            return []
        return [s for s in dealt_in(self.table.n, self.table.dealer) if self._with(four_aces=s)]

    def choose_four_aces(self, seat: int | None) -> None:
        """``seat`` held four aces (None: nobody)."""
        if seat is not None and seat not in self.four_aces_options():
            raise ValueError(f"seat {seat} cannot hold four aces here")
        self.four_aces = seat
        chosen, seats = dict(self.tricks), self.trick_seats()
        self._rebase()
        # The counts chosen stay: who held the aces does not change who plays or what was taken.
        if chosen and self.trick_seats() == seats:
            self.tricks = chosen
            self._fill_last()

    def _rebase(self) -> None:
        if self.redeal and not self.may_redeal():
            self.redeal = False
        if self.declarer is not None and self.declarer not in self.declarers():
            self.declarer = None
        if self.declarer is None:
            self.contract = None
        if self.contract is not None and self.contract not in self.contracts():
            self.contract = None
        if self.four_aces is not None and self.four_aces not in self.four_aces_options():
            self.four_aces = None
        self._rebase_calls()
        self._reset_tricks()

    # --- tricks ------------------------------------------------------------------------------

    def trick_seats(self) -> list[int]:
        """The declarer and the defenders in play (the last filled in); none when both pass."""
        if self.redeal or not self.defence_complete or self.declarer is None:
            return []
        roles = self.defence()
        if self._accepts(built(self._game, roles, None)):
            return []
        return [self.declarer, *(s for s in self.defenders() if roles[s] != "pass")]

    def _trick_accepts(self, tricks: dict[int, int]) -> bool:
        return self._accepts(built(self._game, self.defence(), tricks))

    # --- the deal --------------------------------------------------------------------------

    def deal(self) -> KassaGame | KassaRedeal:
        if self.redeal:
            return KassaRedeal(type="redeal")
        return self._game(self.defence(), self.tricks if self.trick_seats() else None)

    def _load(self, deal: dict[str, Any], roles: dict[int, str]) -> None:
        self.redeal = deal["type"] == "redeal"
        if self.redeal:
            return
        self.contract = Contract.parse(deal["contract"])
        self.four_aces = deal.get("four_aces")

    def choice_missing(self) -> Msg | None:
        if self.finished:
            return msg(N_("every kassa is empty: the game is over, no deal can follow"))
        if self.redeal:
            return None
        if self.declarer is None:
            return msg(N_("choose the declarer"))
        if self.contract is None:
            return msg(N_("choose the contract"))
        for s in self.defenders():
            if s not in self.calls:
                return msg(N_("{player}: whist or pass?"), player=self.names[s])
        return None


# Every contract; the engine refuses 10NT unless the convention plays it (ten_nt, G-Q1).
_ALL = [Contract(level, trump) for level in LEVELS for trump in Trump]


def title(deal: Any, players: Sequence[str]) -> Msg:
    """One line naming a written Prefa deal: ``Ana: 7♥, both pass`` / ``Ana: 6♠``."""
    d = deal_dict(deal)
    if d["type"] == "redeal":
        return msg(N_("All pass: the cards are redealt"))
    who = players[d["declarer"]]
    c = contract_name(Contract.parse(d["contract"]))
    roles = list((d.get("defence") or {}).values())
    if roles and all(r == "pass" for r in roles):
        return msg(N_("{player}: {contract}, both pass"), player=who, contract=c)
    if "invite" in roles:
        return msg(N_("{player}: {contract}, invited"), player=who, contract=c)
    return msg(N_("{player}: {contract}"), player=who, contract=c)


new_form = KassaForm.new
edit_form = KassaForm.edit


def carry(old: KassaForm, stored: Any) -> KassaForm:
    return old.carried(stored)
