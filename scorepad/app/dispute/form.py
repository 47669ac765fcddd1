"""A disputed deal entered by taps, without any widget: what the screen offers and what a tap does.

The player lays the 32 cards out (tap cards, tap whose they are: a hand, the talon; the
declarer's two discarded cards are marked among his hand and the talon), says the auction bid
by bid, the contract and the whist calls (offered from the engine, prefilled from the deal in
the sheet), then plays the deal card by card: the form offers only the cards the player to
play may play (:meth:`Play.legal`); a card outside them is entered as disputed, and the audit
names the rule it broke.  A claim may end the play between tricks.  The whole is a
``scorepad-deal/1`` record (:meth:`DisputeForm.record`), audited and analysed by the engine.
The Flet view draws it; the tests drive it directly.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import TypeAdapter

from ...core.i18n import N_, Msg, ScorepadError, msg, nmsg
from ...play.analysis import analyse, lines
from ...play.auction import MISERE, PASS, Auction, AuctionError, Bid, legal_bids, parse_bid
from ...play.auction import rank as bid_rank
from ...play.cards import ALL_CARDS, Card, Hand, cards_of
from ...play.play import Play
from ...play.record import (
    FORMAT,
    Audit,
    DealRecord,
    PlayStart,
    RecordInvalid,
    audit,
    begin,
    parse_record,
)
from ...play.revoke import RevokeVerdict, audit_revoke
from ...report.pulya import deal_title
from ...scoring.contract import Contract
from ...scoring.pulya import legal
from ...scoring.pulya.convention import settings_for
from ...scoring.pulya.legal import required_exit
from ...scoring.pulya.score import Scored
from ...scoring.pulya.session import Deal, deal_data
from ...scoring.pulya.table import Table
from ...scoring.pulya.whist import Call, shortest

TALON: Literal["talon"] = "talon"
# The revoke setting's choices, as the verdict names the table's rule (docs/settings.md).
REVOKE_RULES = {
    "one_trick": N_("one trick to the other side (Kodex 3.9.16)"),
    "two_tricks": N_("two tricks to the other side"),
    "rest": N_("the revoke's trick and every later one to the other side"),
}
Place = int | Literal["talon"]  # a seat's hand or the talon
Stage = Literal["cards", "auction", "play", "verdict"]
_DEAL: TypeAdapter[Any] = TypeAdapter(Deal)


@dataclass
class DisputeForm:
    """One deal being entered card by card, at a table (players, convention, dealer)."""

    players: list[str]
    dealer: int
    convention: str = "sochi"
    overrides: dict[str, Any] = field(default_factory=dict)
    raspasy_in_row: int = 0
    sheet: dict[str, Any] | None = None  # the deal as the sheet writes it, when there is one
    # The layout: card index → whose it is; the talon in the order it was turned.
    owner: dict[int, int] = field(default_factory=dict)
    talon: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    selected: list[int] = field(default_factory=list)  # cards tapped, waiting for "whose"
    marking_discard: bool = False
    said: list[Bid] = field(default_factory=list)
    declared: Bid | None = None  # the contract, when higher than the last bid
    calls: list[Call] = field(default_factory=list)
    open: bool = False
    played: list[int] = field(default_factory=list)  # every card, in the order played
    disputed: int | None = None  # the index in ``played`` of a card played outside the offer
    play_on: bool = False  # after a revoke the table plays the deal on to count the tricks
    claim_by: int | None = None
    claim: dict[int, int] = field(default_factory=dict)
    claiming: bool = False
    bidding_done: bool = False  # the player confirmed the auction, contract and calls
    problem: Msg | None = None  # the stored record could not be read (the form starts afresh)
    # The play's start for the layout and bidding it was drawn from: a tap asks it often.
    _start: tuple[str, PlayStart | None] | None = field(default=None, repr=False, compare=False)

    # --- the table ---------------------------------------------------------------------

    @classmethod
    def for_deal(cls, scored: Scored, deal: Deal | dict[str, Any] | None = None) -> DisputeForm:
        """A form at the table ``scored`` stands at; ``deal``: the sheet's deal to prefill from."""
        s = scored.session
        written = None if deal is None else deal if isinstance(deal, dict) else deal_data(deal)
        form = cls(
            list(s.players),
            scored.next_dealer,
            s.convention,
            dict(s.overrides),
            scored.raspasy_in_row,
            sheet=written,
        )
        if written is not None:
            form.prefill(written)
            if written.get("record"):
                try:
                    form.load(parse_record(written["record"]))
                except ScorepadError as exc:  # kept by an older or hand-edited file
                    why: Msg = exc.message
                    if isinstance(exc, RecordInvalid) and exc.step is not None:
                        why = Msg("{step}: {why}", {"step": exc.step, "why": exc.message})
                    form = cls(form.players, form.dealer, form.convention, form.overrides,
                               form.raspasy_in_row)  # fmt: skip
                    form.prefill(written)
                    form.problem = msg(N_("the deal's record cannot be read: {why}"), why=why)
                form.sheet = written
        return form

    @classmethod
    def from_record(cls, record: DealRecord) -> DisputeForm:
        form = cls(
            list(record.players),
            record.dealer,
            record.convention,
            dict(record.overrides),
            record.raspasy_in_row,
        )
        form.load(record)
        return form

    @property
    def table(self) -> Table:
        s = settings_for(self.convention, self.overrides)
        n = len(self.players)
        return Table(
            s,
            self.players,
            target=10,
            dealer=self.dealer,
            pools=[0] * n,
            raspasy_in_row=self.raspasy_in_row,
        )

    @property
    def active(self) -> tuple[int, ...]:
        """The seats dealt in, the first hand first (the 4-player dealer holds no cards)."""
        return self.table.active

    # --- the cards ---------------------------------------------------------------------

    def place_of(self, card: int) -> Place | None:
        if card in self.talon:
            return TALON
        return self.owner.get(card)

    def count(self, place: Place) -> int:
        if place == TALON:
            return len(self.talon)
        return sum(1 for s in self.owner.values() if s == place)

    def places(self) -> list[Place]:
        return [*self.active, TALON]

    @staticmethod
    def size(place: Place) -> int:
        return 2 if place == TALON else 10

    def tap_card(self, card: int) -> None:
        """A card tapped on the grid: select it (again: unselect); marking the discard, mark it."""
        if self.marking_discard:
            self.toggle_discard(card)
            return
        if card in self.selected:
            self.selected.remove(card)
        else:
            self.selected.append(card)

    def can_give(self, place: Place) -> bool:
        """Whether the selected cards fit ``place`` (a hand holds 10, the talon 2)."""
        if not self.selected:
            return False
        staying = sum(1 for c in self.selected if self.place_of(c) == place)
        return self.count(place) - staying + len(self.selected) <= self.size(place)

    def give(self, place: Place) -> None:
        """The selected cards are ``place``'s: moved from wherever they were (one place each)."""
        if place not in self.places():
            raise ValueError(f"{place!r} holds no cards in this deal")
        if not self.can_give(place):
            raise ValueError(f"{place!r} cannot take {len(self.selected)} more cards")
        for card in self.selected:
            self._take(card)
            if place == TALON:
                self.talon.append(card)
            else:
                self.owner[card] = int(place)
        self.selected = []
        self._cards_changed()

    def unplaced(self) -> list[int]:
        return [c for c in range(32) if self.place_of(c) is None]

    def can_give_rest(self, place: Place) -> bool:
        rest = self.unplaced()
        return bool(rest) and self.count(place) + len(rest) == self.size(place)

    def give_rest(self, place: Place) -> None:
        """ "The rest are X's": every card not yet placed goes to ``place`` in one tap."""
        if not self.can_give_rest(place):
            raise ValueError(f"the rest does not make {place!r} complete")
        self.selected = self.unplaced()
        self.give(place)

    def clear_card(self, card: int) -> None:
        self._take(card)
        self._cards_changed()

    def _take(self, card: int) -> None:
        self.owner.pop(card, None)
        if card in self.talon:
            self.talon.remove(card)

    def _cards_changed(self) -> None:
        self.discard = [c for c in self.discard if self._may_discard(c)]
        self.played, self.disputed, self.claim_by, self.claim = [], None, None, {}
        self.claiming = False

    @property
    def dealt(self) -> bool:
        """Every card placed: 10 in each hand dealt in, 2 in the talon."""
        return all(self.count(p) == self.size(p) for p in self.places())

    def hand(self, seat: int) -> Hand:
        return Hand(sum(1 << c for c, s in self.owner.items() if s == seat))

    # --- the discard -------------------------------------------------------------------

    def _may_discard(self, card: int) -> bool:
        d = self.declarer
        return d is not None and (card in self.talon or self.owner.get(card) == d)

    def toggle_discard(self, card: int) -> None:
        if card in self.discard:
            self.discard.remove(card)
        elif self._may_discard(card) and len(self.discard) < 2:
            self.discard.append(card)
        else:
            raise ValueError("the discard is two cards of the declarer's hand and the talon")
        self.played, self.disputed, self.claim_by, self.claim = [], None, None, {}

    def give_discard(self) -> None:
        """The selected cards are the discard (they stay in the declarer's hand or the talon)."""
        chosen = [c for c in self.selected if c not in self.discard]
        if not all(self._may_discard(c) for c in chosen) or len(self.discard) + len(chosen) > 2:
            raise ValueError("the discard is two cards of the declarer's hand and the talon")
        self.discard.extend(chosen)
        self.selected = []
        self.played, self.disputed, self.claim_by, self.claim = [], None, None, {}

    @property
    def needs_discard(self) -> bool:
        return self.declarer is not None

    # --- the auction, the contract and the calls ---------------------------------------

    def auction(self) -> Auction:
        a = Auction(self.active, required_exit(self.table))
        for b in self.said:
            a = a.bid(b)
        return a

    def bids(self) -> list[Bid]:
        """What the next speaker may say (pass first), from the engine."""
        return legal_bids(self.auction())

    def bid(self, b: Bid | str) -> None:
        said = parse_bid(b) if isinstance(b, str) else b
        self.auction().bid(said)  # raises AuctionError with the reason
        self.said.append(said)
        self._bidding_changed()

    def undo_bid(self) -> None:
        if self.said:
            self.said.pop()
            self._bidding_changed()

    def _bidding_changed(self) -> None:
        self.declared, self.calls, self.open, self.bidding_done = None, [], False, False
        self.discard = [c for c in self.discard if self._may_discard(c)]
        self.played, self.disputed, self.claim_by, self.claim = [], None, None, {}

    @property
    def declarer(self) -> int | None:
        a = self.auction()
        return a.winner if a.finished else None

    @property
    def final_bid(self) -> Bid | None:
        return self.auction().final_bid

    @property
    def contract(self) -> Bid | None:
        """The contract played: the last bid, or the higher one declared after the talon."""
        return self.declared if self.declared is not None else self.final_bid

    def contracts(self) -> list[Bid]:
        """The contracts the declarer may declare after the talon (the bid or higher)."""
        final = self.final_bid
        if final is None:
            return []
        if final == MISERE:
            return [MISERE]
        assert isinstance(final, Contract)
        return [c for c in legal.contracts(self.table) if bid_rank(c) >= bid_rank(final)]

    def declare(self, contract: Bid) -> None:
        if contract not in self.contracts():
            raise ValueError(f"{contract!r} cannot be declared on this bid")
        self.declared = None if contract == self.final_bid else contract
        self.calls, self.open = [], False
        self.played, self.disputed, self.claim_by, self.claim = [], None, None, {}

    def call_options(self) -> tuple[int | None, list[Call]]:
        d, c = self.declarer, self.contract
        if d is None or not isinstance(c, Contract) or legal.is_checked_ten(self.table.settings, c):
            return None, []
        who, options = legal.call_options(self.table, declarer=d, contract=c, said=self.calls)
        return who, list(options)

    def say(self, call: str) -> None:
        if call not in self.call_options()[1]:
            raise ValueError(f"{call!r} is not a call here")
        self.calls.append(Call(call))
        self.played, self.disputed, self.claim_by, self.claim = [], None, None, {}

    def undo_call(self) -> None:
        if self.calls:
            self.calls.pop()

    @property
    def auction_over(self) -> bool:
        return self.auction().finished

    def bidding_missing(self) -> Msg | None:
        """What is still to be said before the play (None: it may start)."""
        a = self.auction()
        if not a.finished:
            return msg(N_("{player} is to speak"), player=self.players[a.to_speak or 0])
        if self.needs_discard and len(self.discard) != 2:
            return msg(N_("mark the declarer's two discarded cards"))
        who, _ = self.call_options()
        if who is not None:
            return msg(N_("{player}: whist or pass?"), player=self.players[who])
        return None

    def confirm_bidding(self) -> None:
        if self.bidding_missing() is not None:
            raise ValueError("the auction, the discard or the calls are not complete")
        self.bidding_done = True

    def prefill(self, deal: dict[str, Any]) -> None:
        """The auction, contract and calls of a deal in the sheet: the declarer bids his
        contract, everybody else passes (the sheet does not keep the auction)."""
        kind = deal["type"]
        self.said, self.declared, self.calls = [], None, []
        if kind == "game":
            contract = Contract.parse(deal["contract"])
            self._bid_alone(deal["declarer"], contract)
            self.calls = [Call(c) for c in deal.get("calls") or []]
            for _ in range(5):  # the sheet keeps the shortest form: the rest passed
                who, options = self.call_options()
                if who is None or Call.PASS not in options:
                    break
                self.calls.append(Call.PASS)
            self.open = bool(deal.get("open", False))
        elif kind == "misere":
            self._bid_alone(deal["declarer"], MISERE)
        elif kind == "raspasy":
            for _ in self.active:
                self.said.append(PASS)

    def _bid_alone(self, declarer: int, contract: Bid) -> None:
        for seat in self.active:
            a = self.auction()
            if a.finished:
                break
            if seat == declarer:
                options = [b for b in self.bids() if b != PASS]
                first = contract if contract in options else (options[0] if options else PASS)
                self.said.append(first)
                if first != contract and isinstance(contract, Contract):
                    self.declared = contract
            else:
                self.said.append(PASS)
        while not self.auction().finished:
            self.said.append(PASS)

    # --- the play ----------------------------------------------------------------------

    @property
    def in_play(self) -> bool:
        return self.dealt and self.bidding_done

    def _begun(self) -> Play | None:
        """The play as it starts, from the engine (None: the record cannot start yet)."""
        data = self._record_data(with_play=False)
        key = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
        if self._start is None or self._start[0] != key:
            try:
                b = begin(parse_record(data))
            except RecordInvalid:
                self._start = (key, None)
            else:
                self._start = (key, PlayStart.of(b.play) if b.played else None)
        s = self._start[1]
        if s is None:
            return None
        return Play(
            list(s.hands),
            s.order,
            trump=s.trump,
            first_hand=s.first_hand,
            must_overtake=s.must_overtake,
            talon_leads=s.talon_leads,
            talon_owner=s.talon_owner,
        )

    def play_state(self) -> Play | None:
        """The engine's play after every card entered so far."""
        p = self._begun()
        if p is None:
            return None
        for card in self.played:
            p.play(card, p.to_play)
        return p

    @property
    def is_played(self) -> bool:
        """Whether the deal has tricks at all (a game nobody whisted has none)."""
        return self._begun() is not None

    def to_play(self) -> int | None:
        p = self.play_state()
        if p is None or self.play_over(p):
            return None
        return p.to_play

    def play_over(self, p: Play | None = None) -> bool:
        """All ten tricks, a claim, or the disputed card's trick complete."""
        p = p if p is not None else self.play_state()
        if p is None:
            return True
        if p.finished or (self.claim_by is not None and not self.claiming):
            return True
        return self.disputed is not None and not p.current and not self.play_on

    def can_play_on(self) -> bool:
        """After a revoke's trick: the table may play the deal on, for the count and the
        analysis (the revoke rule needs the tricks as played to the end, or claimed)."""
        p = self.play_state()
        return (
            p is not None
            and self.disputed is not None
            and not self.play_on
            and not p.current
            and not p.finished
            and self.claim_by is None
        )

    def continue_play(self) -> None:
        if not self.can_play_on():
            raise ValueError("the deal cannot be played on now")
        self.play_on = True

    def offered(self) -> list[Card]:
        """The cards the player to play may play now (the engine's legal cards)."""
        p = self.play_state()
        if p is None or self.play_over(p):
            return []
        return list(cards_of(p.legal(p.to_play)))

    def others(self) -> list[Card]:
        """The rest of his hand: played, one of these is a fault the audit will name."""
        p = self.play_state()
        if p is None or self.play_over(p) or self.disputed is not None:
            return []
        seat = p.to_play
        return list(cards_of(p.hands[seat] & ~p.legal(seat)))

    def _revoke_trick_done(self, p: Play) -> bool:
        """The revoke's trick is complete (a claim may end the play that follows it)."""
        assert self.disputed is not None
        return len(self.played) - self.disputed > len(p.current)

    def play(self, card: int) -> None:
        p = self.play_state()
        if p is None or self.play_over(p):
            raise ValueError("no card is to be played now")
        if p.legal(p.to_play) >> card & 1:
            self.played.append(card)
        elif p.hands[p.to_play] >> card & 1 and self.disputed is None:
            self.disputed = len(self.played)
            self.played.append(card)
        else:
            raise ValueError(f"{ALL_CARDS[card]} cannot be played now")
        self.claim_by, self.claim, self.claiming = None, {}, False

    def undo_card(self) -> None:
        if self.claim_by is not None:
            self.claim_by, self.claim, self.claiming = None, {}, False
            return
        if self.played:
            self.played.pop()
            if self.disputed is not None and self.disputed >= len(self.played):
                self.disputed, self.play_on = None, False
            elif self.disputed is not None and self.play_on:
                p = self.play_state()
                if p is not None and not self._revoke_trick_done(p):
                    self.play_on = False

    def tricks(self) -> list[list[tuple[int, Card]]]:
        """The tricks so far (the last one maybe unfinished), (seat, card) in play order."""
        p = self.play_state()
        if p is None:
            return []
        done = [[(s, ALL_CARDS[c]) for s, c in t] for t in p.tricks]
        if p.current:
            done.append([(s, ALL_CARDS[c]) for s, c in p.current])
        return done

    # --- the claim ---------------------------------------------------------------------

    def can_claim(self) -> bool:
        """A claim is made between tricks, in a game or a misère (not in an all-pass)."""
        p = self.play_state()
        return (
            p is not None
            and self.declarer is not None
            and not p.current
            and not p.finished
            and (self.disputed is None or self.play_on)
            and self.claim_by is None
        )

    def claimants(self) -> list[int]:
        p = self.play_state()
        return list(p.order) if p is not None else []

    def start_claim(self, seat: int) -> None:
        if not self.can_claim() or seat not in self.claimants():
            raise ValueError("no claim can be made now")
        p = self.play_state()
        assert p is not None and self.declarer is not None
        rest = 10 - p.trick_number
        self.claim_by, self.claiming = seat, True
        self.claim = {s: 0 for s in p.order}
        self.claim[self.declarer] = rest

    def claim_rest(self) -> int:
        p = self.play_state()
        return 0 if p is None else 10 - p.trick_number

    def claim_seats(self) -> list[int]:
        """Whose tricks the claim gives: the declarer first, the last seat filled in."""
        d = self.declarer
        return [] if d is None else [d, *(s for s in self.claimants() if s != d)]

    def claim_choices(self, seat: int) -> list[int]:
        seats = self.claim_seats()
        if seat not in seats[:-1]:
            return []
        others = sum(self.claim[s] for s in seats[:-1] if s != seat)
        return list(range(0, self.claim_rest() - others + 1))

    def set_claim(self, seat: int, n: int) -> None:
        if n not in self.claim_choices(seat):
            raise ValueError(f"seat {seat} cannot be given {n} tricks here")
        self.claim[seat] = n
        seats = self.claim_seats()
        self.claim[seats[-1]] = self.claim_rest() - sum(self.claim[s] for s in seats[:-1])

    def confirm_claim(self) -> None:
        self.claiming = False

    # --- the record and its verdict ----------------------------------------------------

    def _record_data(self, *, with_play: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "players": self.players,
            "convention": self.convention,
            "overrides": self.overrides,
            "dealer": self.dealer,
            "raspasy_in_row": self.raspasy_in_row,
            "hands": {str(s): self.hand(s).cards_text() for s in self.active},
            "talon": " ".join(str(ALL_CARDS[c]) for c in self.talon),
            "auction": [b.code if isinstance(b, Contract) else b for b in self.said],
        }
        if self.declarer is not None:
            data["discard"] = " ".join(str(ALL_CARDS[c]) for c in self.discard)
            c = self.contract
            data["contract"] = c.code if isinstance(c, Contract) else c
            if isinstance(c, Contract) and not legal.is_checked_ten(self.table.settings, c):
                data["calls"] = [str(x) for x in self.calls]
            if self.open:
                data["open"] = True
        if with_play:
            # The 4-player dealer's talon cards on an all-pass are the talon, not written.
            order = set(self.active)
            data["play"] = [" ".join(str(c) for s, c in t if s in order) for t in self.tricks()]
            if self.claim_by is not None and not self.claiming:
                data["claim"] = {
                    "by": self.claim_by,
                    "tricks": {str(s): n for s, n in self.claim.items()},
                }
        return data

    def record(self) -> DealRecord:
        """The deal as a ``scorepad-deal/1`` record (to audit, to store with the deal, to share)."""
        return parse_record(self._record_data())

    def shared(self) -> dict[str, Any]:
        """The record as a file shares it (and the deal keeps it): defaults left out."""
        data: dict[str, Any] = self.record().model_dump(mode="json", exclude_defaults=True)
        data["format"] = FORMAT  # a default, but a shared record names its format
        return data

    def with_record(self, deal: Deal | dict[str, Any]) -> Deal:
        """``deal`` (the sheet's, or the audit's entry) keeping these cards, as the store takes it."""
        data = deal if isinstance(deal, dict) else deal_data(deal)
        written: Deal = _DEAL.validate_python(data | {"record": self.shared()})
        return written

    def load(self, record: DealRecord) -> None:
        """Fill the form from a record (a stored or shared one): every tap it stands for."""
        self.players, self.dealer = list(record.players), record.dealer
        self.convention, self.overrides = record.convention, dict(record.overrides)
        self.raspasy_in_row = record.raspasy_in_row
        self.owner, self.talon, self.discard = {}, [], []
        for seat, text in record.hands.items():
            for c in Hand.parse(text):
                self.owner[c.index] = int(seat)
        self.talon = [Card.parse(t).index for t in record.talon.replace(",", " ").split()]
        self.said = []
        for text in record.auction:
            try:
                self.said.append(parse_bid(text))
            except AuctionError:
                break
        self.declared = None
        if record.contract is not None:
            declared = parse_bid(record.contract)
            self.declared = None if declared == self.final_bid else declared
        self.discard = [c.index for c in Hand.parse(record.discard or "")]
        self.calls = [Call(c) for c in record.calls or []]
        self.open = record.open
        self.bidding_done = True
        self.played, self.disputed, self.play_on = [], None, False
        p = self._begun()
        for text in record.play:
            if self.disputed is not None:
                # Played on after the revoke: kept while every card is one the engine offers
                # (a second fault ends the replay there, as the check settles one revoke).
                if p is None or not self._legal_trick(p, text):
                    break
                self.play_on = True
            for token in text.replace(",", " ").split():
                card = Card.parse(token).index
                if p is not None and not p.finished and not (p.legal(p.to_play) >> card & 1):
                    self.disputed = len(self.played) if self.disputed is None else self.disputed
                self.played.append(card)
                if p is not None and not p.finished:
                    p.play(card, p.to_play)
        if record.claim is not None:
            self.play_on = self.disputed is not None  # a claim after the revoke's trick
            self.claim_by = record.claim.by
            self.claim = {int(s): n for s, n in record.claim.tricks.items()}
        self.claiming = False

    @staticmethod
    def _legal_trick(p: Play, text: str) -> bool:
        """Whether a whole trick of the record is legal where ``p`` stands (nothing played)."""
        try:
            cards = [Card.parse(t).index for t in text.replace(",", " ").split()]
        except ScorepadError:
            return False
        if p.finished or p.current or len(cards) != len(p.order):
            return False
        test = copy.deepcopy(p)
        return test.play_trick(cards) < 0

    @property
    def ready(self) -> bool:
        """Whether the verdict can be given: everything entered, the play over."""
        return self.in_play and self.play_over() and not self.claiming

    @property
    def stage(self) -> Stage:
        if not self.dealt:
            return "cards"
        if not self.bidding_done:
            return "auction"
        if not self.ready:
            return "play"
        return "verdict"

    def verdict(self) -> tuple[Audit | RevokeVerdict | None, list[Msg]]:
        """The verdict in words, as the CLI gives it, then what was makeable and what cost."""
        try:
            found = audit(self.record())
        except RecordInvalid as exc:
            if exc.step == "claim":
                return None, [msg(N_("The claim is refused: {why}"), why=exc.message)]
            if exc.step is None:
                return None, [exc.message]
            said = [msg(N_("Illegal: {step}: {why}"), step=exc.step, why=exc.message)]
            if self.disputed is None:
                return None, said
            try:
                revoked = audit_revoke(self.record())
            except RecordInvalid:  # not a revoke (or a second fault after it): as it was
                return None, said
            return revoked, said + self._revoke_verdict(revoked)
        out = [msg(N_("Verdict: every step is legal."))]
        if found.claim_value is not None:
            out.append(
                msg(
                    N_("The claim holds: with best play the declarer takes {value} of the rest."),
                    value=found.claim_value,
                )
            )
        written = _DEAL.validate_python(found.entry)
        out.append(msg(N_("The deal writes: {title}"), title=deal_title(written, self.players)))
        if found.entry.get("tricks"):
            taken = ", ".join(
                f"{self.players[int(s)]} {n}" for s, n in sorted(found.entry["tricks"].items())
            )
            out.append(msg(N_("Tricks: {taken}."), taken=taken))
        out.extend(self.sheet_lines(found.entry))
        if found.start is not None and found.tricks:
            out.extend(lines(found, analyse(found)))
        return found, out

    def _revoke_verdict(self, v: RevokeVerdict) -> list[Msg]:
        """What the table's revoke rule gives: the penalty, the tricks as they must be written,
        the deal as it must be written, and where the sheet differs."""
        names = self.players
        out = [msg(N_("The revoke rule of this table: {rule}."), rule=msg(REVOKE_RULES[v.rule]))]
        if not v.played_out:
            out.append(
                msg(N_("Play the deal on to the end (or claim the rest) to count the tricks."))
            )
            return out
        out.append(
            msg(
                N_("Tricks as played: {taken}."),
                taken=", ".join(f"{names[s]} {n}" for s, n in sorted(v.taken.items())),
            )
        )
        if not v.moves:
            out.append(msg(N_("{player}'s side has no trick to give: the tricks stand."),
                           player=names[v.revoke.seat]))  # fmt: skip
        for giver, to, n in v.moves:
            out.append(
                nmsg(
                    "Penalty: {giver} gives {taker} {n} trick.",
                    "Penalty: {giver} gives {taker} {n} tricks.",
                    n,
                    giver=names[giver],
                    taker=names[to],
                )
            )
        written = ", ".join(
            f"{names[int(s)]} {n}" for s, n in sorted((v.entry.get("tricks") or {}).items())
        )
        out.append(msg(N_("The tricks as they must be written: {taken}."), taken=written))
        deal = _DEAL.validate_python(v.entry)
        out.append(msg(N_("The deal writes: {title}"), title=deal_title(deal, names)))
        out.extend(self.sheet_lines(v.entry))
        return out

    def sheet_lines(self, entry: dict[str, Any]) -> list[Msg]:
        """The deal checked against the sheet: the same, or what the sheet has instead, with
        each player's tricks where the sheet and the cards differ."""
        if self.sheet is None:
            return []
        mine = _comparable(entry)
        theirs = _comparable(self.sheet)
        if mine == theirs:
            return [msg(N_("The sheet has this deal the same way."))]
        out = [
            msg(
                N_("The sheet has it otherwise: {title}"),
                title=deal_title(_DEAL.validate_python(_bare(self.sheet)), self.players),
            )
        ]
        cards = entry.get("tricks") or {}
        sheet = self.sheet.get("tricks") or {}
        for seat in sorted(set(cards) & {str(k) for k in sheet}, key=int):
            on_sheet = sheet.get(seat, sheet.get(int(seat)))
            if on_sheet != cards[seat]:
                out.append(
                    nmsg(
                        "The sheet has {player} {sheet} trick, the cards give {cards}.",
                        "The sheet has {player} {sheet} tricks, the cards give {cards}.",
                        on_sheet,
                        player=self.players[int(seat)],
                        sheet=on_sheet,
                        cards=cards[seat],
                    )
                )
        return out


def _bare(deal: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in deal.items() if k != "record"}


def _comparable(deal: dict[str, Any]) -> tuple[Any, ...]:
    tricks = {str(k): v for k, v in (deal.get("tricks") or {}).items() if v}
    calls = tuple(shortest([Call(c) for c in deal.get("calls") or []]))
    return (deal["type"], deal.get("declarer"), deal.get("contract"), calls, tricks)


__all__ = ["TALON", "DisputeForm", "Place", "Stage"]
