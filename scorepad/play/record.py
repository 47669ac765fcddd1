"""The deal record (``scorepad-deal/1``): a whole deal card by card, and its audit.

A record is written by hand (JSON) when a deal is disputed: the cards dealt, the talon, the
auction, the discard, the contract, the whist calls, the tricks in the order played, and an
optional claim.  :func:`audit` replays it step by step and reports the first illegal step in
words ("trick 4: Vera played 7♥ while holding a spade — revoke").  A legal record yields the
deal entry of the session format, which scores exactly like a typed entry.

Format (every field but ``players``, ``dealer``, ``hands``, ``talon`` and ``auction`` optional)::

    {"format": "scorepad-deal/1",
     "players": ["Anna", "Boris", "Vera"], "convention": "sochi", "overrides": {},
     "dealer": 0, "raspasy_in_row": 0,
     "hands": {"1": "♠AK ♥AKQ10 ♦A ♣QJ10", "2": "...", "0": "..."},
     "talon": "A♣ K♣",
     "auction": ["6S", "pass", "7S", "pass", "pass"],
     "discard": "7♦ 8♦", "contract": "7S",
     "calls": ["whist", "pass"], "open": false,
     "play": ["K♠ A♠ 7♠", "..."],
     "claim": {"by": 1, "tricks": {"1": 3, "2": 0, "0": 0}}}

``auction`` is in speaking order from the first hand (the dealer's left).  Each ``play`` entry
is one trick, the cards in the order played (who played a card is known from the hands; the
first hand leads the first trick, the winner the next).  On an all-pass the talon cards are not
written in the tricks: they are the talon.  ``claim`` gives the rest of the tricks per seat;
it is checked double dummy for the declarer's count and, in a game, for each defender's (whists
are written per defender); the dealer sitting out a 4-player deal cannot claim.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..core.i18n import N_, Msg, ScorepadError, msg
from ..scoring.contract import Contract
from ..scoring.pulya.convention import ConventionError, Settings, settings_for
from ..scoring.pulya.legal import DealError, required_exit, seat_range, verify_calls, verify_deal
from ..scoring.pulya.session import (
    ConventionId,
    Note,
    Overrides,
    PlayedDeal,
    PlayerName,
    Seat,
    SeatKey,
    pydantic_problem,
)
from ..scoring.pulya.table import Table, contract_name
from ..scoring.pulya.whist import Call, Kind, Whisting, shortest
from . import dds
from .auction import (
    MISERE,
    PASS,
    Auction,
    AuctionError,
    Bid,
    bid_name,
    parse_bid,
    verify_declaration,
)
from .cards import (
    ALL_CARDS,
    SPELLINGS,
    Card,
    CardError,
    Hand,
    Suit,
    card_word,
    cards_of,
    check_layout,
    in_order,
)
from .dds import solve as best_tricks
from .play import Play, _compiled

FORMAT = "scorepad-deal/1"
# Discriminated by "type": the entry is checked against its one model, not tried on each.
_ENTRY: TypeAdapter[PlayedDeal] = TypeAdapter(Annotated[PlayedDeal, Field(discriminator="type")])
# Bounds far past any real deal, so a refused value is never echoed whole.
Cards = Annotated[str, Field(max_length=100)]
Word = Annotated[str, Field(max_length=10)]


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    by: Seat
    tricks: dict[SeatKey, Annotated[int, Field(strict=True, ge=0, le=10)]]


class DealRecord(BaseModel):
    """The record file, as written."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["scorepad-deal/1"]
    players: list[PlayerName] = Field(min_length=3, max_length=4)
    convention: ConventionId = "sochi"
    overrides: Overrides = Field(default_factory=dict)
    dealer: Seat
    raspasy_in_row: Annotated[int, Field(strict=True, ge=0, le=1000)] = 0
    hands: dict[SeatKey, Cards]
    talon: Cards
    auction: list[Word] = Field(max_length=100)
    discard: Cards | None = None
    contract: Word | None = None
    calls: list[Call] | None = None
    open: bool = False
    play: list[Cards] = Field(default_factory=list, max_length=20)
    claim: Claim | None = None
    note: Note | None = None


