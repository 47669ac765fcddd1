"""The bula deal form, without any widget: what the entry screen offers and what a tap does.

Every choice offered is one the engine accepts: an option is shown only when some completion of
the deal with it passes :meth:`BulaTable.verify` on the game as it stands (a trial, never a
second copy of the rules).  The tricks are entered as counted when play stopped, one tap a seat,
the last seat in play filled in; the preview is the engine's own explanation of a trial write on
a copy of the table.  The Flet view (``bula_ui``) draws it; the tests drive it directly.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ...core.i18n import N_, Msg, msg
from ...scoring.ledger.bula import (
    BETL,
    BulaAllPass,
    BulaError,
    BulaGame,
    BulaTable,
    PikNoContra,
    bid_name,
)
from ...scoring.ledger.families import FamilyScored
from ...scoring.ledger.ledger import Account
from ...scoring.ledger.seats import dealt_in
from ..families.form import FamilyForm, built, deal_dict, tricks_json

Kind = Literal["game", "allpass", "pik_no_contra"]
KINDS: tuple[Kind, ...] = ("game", "allpass", "pik_no_contra")
Call = Literal["follow", "pass", "invite"]
CALLS: tuple[Call, ...] = ("follow", "pass", "invite")
BIDS = (2, 3, 4, 5, 6, 7)
LEVELS = (0, 1, 2, 3, 4)  # no contra, kontra, rekontra, subkontra, mortkontra
CONTRA_NAMES = {
    1: N_("kontra"),
    2: N_("rekontra"),
    3: N_("subkontra"),
    4: N_("mortkontra"),
}


@dataclass
class BulaForm(FamilyForm[Call, BulaTable]):
    """One bula deal being entered against the game as it stands (``scored``)."""

    scored: FamilyScored
    kind: Kind = "game"
    declarer: int | None = None
    bid: int | None = None
    hand: bool = False
    calls: dict[int, Call] = field(default_factory=dict)
    contra_level: int | None = None  # None: not chosen yet; 0: no contra
    contra_by: int | None = None
    tricks: dict[int, int] = field(default_factory=dict)

    call_words = CALLS
    table_kind = BulaTable
    refusal = BulaError

    # --- the game as it stands -----------------------------------------------------------

    def _title(self, deal: Any) -> Msg:
        return title(deal, self.names)

    def _contract_chosen(self) -> bool:
        return self.bid is not None

    def _after_calls(self) -> dict[str, Any]:
        return {"contra_level": None, "contra_by": None}  # the contra is said after the calls

    def defenders(self) -> list[int]:
        """The two others dealt in, in turn order after the declarer (with four, the dealer
        sits out: §4.1)."""
        seats = dealt_in(self.table.n, self.table.dealer)
        if self.declarer not in seats:
            return []  # none chosen, or the dealer sitting out
        i = seats.index(self.declarer)
        return [seats[(i + k) % len(seats)] for k in range(1, len(seats))]

    # --- trials ----------------------------------------------------------------------------

    def _contras(self) -> Iterator[dict[str, int] | None]:
        if self.contra_level == 0:
            yield None
            return
        levels = LEVELS[1:] if self.contra_level is None else (self.contra_level,)
        if self.contra_level is None:
            yield None
        for level in levels:
            for by in self.defenders():
                if self.contra_by is None or by == self.contra_by:
                    yield {"by": by, "level": level}

    def _game(
        self,
        defence: dict[int, str],
        contra: dict[str, int] | None,
        tricks: dict[int, int] | None,
        bid: tuple[int | None, bool] | None = None,
    ) -> BulaGame:
        """The game with these choices (a ValidationError while one it needs is not made)."""
        number, hand = bid or (self.bid, self.hand)
        return BulaGame(
            type="game",
            declarer=self.declarer,
            bid=number,
            hand=hand,
            defence={str(s): r for s, r in defence.items()},
            contra=contra,
            tricks=None if tricks is None else tricks_json(tricks),
        )

    def _completions(self) -> Iterator[BulaGame | None]:
        """Complete games with every choice made so far (tricks: one of a few that always fit)."""
        if self.declarer is None:
            return
        bids: list[tuple[int | None, bool]] = [(self.bid, self.hand)]
        if self.bid is None:
            bids = [(b, h) for b in BIDS for h in (False, True)]
        for bid in bids:
            for defence in self._defences():
                for contra in self._contras():
                    yield built(self._game, defence, contra, None, bid)
                    for tricks in self._trick_shapes(defence, contra, bid):
                        yield built(self._game, defence, contra, tricks, bid)

    def _trick_shapes(
        self,
        defence: dict[int, str],
        contra: dict[str, int] | None,
        bid: tuple[int | None, bool],
    ) -> Iterator[dict[int, int]]:
        seats = self._in_play(defence, contra, bid)
        if not seats:
            return
        d = self.declarer
        assert d is not None
        others = [s for s in seats if s != d]
        yield {d: 10} | dict.fromkeys(others, 0)  # made, the defence took nothing
        if others:
            yield {d: 0, others[0]: 10} | dict.fromkeys(others[1:], 0)  # a betl made

    def _in_play(
        self,
        defence: dict[int, str],
        contra: dict[str, int] | None,
        bid: tuple[int | None, bool] | None = None,
    ) -> list[int]:
        game = built(self._game, defence, contra, None, bid)
        return [] if game is None else self.table.in_play(game)

    def _possible(self) -> bool:
        """Whether some completion of the deal of this kind passes."""
        if self.kind == "allpass":
            return self._accepts(BulaAllPass(type="allpass"))
        if self.kind == "pik_no_contra":
            if self.declarer is None:
                return any(self._accepts(_pik(s)) for s in range(self.table.n))
            return self._accepts(built(_pik, self.declarer))
        if self.declarer is None:
            return any(self._with(declarer=s) for s in range(self.table.n))
        return super()._possible()

    # --- choices ---------------------------------------------------------------------------

    def kinds(self) -> list[Kind]:
        if self.finished:
            return []
        return [k for k in KINDS if self._with(kind=k, declarer=None, bid=None, calls={})]

    def declarers(self) -> list[int]:
        return [
            s
            for s in range(self.table.n)
            if self._with(declarer=s, bid=None, calls={}, contra_level=None, contra_by=None)
        ]

    def bids(self) -> list[tuple[int, bool]]:
        """The bids (2 pik … 7 sans) and their hand versions the declarer may play."""
        if self.kind != "game" or self.declarer is None:
            return []
        return [
            (b, h)
            for b in BIDS
            for h in (False, True)
            if self._with(bid=b, hand=h, calls={}, contra_level=None, contra_by=None)
        ]

    def contra_levels(self) -> list[int]:
        """0 (no contra), 1 kontra … 4 mortkontra: those the game allows here."""
        if not self.defence_complete:
            return []
        return [lv for lv in LEVELS if self._with(contra_level=lv, contra_by=None)]

    def contra_sayers(self) -> list[int]:
        """Who may have said the chosen contra (the defender who opened the chain)."""
        if not self.contra_level:
            return []
        return [s for s in self.defenders() if self._with(contra_by=s)]

    @property
    def contra_complete(self) -> bool:
        if self.contra_level is None:
            return False
        return self.contra_level == 0 or self.contra_by is not None

    def choose_kind(self, kind: Kind) -> None:
        self.kind = kind
        self._rebase()

    def choose_bid(self, bid: int, hand: bool) -> None:
        self.bid, self.hand = bid, hand
        self._rebase()

    def declare(self, seat: int) -> None:
        """``seat`` declares (a tap on a name: from an all-pass, back to a game)."""
        if self.kind == "allpass":
            self.choose_kind("game")
        self.choose_declarer(seat)

    def choose_pik_no_contra(self) -> None:
        """The pik entered as pik without contra, by the same declarer where he may be (a pik
        with the talon is played only under contra: D9)."""
        declarer = self.declarer
        self.choose_kind("pik_no_contra")
        if declarer is not None and declarer in self.declarers():
            self.choose_declarer(declarer)

    def take_back_contra(self) -> None:
        """The contra not chosen yet (taken back, to choose again)."""
        self.contra_level, self.contra_by = None, None
        self._reset_tricks()

    def choose_contra(self, level: int, by: int | None = None) -> None:
        self.contra_level = level
        self.contra_by = by if level else None
        self._rebase()

    # --- keeping the choices legal -----------------------------------------------------------

    def _rebase(self) -> None:
        """Keep each choice (in the order they are made) while it is still legal, drop the rest."""
        if self.finished or self.kind not in self.kinds():
            self.kind = "game"
        if self.kind == "allpass":
            self.declarer, self.bid, self.hand = None, None, False
        if self.declarer is not None and self.declarer not in self.declarers():
            self.declarer = None
        if self.kind != "game" or self.declarer is None:
            self.bid, self.hand = None, False
        if self.bid is not None and (self.bid, self.hand) not in self.bids():
            self.bid, self.hand = None, False
        self._rebase_calls()
        level, by = self.contra_level, self.contra_by
        self.contra_level, self.contra_by = None, None
        if self.defence_complete and level is not None and level in self.contra_levels():
            self.contra_level = level
            if level and by is not None and by in self.contra_sayers():
                self.contra_by = by
        if self.contra_level and self.contra_by is None:
            sayers = self.contra_sayers()
            if len(sayers) == 1:  # only one defender could have said it
                self.contra_by = sayers[0]
        if self.defence_complete and self.contra_level is None and self.contra_levels() == [0]:
            self.contra_level = 0  # nobody can say contra (both passed, betl)
        self._reset_tricks()

    # --- tricks -------------------------------------------------------------------------------

    def trick_seats(self) -> list[int]:
        """The seats in play, the declarer first; the last is filled in by the form."""
        if self.kind != "game" or not self.defence_complete or not self.contra_complete:
            return []
        contra = self._contra()
        if self._accepts(built(self._game, self.defence(), contra, None)):
            return []  # nobody defends: the game is not played
        seats = self._in_play(self.defence(), contra)
        d = self.declarer
        return [d, *(s for s in self.defenders() if s in seats)] if d is not None else []

    def _contra(self) -> dict[str, int] | None:
        if not self.contra_level or self.contra_by is None:
            return None
        return {"by": self.contra_by, "level": self.contra_level}

    def _trick_accepts(self, tricks: dict[int, int]) -> bool:
        return self._accepts(built(self._game, self.defence(), self._contra(), tricks))

    # --- the deal ------------------------------------------------------------------------------

    def deal(self) -> BulaGame | BulaAllPass | PikNoContra:
        if self.kind == "allpass":
            return BulaAllPass(type="allpass")
        if self.kind == "pik_no_contra":
            return _pik(self.declarer)
        tricks = self.tricks if self.trick_seats() else None
        return self._game(self.defence(), self._contra(), tricks)

    def _load(self, deal: dict[str, Any], roles: dict[int, str]) -> None:
        self.kind = deal["type"]
        self.bid = deal.get("bid")
        self.hand = bool(deal.get("hand", False))
        contra = deal.get("contra")
        self.contra_level = contra["level"] if contra else (0 if roles else None)
        self.contra_by = contra["by"] if contra else None

    def choice_missing(self) -> Msg | None:
        """What is still to be chosen, in words (None when the deal can be written)."""
        if self.finished:
            return msg(N_("the bulas sum to zero: the game is over, no deal can follow"))
        if self.kind == "allpass":
            return None
        if self.declarer is None:
            return msg(N_("choose the declarer"))
        if self.kind == "pik_no_contra":
            return None
        if self.bid is None:
            return msg(N_("choose the bid"))
        for s in self.defenders():
            if s not in self.calls:
                return msg(N_("{player}: follow or pass?"), player=self.names[s])
        if self.contra_level is None:
            return msg(N_("choose the contra (or no contra)"))
        if self.contra_level and self.contra_by is None:
            return msg(N_("choose who said kontra"))
        return None

    @property
    def on_refe(self) -> bool:
        """The declarer holds an unused refe: this game counts double (the engine's own D8
        posting, seen in a trial write of the deal as entered or of any legal completion)."""
        if self.kind != "game" or self.declarer is None:
            return False
        postings, _ = self.trial()
        if postings is None:
            deal = next((d for d in self._completions() if self._accepts(d)), None)
            if deal is None:
                return False
            postings = copy.deepcopy(self.table).play(deal)
        return any(p.account == Account("refe", self.declarer) and p.amount < 0 for p in postings)


def _pik(declarer: int | None) -> PikNoContra:
    return PikNoContra(type="pik_no_contra", declarer=declarer)


def title(deal: Any, players: Sequence[str]) -> Msg:
    """One line naming a written bula deal: ``Ana: herc igra, kontra`` / ``All pass (refe)``."""
    d = deal_dict(deal)
    if d["type"] == "allpass":
        return msg(N_("All pass (refe)"))
    who = players[d["declarer"]]
    if d["type"] == "pik_no_contra":
        return msg(N_("{player}: pik without contra"), player=who)
    name = bid_name(d["bid"], bool(d.get("hand")))
    contra = d.get("contra")
    if contra:
        return msg(
            N_("{player}: {bid}, {contra} ({by})"),
            player=who,
            bid=name,
            contra=msg(CONTRA_NAMES[contra["level"]]),
            by=players[contra["by"]],
        )
    return msg(N_("{player}: {bid}"), player=who, bid=name)


new_form = BulaForm.new
edit_form = BulaForm.edit


def carry(old: BulaForm, stored: Any) -> BulaForm:
    """The choices of ``old`` rebased on the newer state, where they are still legal."""
    return old.carried(stored)


def contra_name(level: int) -> Msg:
    return msg(CONTRA_NAMES[level]) if level else msg(N_("no contra"))


__all__ = [
    "BETL",
    "BulaForm",
    "bid_name",
    "carry",
    "contra_name",
    "edit_form",
    "new_form",
    "title",
]
