"""What one session says about each of its players: money, result and counts, in the family's terms.

The store writes this record with every action (beside the session's other caches), so that the
statistics, the ratings and a season's debts read one row per session.  A record is plain data
(JSON): the numbers are exact (an int, or a Fraction written ``"-176/3"``).

The counts, by family:

- the pulya: ``declared:L``, ``made:L``, ``failed:L`` for games of level L; ``misere_made``,
  ``misere_caught``; ``allpass_tricks``; the whists written and received;
- the bula: ``declared:B`` / ``made:B`` / ``failed:B`` by bid (2 pik … 7 sans), ``refe_rounds``
  (the refe written for him: an all-pass, or a pik nobody contra'd, that the rules let write one), ``bula_closed_first`` (1 for the player whose bula
  reached zero first);
- Prefa (kassa): ``declared:C`` / ``made:C`` / ``failed:C`` by contract (``7S``), and
  ``kassa_closed_first``;
- the pot and direct games: ``declared:K`` / ``made:K`` / ``failed:K`` by kind of game.

A declared game counts *made* or *failed* by what the engine wrote for it, never by the money it
moved (a Prefa declarer who makes 6♠ against two whisters loses chips on the deal, and a bula
declarer may write supe on the way): the pulya's remiz in the declarer's gora; the bula's own
bula going down (its pot form: the declarer taking from the pot); the Prefa declarer's kassa not
going up (G4); a pot game by the engine's own rule for its kind (six tricks, none in a Bettel,
ten in a Durchmarsch; a concession is a game given up).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..core.numbers import Number, normal
from .ledger.bula import BulaGame, BulaTable, PikNoContra
from .ledger.families import (
    FamilyScored,
    play_in_place,
    start_table,  # the same start as the replay's
)
from .ledger.kassa import KassaGame, KassaTable
from .ledger.ledger import Account, Posting
from .ledger.pot import Concede, PotGame, PotNonSuit, SwabianGame
from .peek import FAMILIES
from .pulya.score import Scored
from .pulya.session import Game, Misere, Raspasy
from .pulya.settlement import minor_digits, settle

# 2: made and failed by the engine's writing of the deal, not by the money it moved (a record of
# version 1 is recounted when read).
VERSION = 2


@dataclass(frozen=True, slots=True)
class SeatRecord:
    money: int  # minor units, + won, − lost
    result: Number  # in the family's own unit: whists (pulya), supe (bula), chips, cash
    counts: dict[str, int] = field(default_factory=dict)
    written: Number = 0  # the pulya: whists written on the others
    received: Number = 0  # the pulya: whists the others wrote on him


@dataclass(frozen=True, slots=True)
class SessionRecord:
    family: str
    deals: int
    finished: bool
    currency: str
    digits: int
    seats: tuple[SeatRecord, ...]
    payments: tuple[tuple[int, int, int], ...]  # (payer, payee, minor units)

    def to_json(self) -> str:
        return json.dumps(
            {
                "v": VERSION,
                "family": self.family,
                "deals": self.deals,
                "finished": self.finished,
                "currency": self.currency,
                "digits": self.digits,
                "seats": [
                    {
                        "money": s.money,
                        "result": str(s.result),
                        "counts": dict(sorted(s.counts.items())),
                        "written": str(s.written),
                        "received": str(s.received),
                    }
                    for s in self.seats
                ],
                "payments": [list(p) for p in self.payments],
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @staticmethod
    def from_json(text: str) -> SessionRecord | None:
        """The record, or None where it is missing or of another version (then it is recounted)."""
        try:
            data: dict[str, Any] = json.loads(text)
            if data.get("v") != VERSION:
                return None
            return SessionRecord(
                data["family"],
                int(data["deals"]),
                bool(data["finished"]),
                data["currency"],
                int(data["digits"]),
                tuple(
                    SeatRecord(
                        int(s["money"]),
                        normal(Fraction(s["result"])),
                        {k: int(v) for k, v in s["counts"].items()},
                        normal(Fraction(s["written"])),
                        normal(Fraction(s["received"])),
                    )
                    for s in data["seats"]
                ),
                tuple((int(a), int(b), int(c)) for a, b, c in data["payments"]),
            )
        except (ValueError, TypeError, KeyError, ZeroDivisionError):
            return None


def _bump(counts: dict[str, int], key: str, by: int = 1) -> None:
    counts[key] = counts.get(key, 0) + by


def pulya_record(scored: Scored) -> SessionRecord:
    """The record of a pulka, from its sheet and the settlement the cash-out shows."""
    session = scored.session
    st = settle(scored.sheet, scored.settings, price=session.price, currency=session.currency)
    n = len(session.players)
    sheet = scored.sheet
    counts: list[dict[str, int]] = [{} for _ in range(n)]
    for deal, result in zip(session.deals, scored.deals, strict=True):
        if isinstance(deal, Game):
            level = int(deal.contract.level)
            c = counts[deal.declarer]
            _bump(c, f"declared:{level}")
            # A failed game always writes its remiz into the declarer's gora.
            _bump(
                c, f"failed:{level}" if result.writing.gora[deal.declarer] > 0 else f"made:{level}"
            )
        elif isinstance(deal, Misere):
            caught = deal.tricks.get(deal.declarer, 0) > 0
            _bump(counts[deal.declarer], "misere_caught" if caught else "misere_made")
        elif isinstance(deal, Raspasy):
            for seat, taken in deal.tricks.items():
                _bump(counts[seat], "allpass_tricks", taken)
    seats = tuple(
        SeatRecord(
            st.money[p],
            st.balance[p],
            counts[p],
            normal(sum((sheet.whists[p][q] for q in range(n) if q != p), 0)),
            normal(sum((sheet.whists[q][p] for q in range(n) if q != p), 0)),
        )
        for p in range(n)
    )
    return SessionRecord(
        "pulya",
        len(session.deals),
        scored.finished,
        session.currency,
        st.minor_digits,
        seats,
        tuple((pay.payer, pay.payee, pay.amount) for pay in st.payments),
    )


def _own(postings: list[Posting], kind: str, seat: int) -> Fraction:
    return sum(
        (Fraction(p.amount) for p in postings if p.account == Account(kind, seat)), Fraction(0)
    )


def _made(deal: Any, seat: int, postings: list[Posting]) -> bool | None:
    """Whether the declarer at ``seat`` made the game ``deal``, by the engine's writing of it."""
    if isinstance(deal, BulaGame | PikNoContra):
        bula = _own(postings, "bula", seat)
        if bula:
            return bula < 0  # D5: a made game takes the bula down, a failed one up
        cash = _own(postings, "cash", seat)  # D12, the pot form: made takes from the pot
        return None if not cash else cash > 0
    if isinstance(deal, KassaGame):
        return _own(postings, "kassa", seat) <= 0  # G4: only a failure puts his kassa up
    if isinstance(deal, PotGame):  # the engine's rule (§9.3): six tricks, or nobody plays
        dropped = all(r == "drop" for r in deal.defence.values())
        return dropped or (deal.tricks or {}).get(seat, 0) >= 6
    if isinstance(deal, PotNonSuit):  # C2
        return deal.tricks == (0 if deal.contract in ("bettel", "plauderer") else 10)
    if isinstance(deal, SwabianGame):  # E2–E4
        if deal.bid == 6:
            return deal.tricks == 0
        if deal.bid == 7:
            return deal.tricks == 10
        return deal.tricks >= (7 if deal.bid == 2 else 6) + (1 if deal.hand else 0)
    if isinstance(deal, Concede):  # B7: the soloist gives up
        return False
    return None