class RecordInvalid(ScorepadError):
    """The record is malformed or breaks a rule: ``step`` says where, ``message`` why."""

    def __init__(self, step: Msg | str | None, message: Msg) -> None:
        self.step = step
        self.message = message
        super().__init__(message, self.render())

    def render(self, lang: str = "en") -> str:
        text = self.message.render(lang)
        if self.step is None:
            return text
        step = self.step if isinstance(self.step, str) else self.step.render(lang)
        return f"{step}: {text}"


class TrickAccount(NamedTuple):
    """One trick of an audited record (a named tuple: a record has ten, built in bulk)."""

    number: int
    cards: tuple[tuple[int, Card], ...]  # (seat, card) in the order played
    winner: int
    talon: Card | None = None  # the talon card that named the suit or led


@dataclass(frozen=True, slots=True)
class PlayStart:
    """The play as it began (hands after the discard): enough to replay or analyse it."""

    hands: tuple[int, ...]
    order: tuple[int, ...]
    trump: int | None
    first_hand: int
    must_overtake: bool
    talon_leads: tuple[int, ...]
    talon_owner: int | None

    @classmethod
    def of(cls, p: Play) -> PlayStart:
        return cls(
            tuple(p.hands),
            p.order,
            p.trump,
            p.first_hand,
            p.must_overtake,
            p.talon_leads,
            p.talon_owner,
        )


@dataclass(frozen=True, slots=True)
class Audit:
    """A legal record: what was bid and played, and the session entry it yields."""

    record: DealRecord
    declarer: int | None
    contract: Bid | None  # a Contract, MISERE, or None for an all-pass
    whisting: Whisting | None
    tricks: tuple[TrickAccount, ...]
    taken: dict[int, int]  # per seat, the claim included
    claim_value: int | None  # the declarer's tricks in the claimed rest, with best play
    entry: dict[str, Any] = field(default_factory=dict)
    start: PlayStart | None = None  # the play as it began (absent when nobody whisted)


def parse_record(data: str | bytes | dict[str, Any]) -> DealRecord:
    try:
        if isinstance(data, dict):
            return DealRecord.model_validate(data)
        return DealRecord.model_validate_json(data)
    except ValidationError as exc:
        errors = exc.errors()
        broken = [e for e in errors if e["type"] == "json_invalid"]  # nested 1,000 deep, say
        if broken:
            raise RecordInvalid(None, pydantic_problem(broken[0]).message) from None
        # A file that is not a deal record gets one line, naming the record's own format.
        if any(tuple(e["loc"]) == ("format",) or not e["loc"] for e in errors):
            raise RecordInvalid(
                "format",
                msg(
                    N_("this is not a Scorepad deal record (format must be '{format}')"),
                    format=FORMAT,
                ),
            ) from None
        p = pydantic_problem(errors[0])
        raise RecordInvalid(p.field, p.message) from None


def _compiled_core() -> bool:
    """Whether the C core plays (the one that searches, :data:`dds.CORE`) and is built."""
    return _compiled is not None and dds.CORE == "compiled"


def _hand(step: str, text: str, compiled: bool = False) -> Hand:
    try:
        return Hand.parse(text, compiled=compiled)
    except CardError as exc:
        raise RecordInvalid(step, exc.message) from None


@dataclass(frozen=True, slots=True)
class Begun:
    """A record checked up to its first trick: the layout, the auction, the discard and the
    calls; ``play`` is the play as it starts (None when nobody whisted: nothing is played)."""

    table: Table
    declarer: int | None
    contract: Bid | None
    whisting: Whisting | None
    play: Play
    played: bool


