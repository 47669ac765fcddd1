"""The pot sheet's figures, without any widget: the pot and each player's cash before play (the
ante), each deal's transfers and the running totals after it, and each player's standing now.

Every figure is a running sum of the engine's postings (the ledger); the standing is the engine's
own result (cash + a share of the pot, or the cash alone when the pot is carried over).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.i18n import Msg
from ...core.numbers import Number, normal
from ...scoring.ledger.families import FamilyScored, play_in_place, replay_family
from ...scoring.ledger.ledger import explanations
from ...scoring.ledger.pot import PotTable
from .form import title


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
    # The running totals are the table's own after each deal (a re-ante is the deal's).
    table_now = replay_family(scored.session.model_copy(update={"deals": [], "struck": ()})).table
    assert isinstance(table_now, PotTable)
    cash, pot = tuple(table_now.cash), table_now.pot
    start_cash, start_pot = cash, pot
    rows: list[SheetRow] = []
    deals: list[Any] = list(scored.session.deals)
    places = scored.session.places
    for d in scored.deals:
        play_in_place(table_now, scored.session, places[d.index], deals[d.index])
        after_cash, after_pot = tuple(table_now.cash), table_now.pot
        rows.append(
            SheetRow(
                places[d.index] + 1,  # as said at the table: a voided deal keeps its number
                title(deals[d.index], names),
                tuple(explanations(d.postings)),
                tuple(normal(a - b) for a, b in zip(after_cash, cash, strict=True)),
                normal(after_pot - pot),
                after_cash,
                after_pot,
            )
        )
        cash, pot = after_cash, after_pot
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
