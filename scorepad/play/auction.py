"""The auction (торговля), §1.3 and KOD §3.3: a ladder of bids, a pass is final.

6♠ < 6♣ < 6♦ < 6♥ < 6NT < 7♠ … < 8NT < misère < 9♠ … < 10NT.  Each bid must be higher than
the last; misère only as a player's first bid, and it stays his last (a nine overcalls it);
when everybody passes, the deal is an all-pass (raspasy).  After a run of all-passes the
lowest bid is the convention's exit level (§9.2).

The API is the verify/can/do triad: :func:`verify_bid` raises :class:`AuctionError` with a
sentence, :func:`can_bid` answers yes or no, :meth:`Auction.bid` returns the next state.

>>> a = Auction(bidders=(1, 2, 0))
>>> a = a.bid(parse_bid("6S")).bid(parse_bid("7S")).bid(PASS).bid(PASS)
>>> a.finished, a.winner, str_bid(a.final_bid)
(True, 2, '7♠')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..core.i18n import N_, Msg, ScorepadError, msg
from ..scoring.contract import Contract, Trump
from ..scoring.pulya.legal import is_below_exit
from .cards import shown

PASS = "pass"
MISERE = "misere"
Bid = Contract | str  # a Contract, MISERE or PASS
MISERE_RANK = 89  # ladder ranks are doubled: misère sits between 8NT (88) and 9♠ (90)


class AuctionError(ScorepadError):
    """A bid that may not be said now, or a word that is not a bid."""


_BID = re.compile(r"(10|[6-9])\s*(S|C|D|H|NT|♠|♣|♦|♥|БК|БЕЗ)", re.IGNORECASE)
_TRUMPS = {"S": "S", "♠": "S", "C": "C", "♣": "C", "D": "D", "♦": "D", "H": "H", "♥": "H", "NT": "NT",
           "БК": "NT", "БЕЗ": "NT"}  # fmt: skip


def parse_bid(text: str) -> Bid:
    """``pass``/``пас``, ``misere``/``мизер``, or a contract: ``7S``, ``7♠``, ``6NT``, ``6БК``."""
    found = _BIDS.get(text)  # a night's records say the same few words
    if found is None:
        found = _parse_bid(text)
        if len(_BIDS) < 1024:
            _BIDS[text] = found
    return found


_BIDS: dict[str, Bid] = {}


def _parse_bid(text: str) -> Bid:
    t = text.strip()
    low = t.lower()
    if low in ("pass", "пас"):
        return PASS
    if low in ("misere", "misère", "мизер"):
        return MISERE
    m = _BID.fullmatch(t.upper())
    if m:
        return Contract(int(m.group(1)), Trump(_TRUMPS[m.group(2).upper()]))
    raise AuctionError(
        msg(N_("'{bid}' is not a bid: pass, misere, or a contract like 7S"), bid=shown(text))
    )


def rank(bid: Bid) -> int:
    """The bid's place on the ladder (doubled, so that misère fits between 8NT and 9♠)."""
    if isinstance(bid, Contract):
        return 2 * bid.rank
    if bid == MISERE:
        return MISERE_RANK
    raise ValueError("a pass has no rank")


def str_bid(bid: Bid | None) -> str:
    if isinstance(bid, Contract):
        return bid.symbol
    return {MISERE: "misère", PASS: "pass"}.get(bid or "", "-")


def bid_name(bid: Bid) -> str | Msg:
    if isinstance(bid, Contract):
        from ..scoring.pulya.table import contract_name

        return contract_name(bid)
    return msg(N_("misère")) if bid == MISERE else msg(N_("pass"))