def begin(record: DealRecord) -> Begun:
    """Check a record up to its first trick (:class:`RecordInvalid` names the first fault).

    The play of a record being entered card by card starts here: ``begin(r).play`` offers the
    legal cards (:meth:`Play.legal`) of whoever is to play.
    """
    names = record.players
    n = len(names)
    s, whist_cache = _convention(record.convention, record.overrides)
    if record.dealer >= n:
        raise RecordInvalid("dealer", seat_range(record.dealer, n))
    t = Table(
        s,
        names,
        target=10,
        dealer=record.dealer,
        pools=[0] * n,
        raspasy_in_row=record.raspasy_in_row,
        whist_cache=whist_cache,
    )
    active = t.active
    first_hand = active[0]

    # The layout: 10 cards to each player dealt in, 2 in the talon, 32 in all.
    if set(record.hands) != set(active):
        raise RecordInvalid(
            "hands",
            msg(
                N_("hands are needed for exactly the seats dealt in: {seats}"),
                seats=", ".join(f"{x} ({names[x]})" for x in active),
            ),
        )
    compiled = _compiled_core()
    hands = {seat: _hand(f"hands.{seat}", text, compiled) for seat, text in record.hands.items()}
    talon = _hand("talon", record.talon, compiled)
    problems = check_layout(hands, talon, names)
    if problems:
        raise RecordInvalid("hands", problems[0])

    # The auction.
    declarer, final = _auction(record, active, required_exit(t))
    play_hands = [0] * n
    for seat, hand in hands.items():
        play_hands[seat] = hand.mask
    outcome: Whisting | None = None
    contract: Bid | None = None
    if declarer is None:  # all passed: raspasy
        for name in ("discard", "contract", "calls"):
            if getattr(record, name) is not None:
                raise RecordInvalid(
                    name, msg(N_("everybody passed: an all-pass has no {field}"), field=name)
                )
        talon_cards = _talon_order(record.talon)
        if s.raspasy_talon == "open":
            owner = t.sits_out
            if owner is not None:
                play_hands[owner] = talon.mask
            p = Play(
                play_hands,
                active,
                trump=None,
                first_hand=first_hand,
                must_overtake=s.must_overtake,
                talon_leads=talon_cards,
                talon_owner=owner,
            )
        else:
            p = Play(
                play_hands, active, trump=None, first_hand=first_hand, must_overtake=s.must_overtake
            )
    else:
        assert final is not None
        contract = final
        if record.contract is not None:
            contract = _declared(record.contract, final)
        if record.discard is None:
            raise RecordInvalid(
                "discard", msg(N_("the declarer's two discarded cards are required"))
            )
        discard = _hand("discard", record.discard, compiled)
        with_talon = hands[declarer].mask | talon.mask
        if len(discard) != 2 or discard.mask & ~with_talon:
            raise RecordInvalid(
                "discard", msg(N_("the discard is two cards of the declarer's hand and the talon"))
            )
        play_hands[declarer] = with_talon & ~discard.mask
        if contract == MISERE:
            if record.calls is not None:
                raise RecordInvalid("calls", msg(N_("a misère is not whisted: it has no calls")))
            p = Play(
                play_hands, active, trump=None, first_hand=first_hand, must_overtake=s.must_overtake
            )
        else:
            assert isinstance(contract, Contract)
            calls = None if record.calls is None else shortest(record.calls)
            try:
                outcome = verify_calls(t, declarer=declarer, contract=contract, calls=calls)
            except DealError as exc:
                raise RecordInvalid(exc.field, exc.message) from None
            suit = Suit.from_trump(contract.trump)
            trump = None if suit is None else suit.index
            p = Play(
                play_hands,
                active,
                trump=trump,
                first_hand=first_hand,
                must_overtake=s.must_overtake,
            )
            if not outcome.played:
                return Begun(t, declarer, contract, outcome, p, played=False)
    return Begun(t, declarer, contract, outcome, p, played=True)


def audit(record: DealRecord) -> Audit:
    """Replay a record step by step; the first illegal step raises :class:`RecordInvalid`."""
    b = begin(record)
    t, declarer, contract, outcome, p = b.table, b.declarer, b.contract, b.whisting, b.play
    names = record.players
    if not b.played:
        if record.play or record.claim:
            raise RecordInvalid(
                "play", msg(N_("the deal was not played (no whist), so it has no tricks"))
            )
        return Audit(
            record,
            declarer,
            contract,
            outcome,
            (),
            {},
            None,
            verified_entry(session_entry(record, declarer, contract, outcome, {}, t), t),
            PlayStart.of(p),
        )
    start = PlayStart.of(p)
    accounts = _play(record, p, names)
    taken = dict(p.won)
    claim_value = None
    if record.claim is not None:
        claim_value = claim_checked(record, p, declarer, contract, taken, names, t)
    elif not p.finished:
        raise RecordInvalid(
            "play",
            msg(N_("only {k} tricks were played and nobody claimed the rest"), k=p.trick_number),
        )
    entry = verified_entry(session_entry(record, declarer, contract, outcome, taken, t), t)
    return Audit(
        record, declarer, contract, outcome, tuple(accounts), taken, claim_value, entry, start
    )