def _kind(deal: Any) -> str | None:
    """How a declared game of a ledger family is counted, or None for a deal nobody declared."""
    if getattr(deal, "declarer", None) is None:
        return None
    if isinstance(deal, PikNoContra):
        return "2"  # a pik (bid 2) that nobody contra'd: declared, and played or not by the setting
    if hasattr(deal, "bid"):
        return f"{deal.bid}{'h' if getattr(deal, 'hand', False) else ''}"
    if hasattr(deal, "contract"):
        return str(deal.contract)
    if isinstance(deal, Concede):
        return "concede"
    if hasattr(deal, "suit"):
        return f"{deal.type}:{deal.suit}"
    return str(deal.type)


def family_record(scored: FamilyScored) -> SessionRecord:
    """The record of a game of a ledger family, from a replay deal by deal."""
    session = scored.session
    n = len(session.players)
    counts: list[dict[str, int]] = [{} for _ in range(n)]
    before = [Fraction(0)] * n
    closed_first: int | None = None
    over = scored.results_over_deals()
    replay = _Replay(scored)
    for place, deal, after in zip(session.places, session.deals, over, strict=True):
        postings = replay.play(place, deal)
        kind = _kind(deal)
        if kind is not None:
            seat: int = deal.declarer  # type: ignore[union-attr]  # _kind saw a declarer
            _bump(counts[seat], f"declared:{kind}")
            made = _made(deal, seat, postings)
            if made is None:  # no rule of its own: by the result's change
                change = Fraction(after[seat]) - before[seat]
                made = None if change == 0 else change > 0
            if made is not None:
                _bump(counts[seat], f"made:{kind}" if made else f"failed:{kind}")
        # A refe as the engine writes it: not past the agreed number of rounds or with a bula under
        # the hat (D8), and also for a pik nobody contra'd where the setting says so (D9).
        for posting in postings:
            if posting.account.kind == "refe" and posting.amount > 0:
                _bump(counts[posting.account.a], "refe_rounds")
        if closed_first is None:
            closed_first = replay.closed()
        before = [Fraction(x) for x in after]
    if closed_first is not None:
        key = "bula_closed_first" if scored.family == "bula" else "kassa_closed_first"
        _bump(counts[closed_first], key)
    money = scored.money_units()
    results = scored.results()
    seats = tuple(SeatRecord(money[p], results[p], counts[p]) for p in range(n))
    return SessionRecord(
        scored.family,
        len(session.deals),
        scored.finished,
        session.currency,
        minor_digits(session.currency),
        seats,
        tuple((pay.payer, pay.payee, pay.amount) for pay in scored.payments()),
    )


