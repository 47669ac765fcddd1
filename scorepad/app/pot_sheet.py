"""The pot sheet's figures, without any widget: the pot and each player's cash before play (the
ante), each deal's transfers and the running totals after it, and each player's standing now.

Every figure is a running sum of the engine's postings (the ledger); the standing is the engine's
own result (cash + a share of the pot, or the cash alone when the pot is carried over).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..i18n import Msg
from ..numbers import Number, normal
from ..scoring.families import FamilyScored, replay_family
from ..scoring.ledger import explanations
from ..scoring.pot import PotTable
from .pot_form import title


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One deal as the sheet shows it: what it is, why money moved, and the totals after it."""

    number: int  # from 1, as the players count
    title: Msg
    explain: tuple[Msg, ...]
    cash_change: tuple[Number, ...]
    pot_change: Number
    cash: tuple[Number, ...]
    pot: Number


@dataclass(frozen=True, slots=True)
class PotSheet:
    names: tuple[str, ...]
    has_pot: bool  # the pot family (the direct family moves money between players only)
    carry: bool  # the pot stays for the next session: the standing is the cash alone
    ante: Number  # what each player put in before the first deal (0: the pot starts empty)
    start_pot: Number
    start_cash: tuple[Number, ...]
    rows: tuple[SheetRow, ...]
    pot: Number
    cash: tuple[Number, ...]
    standing: tuple[Number, ...]


def pot_sheet(scored: FamilyScored) -> PotSheet:
    table = scored.table
    assert isinstance(table, PotTable)
    names = tuple(scored.session.players)
    n = len(names)
    empty = replay_family(scored.session.model_copy(update={"deals": []})).table
    assert isinstance(empty, PotTable)
    cash = list(empty.cash)
    pot = empty.pot
    start_cash, start_pot = tuple(cash), pot
    rows: list[SheetRow] = []
    deals: list[Any] = list(scored.session.deals)
    for d in scored.deals:
        change: list[Number] = [0] * n
        pot_change: Number = 0
        for p in d.postings:
            if p.account.kind == "cash":
                change[p.account.a] = normal(change[p.account.a] + p.amount)
            elif p.account.kind == "pot":
                pot_change = normal(pot_change + p.amount)
        cash = [normal(c + x) for c, x in zip(cash, change, strict=True)]
        pot = normal(pot + pot_change)
        rows.append(
            SheetRow(
                d.index + 1,
                title(deals[d.index], names),
                tuple(explanations(d.postings)),
                tuple(change),
                pot_change,
                tuple(cash),
                pot,
            )
        )
    return PotSheet(
        names=names,
        has_pot=scored.family == "pot",
        carry=table.settings.pot_remainder == "carry",
        ante=-start_cash[0] if start_cash else 0,
        start_pot=start_pot,
        start_cash=start_cash,
        rows=tuple(rows),
        pot=table.pot,
        cash=tuple(table.cash),
        standing=scored.results(),
    )
