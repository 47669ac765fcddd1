"""One posting ledger under every scoring family but the pulya (central-european §9.2).

A deal becomes a list of :class:`Posting` values, each an ``(account, amount)`` with the sentence
that says why; a sheet is the running sum of the postings per account.  Editing or voiding a past
deal replays the postings, as the pulya engine replays its writings.

Accounts are small frozen values: ``Account("bula", 2)`` is seat 2's bula, ``Account("supe", 0, 1)``
the supe seat 0 writes on seat 1, ``Account("pot")`` the pot.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ...core.i18n import Msg
from ...core.numbers import Number, normal


@dataclass(frozen=True, slots=True, order=True)
class Account:
    """A column of the sheet: ``kind`` (bula, supe, refe, kassa, chips, pot, cash) and its seats."""

    kind: str
    a: int = -1
    b: int = -1


@dataclass(frozen=True, slots=True)
class Posting:
    """``amount`` written into ``account``, and why."""

    account: Account
    amount: Number
    why: Msg


@dataclass(slots=True)
class Ledger:
    """Running sums of postings per account (absent accounts are 0)."""

    totals: dict[Account, Number] = field(default_factory=dict)

    def post(self, postings: Iterable[Posting]) -> None:
        for p in postings:
            self.totals[p.account] = normal(self.totals.get(p.account, 0) + p.amount)

    def get(self, kind: str, a: int = -1, b: int = -1) -> Number:
        return self.totals.get(Account(kind, a, b), 0)

    def row(self, kind: str, n: int) -> list[Number]:
        """``[account(kind, 0), …, account(kind, n-1)]``."""
        return [self.get(kind, i) for i in range(n)]

    def square(self, kind: str, n: int) -> list[list[Number]]:
        """``m[a][b]`` = account(kind, a, b): what ``a`` wrote on (or received from) ``b``."""
        return [[self.get(kind, a, b) for b in range(n)] for a in range(n)]


def explanations(postings: Sequence[Posting]) -> list[Msg]:
    """The sentences of a deal, each once (a transfer posts twice with one reason)."""
    out: list[Msg] = []
    for i, p in enumerate(postings):
        if i == 0 or postings[i - 1].why != p.why:  # equal, not only the same object
            out.append(p.why)
    return out