# A batch of records repeats a few conventions and auctions many times over: what a legal one
# yields is kept (a fault is never kept, so its sentence is always written afresh).  Bounded, so
# a long-running server cannot grow them without end.
_CACHE_LIMIT = 4096
_CONVENTIONS: dict[tuple[str, str], tuple[Settings, dict[Any, Any]]] = {}
_AUCTIONS: dict[
    tuple[tuple[int, ...], int | None, tuple[str, ...]], tuple[int | None, Bid | None]
] = {}


_TEMPLATES: dict[tuple[Any, ...], PlayedDeal] = {}  # an entry's model but its tricks
_DECLARED: dict[tuple[str, Bid], Bid] = {}  # (contract as written, last bid): the contract


def forget_kept() -> None:
    """Drop the conventions, auctions and entries kept so far (a benchmark's round starts
    cold)."""
    _CONVENTIONS.clear()
    _AUCTIONS.clear()
    _TEMPLATES.clear()
    _DECLARED.clear()


def _convention(
    convention: str, overrides: dict[str, Any] | None
) -> tuple[Settings, dict[Any, Any]]:
    """The settings of a record, and the legal call tables kept for them."""
    # repr, not JSON: a tuple and a list, 1 and True, are different overrides to strict settings.
    key = (convention, repr(sorted(overrides.items())) if overrides else "")
    found = _CONVENTIONS.get(key)
    if found is None:
        try:
            found = settings_for(convention, overrides), {}
        except ConventionError as exc:
            raise RecordInvalid("convention", exc.message) from None
        if len(_CONVENTIONS) >= _CACHE_LIMIT:
            _CONVENTIONS.clear()
        _CONVENTIONS[key] = found
    return found


def _auction(
    record: DealRecord, active: tuple[int, ...], exit_level: int | None
) -> tuple[int | None, Bid | None]:
    """The declarer and the final bid of a legal auction (:class:`RecordInvalid` otherwise)."""
    key = (active, exit_level, tuple(record.auction))
    found = _AUCTIONS.get(key)
    if found is not None:
        return found
    names = record.players
    a = Auction(active, exit_level)
    for i, text in enumerate(record.auction):
        try:
            b = parse_bid(text)
        except AuctionError as exc:
            raise RecordInvalid(_bid_step(i), exc.message) from None
        speaker = a.to_speak
        if speaker is None:
            raise RecordInvalid(_bid_step(i), msg(N_("the auction was already over")))
        try:
            a = a.bid(b)
        except AuctionError as exc:
            raise RecordInvalid(
                _bid_step(i),
                msg(
                    N_("{player} said {bid}: {why}"),
                    player=names[speaker],
                    bid=bid_name(b),
                    why=exc.message,
                ),
            ) from None
    if not a.finished:
        raise RecordInvalid(
            "auction",
            msg(N_("the auction is not over: {player} is to speak"), player=names[a.to_speak or 0]),
        )

    found = a.winner, a.final_bid
    if len(_AUCTIONS) >= _CACHE_LIMIT:
        _AUCTIONS.clear()
    _AUCTIONS[key] = found
    return found


def _declared(text: str, final: Bid) -> Bid:
    """The contract played, declared after the last bid ``final`` (kept when legal)."""
    key = (text, final)
    found = _DECLARED.get(key)
    if found is None:
        try:
            found = parse_bid(text)
            verify_declaration(final, found)
        except AuctionError as exc:
            raise RecordInvalid("contract", exc.message) from None
        if len(_DECLARED) >= _CACHE_LIMIT:
            _DECLARED.clear()
        _DECLARED[key] = found
    return found


def _bid_step(i: int) -> Msg:
    return msg(N_("auction, bid {k}"), k=i + 1)