@dataclass(frozen=True, slots=True)
class Auction:
    """An auction in progress: who bids (in speaking order, first hand first) and what was said."""

    bidders: tuple[int, ...]
    exit_level: int | None = None  # after all-passes: the lowest contract allowed
    said: tuple[tuple[int, Bid], ...] = ()
    # Derived once per state (an auction is read far more often than it grows):
    passed: frozenset[int] = field(init=False)
    finished: bool = field(init=False)
    to_speak: int | None = field(init=False)

    def __post_init__(self) -> None:
        passed = frozenset(seat for seat, b in self.said if b == PASS)
        n = len(self.bidders)
        finished = len(passed) == n
        if len(passed) == n - 1:
            last = next(s for s in self.bidders if s not in passed)
            finished = any(seat == last for seat, b in self.said if b != PASS)
        to_speak = None
        if not finished:
            if not self.said:
                to_speak = self.bidders[0]
            else:
                i = self.bidders.index(self.said[-1][0])
                to_speak = next(
                    (
                        self.bidders[(i + k) % n]
                        for k in range(1, n + 1)
                        if self.bidders[(i + k) % n] not in passed
                    ),
                    None,
                )
        object.__setattr__(self, "passed", passed)
        object.__setattr__(self, "finished", finished)
        object.__setattr__(self, "to_speak", to_speak)

    @property
    def highest(self) -> tuple[int, Bid] | None:
        for seat, b in reversed(self.said):
            if b != PASS:
                return seat, b
        return None

    @property
    def winner(self) -> int | None:
        """The declarer, once the auction is over (None: all passed, raspasy)."""
        if not self.finished:
            return None
        top = self.highest
        return top[0] if top else None

    @property
    def final_bid(self) -> Bid | None:
        top = self.highest
        return top[1] if top and self.finished else None

    def bid(self, b: Bid) -> Auction:
        """The auction after the next speaker says ``b``."""
        verify_bid(self, b)
        seat = self.to_speak
        assert seat is not None
        return Auction(self.bidders, self.exit_level, (*self.said, (seat, b)))


def verify_bid(a: Auction, b: Bid) -> None:
    """Raise :class:`AuctionError` saying why ``b`` may not be said now."""
    seat = a.to_speak
    if seat is None:
        raise AuctionError(msg(N_("the auction is over")))
    if b == PASS:
        return
    own = [x for s, x in a.said if s == seat]
    if MISERE in own:
        raise AuctionError(msg(N_("a misère stays a misère: after it only a pass")))
    if b == MISERE and own:
        raise AuctionError(msg(N_("misère can only be a player's first bid")))
    level = b.level if isinstance(b, Contract) else None  # a misère: between 8NT and 9♠
    if a.exit_level is not None and is_below_exit(a.exit_level, level):
        raise AuctionError(
            msg(N_("after the all-passes the lowest bid is {level}"), level=f"{a.exit_level}♠")
        )
    top = a.highest
    if top is not None and rank(b) <= rank(top[1]):
        raise AuctionError(
            msg(
                N_("{bid} is not higher than {last}: a bid must be higher than the last"),
                bid=bid_name(b),
                last=bid_name(top[1]),
            )
        )


def can_bid(a: Auction, b: Bid) -> bool:
    try:
        verify_bid(a, b)
    except AuctionError:
        return False
    return True


ALL_BIDS: tuple[Bid, ...] = tuple(
    sorted([Contract(level, t) for level in range(6, 11) for t in Trump] + [MISERE], key=rank)
)


def legal_bids(a: Auction) -> list[Bid]:
    """Everything the next speaker may say, pass first then up the ladder."""
    if a.to_speak is None:
        return []
    return [PASS, *(b for b in ALL_BIDS if can_bid(a, b))]


def verify_declaration(final: Bid, declared: Bid) -> None:
    """After the talon: the contract is at least the last bid; a misère stays a misère."""
    if final == MISERE or declared == MISERE:
        if final != declared:
            raise AuctionError(
                msg(N_("a misère bid is played as a misère, and only a misère bid is"))
            )
        return
    if declared == PASS or rank(declared) < rank(final):
        raise AuctionError(
            msg(
                N_("the contract {declared} is lower than the bid {final}"),
                declared=bid_name(declared),
                final=bid_name(final),
            )
        )