class _Replay:
    """A second replay that tells who closed his bula or kassa first (reached zero)."""

    def __init__(self, scored: FamilyScored) -> None:
        self.session = scored.session
        self.table = start_table(scored.settings, scored.session)
        self.kind = (
            "bula"
            if isinstance(self.table, BulaTable)
            else "kassa"
            if isinstance(self.table, KassaTable)
            else None
        )

    def play(self, place: int, deal: Any) -> list[Posting]:
        """The deal's postings, as the engine writes them (dealt by its place's dealer)."""
        return list(play_in_place(self.table, self.session, place, deal))

    def closed(self) -> int | None:
        """The one player whose bula or kassa is at zero now, if there is exactly one."""
        if self.kind is None:
            return None
        row = self.table.ledger.row(self.kind, self.table.n)
        closed = [p for p, v in enumerate(row) if v <= 0]
        return closed[0] if len(closed) == 1 else None


#: Each family's record of a scored session, by the family's name (as its engine and its report
#: are chosen: scoring/family.py, report/__init__.py).
RECORDS: dict[str, Callable[[Any], SessionRecord]] = {
    "pulya": pulya_record,
    **{name: family_record for name in FAMILIES},
}


def record_of(scored: Scored | FamilyScored) -> SessionRecord:
    """The record of a scored session of any family."""
    return RECORDS[scored.family](scored)


__all__ = ["SeatRecord", "SessionRecord", "family_record", "pulya_record", "record_of"]