def _talon_order(text: str) -> tuple[int, ...]:
    """The talon cards in the order written: the order they are turned on an all-pass."""
    return tuple(c.index for c in in_order(text))  # one by one or grouped by suit (♣QK)


def trick_step(k: int) -> Msg:
    return msg(N_("trick {k}"), k=k)


def _play(record: DealRecord, p: Play, names: list[str]) -> list[TrickAccount]:
    fast = _play_legal(record, p)
    if fast is not None:
        return fast
    # A card that cannot be read, a trick too short or too long, an illegal card: trick by
    # trick, to name the first fault.
    accounts: list[TrickAccount] = []
    size = len(p.order)
    spellings = SPELLINGS
    for k, text in enumerate(record.play, start=1):
        if p.finished:
            raise RecordInvalid(trick_step(k), msg(N_("all ten tricks were already played")))
        talon_card = None
        if p.trick_number < len(p.talon_leads):
            talon_card = ALL_CARDS[p.talon_leads[p.trick_number]]
        try:
            cards = [
                spellings.get(tok) or Card.parse(tok) for tok in text.replace(",", " ").split()
            ]
        except CardError as exc:
            raise RecordInvalid(trick_step(k), exc.message) from None
        if len(cards) != size:
            why = msg(N_("a trick has {n} cards here, not {given}"), n=size, given=len(cards))
            raise RecordInvalid(trick_step(k), why)
        bad = p.play_trick([c.index for c in cards])
        if bad >= 0:
            _refuse(p, names, k, cards, bad, talon_card)
        trick = p.tricks[-1]
        accounts.append(
            TrickAccount(k, tuple((s, ALL_CARDS[c]) for s, c in trick), p.last_winner, talon_card)
        )
    return accounts


# Each token of a play's card, and each (seat, card) pair of an account, looked up, not built.
_INDEX: dict[str, int] = {token: card.index for token, card in SPELLINGS.items()}
_PAIRS: tuple[tuple[tuple[int, Card], ...], ...] = tuple(
    tuple((seat, card) for card in ALL_CARDS) for seat in range(4)
)
_FLAT_PAIRS: tuple[tuple[int, Card], ...] = tuple(pair for row in _PAIRS for pair in row)


def _talon_cards(talon: tuple[int, ...]) -> tuple[Card, ...]:
    return tuple(ALL_CARDS[c] for c in talon) if talon else ()


def _play_legal(record: DealRecord, p: Play) -> list[TrickAccount] | None:
    """The play of a legal record, all tricks at once (most records are legal); ``None``, with
    nothing played, at the first thing wrong, for :func:`_play` to name it."""
    index = _INDEX
    # The core that searches (dds.CORE) plays the tricks too: compiled, or this Python code.
    compiled = _compiled_core()
    if compiled:
        found = _compiled.trick_cards(record.play, index)
        if found is None:
            return None
        tricks = found
    else:
        try:
            tricks = [
                [index[tok] for tok in text.replace(",", " ").split()] for text in record.play
            ]
        except KeyError:
            return None
    first = p.trick_number
    winners = p.play_tricks(tricks, compiled=compiled)
    if winners is None:
        return None
    talon = p.talon_leads
    cards_of_trick = p.tricks
    if compiled:
        return _compiled.accounts(
            TrickAccount, cards_of_trick, first, winners, _FLAT_PAIRS, _talon_cards(talon)
        )
    pairs = _PAIRS
    return [
        TrickAccount(
            k + 1,
            tuple([pairs[s][c] for s, c in cards_of_trick[first + k]]),
            winner,
            ALL_CARDS[talon[first + k]] if first + k < len(talon) else None,
        )
        for k, winner in enumerate(winners)
    ]


def _refuse(
    p: Play, names: list[str], k: int, cards: list[Card], bad: int, talon_card: Card | None
) -> None:
    """The trick's first illegal card, in words (the cards before it are legal)."""
    seen = {  # the dealer's talon cards are not played from a hand: nobody holds them
        c: n for n, trick in enumerate(p.tricks, start=1) for s, c in trick if s in p.order
    }
    owner = {c.index: s for s in p.order for c in cards_of(p.hands[s])}
    for seat, c in p.current:
        if seat in p.order:
            owner[c] = seat
    for card in cards[:bad]:
        p.play(card.index, p.to_play)
        seen[card.index] = k
    card = cards[bad]
    seat = p.to_play
    why = why_illegal(
        p, names, seen, owner.get(card.index), seat, card, first=bad == 0, talon=talon_card
    )
    raise RecordInvalid(trick_step(k), why)


def why_illegal(
    p: Play,
    names: list[str],
    seen: dict[int, int],
    holder: int | None,
    seat: int,
    card: Card,
    *,
    first: bool,
    talon: Card | None,
) -> Msg:
    """Why a card may not be played here, in words."""
    if card.index in seen:
        return msg(
            N_("{card} was already played in trick {k}"), card=card_word(card), k=seen[card.index]
        )
    if holder is None:
        return msg(N_("nobody holds {card} (the talon or the discard)"), card=card_word(card))
    if holder != seat:
        # Who played a card is read from the hands: a card of another hand here is a card
        # played by the wrong player.
        if first and talon is None:
            return msg(
                N_(
                    "{card} is {holder}'s card, but the lead is {player}'s: played by the wrong player"
                ),
                holder=names[holder],
                card=card_word(card),
                player=names[seat],
            )
        return msg(
            N_("{card} is {holder}'s card, but {player} plays now: played by the wrong player"),
            holder=names[holder],
            card=card_word(card),
            player=names[seat],
        )
    illegal = p.why_illegal(seat, card.index)
    assert illegal is not None
    if talon is not None:
        return msg(
            N_("the talon's {talon} leads: {player} {why}"),
            talon=card_word(talon),
            player=names[seat],
            why=illegal,
        )
    return msg(N_("{player} {why}"), player=names[seat], why=illegal)


def claim_checked(
    record: DealRecord,
    p: Play,
    declarer: int | None,
    contract: Bid | None,
    taken: dict[int, int],
    names: list[str],
    t: Table,
) -> int:
    claim = record.claim
    assert claim is not None
    step = "claim"
    if declarer is None or contract is None:
        raise RecordInvalid(step, msg(N_("a claim is for games and misères, not for an all-pass")))
    if claim.by >= len(names):
        raise RecordInvalid(
            "claim.by",
            msg(
                N_("seat {seat} is out of range: the seats are 0 to {last}"),
                seat=claim.by,
                last=len(names) - 1,
            ),
        )
    if claim.by not in p.order:
        raise RecordInvalid(
            step,
            msg(N_("{player} sits out this deal and cannot claim"), player=names[claim.by]),
        )
    if p.current:
        raise RecordInvalid(step, msg(N_("a claim is made between tricks")))
    rest = 10 - p.trick_number
    if set(claim.tricks) - set(p.order):
        raise RecordInvalid(step, msg(N_("the claim gives tricks to a seat that does not play")))
    if sum(claim.tricks.values()) != rest:
        raise RecordInvalid(
            step,
            msg(
                N_("the claim gives {given} tricks, but {rest} remain"),
                given=sum(claim.tricks.values()),
                rest=rest,
            ),
        )
    more = contract != MISERE
    value = best_tricks(p, declarer, more=more)
    claimed = claim.tricks.get(declarer, 0)
    by_declarer = claim.by == declarer
    # The declarer claims what he can force (at least, or on a misère at most); a defender
    # claims what the defence can hold him to.  The best-play value decides both.
    holds = value >= claimed if by_declarer == more else value <= claimed
    if not holds:
        raise RecordInvalid(
            step,
            msg(
                N_(
                    "{player} cannot claim that: with best play the declarer takes {value} of the last {rest}"
                ),
                player=names[claim.by],
                value=value,
                rest=rest,
            ),
        )
    if more:
        # Whists are written per defender: neither may be given fewer tricks than he takes
        # by himself against the other two, whatever they do.
        for seat in p.order:
            if seat == declarer:
                continue
            own = best_tricks(p, seat, more=True)
            if claim.tricks.get(seat, 0) < own:
                raise RecordInvalid(
                    step,
                    msg(
                        N_(
                            "{player} cannot claim that: {defender} takes {value} of the last {rest} whatever the others do"
                        ),
                        player=names[claim.by],
                        defender=names[seat],
                        value=own,
                        rest=rest,
                    ),
                )
    for seat, count in claim.tricks.items():
        taken[seat] = taken.get(seat, 0) + count
    return value


def verified_entry(entry: dict[str, Any], t: Table) -> dict[str, Any]:
    """The entry, verified as the scorer will verify it (open play needs a lone whister...)."""
    try:
        verify_deal(_typed(entry), t)
    except DealError as exc:
        raise RecordInvalid(exc.field, exc.message) from None
    return entry


def _typed(entry: dict[str, Any]) -> PlayedDeal:
    """The entry as the session's model, for :func:`verify_deal` to read.

    The audit builds the entry from values it has checked, so it is not validated again
    field by field: its fields but the tricks (the type, declarer, contract, calls, open) are
    validated once a batch and kept; each record's tricks, already ints, are set on a copy.
    The model is the one validation gives (the tests compare the two).
    """
    tricks = entry.get("tricks")
    calls = entry.get("calls")
    key = (
        entry["type"],
        entry.get("declarer"),
        entry.get("contract"),
        None if calls is None else tuple(calls),
        entry.get("open", False),
        tricks is None,
    )
    found = _TEMPLATES.get(key)
    if found is None:
        deal = _ENTRY.validate_python(entry)
        if len(_TEMPLATES) >= _CACHE_LIMIT:
            _TEMPLATES.clear()
        _TEMPLATES[key] = deal
        return deal
    if tricks is None:
        return found
    return found.model_copy(update={"tricks": {int(seat): n for seat, n in tricks.items()}})


def session_entry(
    record: DealRecord,
    declarer: int | None,
    contract: Bid | None,
    outcome: Whisting | None,
    taken: dict[int, int],
    t: Table,
) -> dict[str, Any]:
    """The session-format entry of an audited deal."""
    tricks = {str(seat): taken.get(seat, 0) for seat in sorted(taken)}
    if declarer is None:
        if t.sits_out is not None:
            tricks.setdefault(str(t.sits_out), 0)
        return {"type": "raspasy", "tricks": tricks}
    if contract == MISERE:
        return {"type": "misere", "declarer": declarer, "tricks": tricks}
    assert isinstance(contract, Contract) and outcome is not None
    entry: dict[str, Any] = {"type": "game", "declarer": declarer, "contract": contract.code}
    if outcome.kind is not Kind.CHECKED:
        entry["calls"] = [str(c) for c in shortest(record.calls or [])]
    if record.open:
        entry["open"] = True
    if outcome.played:
        entry["tricks"] = tricks
    return entry


def audit_json(a: Audit, lang: str = "en") -> dict[str, Any]:
    names = a.record.players
    return {
        "format": "scorepad-audit/1",
        "verdict": "legal",
        "declarer": a.declarer,
        "contract": a.contract.code if isinstance(a.contract, Contract) else a.contract,
        "tricks": [
            {
                "number": tr.number,
                "cards": [[s, str(c)] for s, c in tr.cards],
                "winner": tr.winner,
                **({"talon": str(tr.talon)} if tr.talon else {}),
            }
            for tr in a.tricks
        ],
        "taken": {str(k): v for k, v in sorted(a.taken.items())},
        "claim_value": a.claim_value,
        "entry": a.entry,
        "players": names,
    }


def invalid_json(exc: RecordInvalid, lang: str = "en", source: str | None = None) -> dict[str, Any]:
    """The verdict on a record that breaks a rule or cannot be read: where, and why."""
    step = exc.step if exc.step is None or isinstance(exc.step, str) else exc.step.render(lang)
    return {
        "format": "scorepad-audit/1",
        **({"source": source} if source is not None else {}),
        "verdict": "illegal",
        "step": step,
        "reason": exc.message.render(lang),
        "message": exc.render(lang),
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


__all__ = [
    "FORMAT",
    "PASS",
    "Audit",
    "Begun",
    "DealRecord",
    "RecordInvalid",
    "audit",
    "audit_json",
    "begin",
    "contract_name",
    "invalid_json",
    "parse_record",
]
