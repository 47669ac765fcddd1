"""The output of ``scorepad settle``: the spec's JSON (``scorepad-settlement/1``) and a readable sheet.

Only formatting lives here; every number comes from :mod:`scorepad.scoring.pulya.score` and
:mod:`scorepad.scoring.pulya.settlement`, every sentence from the catalogs.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from babel.numbers import format_currency, get_currency_symbol

from ..core.i18n import N_, Catalog, Msg, catalog, msg, whist_count
from ..core.numbers import Number, json_fraction, to_text, whist_figure
from ..scoring.pulya.score import Scored, batch
from ..scoring.pulya.session import Deal, Game, Misere, Raspasy
from ..scoring.pulya.settlement import Payment, Settlement, format_money, settle
from ..scoring.pulya.table import contract_name

FORMAT = "scorepad-settlement/1"


def whists_of(value: Number) -> Msg:
    """``1 whist``, ``−176⅔ whists``, ``5 вистов``: the count agrees with the number itself."""
    return whist_count(value)


def money_text(units: int, digits: int, currency: str, lang: str) -> str:
    """Money in the language's own format (Babel): ``87,33 ₽`` in Russian, ``RUB 87.33`` in English."""
    amount = Decimal(units).scaleb(-digits)
    text = format_currency(amount, currency, locale=lang)
    symbol = get_currency_symbol(currency, locale=lang)
    if symbol.isalpha():  # a code, not a sign: "RUB 87.33" reads better than "RUB87.33"
        text = re.sub(rf"{re.escape(symbol)}(?=\d)", symbol + "\u00a0", text)
    return text.replace("-", "−")  # the minus of the whists beside it


@dataclass(frozen=True, slots=True)
class CashOutRow:
    """One player's line of the cash-out, every figure formatted for ``lang``."""

    name: str
    pool: str
    gora: str
    written: str  # the whists he wrote on the others
    received: str  # the whists the others wrote on him
    balance: str
    money: str
    closed: bool


@dataclass(frozen=True, slots=True)
class CashOut:
    """The cash-out screen and the text sheet's last part: one formatting for both."""

    finished: bool
    status: str
    rows: tuple[CashOutRow, ...]
    balances: tuple[str, ...]  # "Anna: −176⅔ whists, −87,33 ₽"
    payments: tuple[str, ...]  # "Boris → Anna: 87,33 ₽"
    # Where the rounding to the minor unit had to move a kopeck so that the total is zero, one
    # line saying so ("… Anna −84,66 ₽, not −84,67 ₽"); None where every amount is as rounded.
    note: str | None = None


def payment_lines(
    cat: Catalog, names: Sequence[str], pays: Iterable[Payment], money: Callable[[int], str]
) -> tuple[str, ...]:
    """Who pays whom, a line a payment ("Boris → Anna: 87,33 ₽"): every family's cash-out."""
    return tuple(
        cat.render_args(
            N_("{payer} → {payee}: {amount}"),
            payer=names[pay.payer],
            payee=names[pay.payee],
            amount=money(pay.amount),
        )
        for pay in pays
    )


def cash_out(scored: Scored, lang: str = "en") -> CashOut:
    cat = catalog(lang)
    names = list(scored.session.players)
    st = settlement_of(scored)
    sheet = scored.sheet
    currency = scored.session.currency
    n = len(names)
    target = scored.session.pool_target

    def money(units: int) -> str:
        return money_text(units, st.minor_digits, currency, lang)

    rows = tuple(
        CashOutRow(
            name=names[p],
            pool=whist_figure(sheet.pool[p]),
            gora=whist_figure(sheet.gora[p]),
            written=whist_figure(sum((sheet.whists[p][q] for q in range(n) if q != p), 0)),
            received=whist_figure(sum((sheet.whists[q][p] for q in range(n) if q != p), 0)),
            balance=whist_figure(st.balance[p]),
            money=money(st.money[p]),
            closed=sheet.pool[p] >= target,
        )
        for p in range(n)
    )
    balances = tuple(
        cat.render_args(
            N_("{player}: {whists}, {money}"),
            player=names[p],
            whists=whists_of(st.balance[p]),
            money=money(st.money[p]),
        )
        for p in range(n)
    )
    payments = payment_lines(cat, names, st.payments, money)
    note = None
    moved = balanced_away(st.balance, scored.session.price, st.minor_digits, st.money)
    if moved is not None:
        p, plain = moved
        note = cat.render_args(
            N_("Rounded so that the total is zero: {player} {money}, not {plain}."),
            player=names[p],
            money=money(st.money[p]),
            plain=money(plain),
        )
    status = cat.gettext(
        N_("The game is finished.")
        if scored.finished
        else N_("The game is not finished: if we stopped now.")
    )
    return CashOut(scored.finished, status, rows, balances, payments, note)


def balanced_away(
    balance: Sequence[Number], price: Decimal | Fraction, digits: int, money: Sequence[int]
) -> tuple[int, int] | None:
    """The first player whose amount is not his own balance rounded to the nearest minor unit
    (the largest-remainder rounding moved it, so that the total is zero), with that rounding.

    >>> from fractions import Fraction as F
    >>> balanced_away([F(-254, 3), F(-482, 3), F(736, 3)], Decimal(1), 2, [-8466, -16067, 24533])
    (0, -8467)
    >>> balanced_away([-10, 10], Decimal(1), 2, [-1000, 1000]) is None
    True
    """
    unit = Fraction(price) * 10**digits
    for p, (b, m) in enumerate(zip(balance, money, strict=True)):
        exact = Fraction(b) * unit
        plain = math.floor(exact + Fraction(1, 2))  # halves up, as a scorer rounds by hand
        if plain != m:
            return p, plain
    return None


def settlement_of(scored: Scored) -> Settlement:
    session = scored.session
    return settle(scored.sheet, scored.settings, price=session.price, currency=session.currency)


def _document(scored: Scored, lang: str, numbers: Sequence[int] | None = None) -> dict[str, Any]:
    """The settlement document in the spec's field order, its numbers as the engine holds them
    (int or Fraction): the JSON encoder writes them (:data:`_encode`).  ``index`` is the deal's
    number less one: a voided deal's number is left out, never given to the next deal."""
    cat = catalog(lang)
    render = cat.render
    st = settlement_of(scored)
    sheet = scored.sheet
    return {
        "format": FORMAT,
        "players": list(scored.session.players),
        "convention": scored.session.convention,
        "deals": [
            {
                "index": numbers[r.index] - 1 if numbers is not None else r.index,
                "pool": r.writing.pool,
                "gora": r.writing.gora,
                "whists": r.writing.whists,
                "explain": [render(m) for m in r.writing.explain or ()],
            }
            for r in scored.deals
        ],
        "sheet": {"pool": sheet.pool, "gora": sheet.gora, "whists": sheet.whists},
        "finished": scored.finished,
        "balance": [to_text(b) for b in st.balance],
        "money": [format_money(m, st.minor_digits) for m in st.money],
        "payments": [
            {"from": p.payer, "to": p.payee, "amount": format_money(p.amount, st.minor_digits)}
            for p in st.payments
        ],
    }


# Whole numbers go through the encoder as they are; a Fraction is converted once, by the hook.
_encode = json.JSONEncoder(
    ensure_ascii=False, separators=(", ", ": "), default=json_fraction
).encode


def to_data(scored: Scored, lang: str = "en") -> dict[str, Any]:
    """The settlement document as plain data, in the spec's field order."""
    data: dict[str, Any] = json.loads(to_json_text(scored, lang))
    return data


def to_json_text(scored: Scored, lang: str = "en", numbers: Sequence[int] | None = None) -> str:
    """The JSON document, one deal per line; the same session gives the same bytes."""
    with batch():  # tens of thousands of sentences, freed by reference counting
        data = _document(scored, lang, numbers)
    return document_text(data)


def document_text(data: dict[str, Any]) -> str:
    """A settlement document as text: one deal per line, every other field on its own line."""
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key == "deals" and value:
            lines.append('  "deals": [')
            last = len(value) - 1
            lines.extend(f"    {_encode(d)}{',' if j < last else ''}" for j, d in enumerate(value))
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {_encode(key)}: {_encode(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


# --- the readable sheet's layout, every family's (report/ledger.py draws its columns in it) ----


def deal_lines(
    cat: Catalog, deals: Iterable[tuple[int, Iterable[Msg]]], numbers: Sequence[int] | None
) -> list[str]:
    """Each deal by its number and its explanation, a line a sentence, then a blank line.

    Deals are counted from 1, as on every screen (the JSON keeps its 0-based index); ``numbers``:
    each live deal's number as said at the table (a voided deal keeps its number)."""
    out: list[str] = []
    for index, explain in deals:
        n = numbers[index] if numbers is not None else index + 1
        out.append(cat.render_args(N_("Deal {n}"), n=n))
        out.extend(f"  {cat.render(m)}" for m in explain)
    out.append("")
    return out


def column_lines(rows: list[list[str]], names: Sequence[str]) -> list[str]:
    """The sheet's columns, a line a row.  A column is as wide as the widest name, and wider
    where one of its cells needs it: a long header ("supe on Charlotte", "στον παίκτη Anna")
    never runs into the next one (issue 38 item 13)."""
    width = max(12, *(len(x) for x in names)) + 2
    widths = [max(width, *(len(row[c]) + 2 for row in rows)) for c in range(len(rows[0]))]
    return [
        "".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]


def closing_lines(cat: Catalog, payments: Sequence[str], note: str | None) -> list[str]:
    """Who pays whom, and the rounding's note: the end of every family's sheet."""
    _ = cat.gettext
    out: list[str] = []
    if payments:
        out += ["", _("Payments:"), *("  " + line for line in payments)]
    if note:
        out += ["", note]
    return out


def to_text_sheet(
    scored: Scored,
    lang: str = "en",
    *,
    explain: bool = True,
    numbers: Sequence[int] | None = None,
) -> str:
    """A readable sheet: the deals with their explanations, the scorepad, balances and payments.

    ``numbers``: each live deal's number as said at the table (a stored session's journal, where
    a voided deal keeps its number); a plain session file counts its deals from 1.
    """
    cat = catalog(lang)
    _ = cat.gettext
    names = list(scored.session.players)
    sheet = scored.sheet
    out: list[str] = []
    if explain:
        with batch():
            out += deal_lines(
                cat, ((r.index, r.writing.explain or ()) for r in scored.deals), numbers
            )
    head = [
        _("Player"),
        _("Pulya"),
        _("Gora"),
        *(cat.render_args(N_("on {player}"), player=n) for n in names),
    ]
    rows = [head]
    for p, name in enumerate(names):
        rows.append(
            [
                name,
                whist_figure(sheet.pool[p]),
                whist_figure(sheet.gora[p]),
                *("—" if q == p else whist_figure(sheet.whists[p][q]) for q in range(len(names))),
            ]
        )
    out += column_lines(rows, names)
    out.append("")
    cash = cash_out(scored, lang)
    out.append(cash.status)
    out.extend(cash.balances)
    out += closing_lines(cat, cash.payments, cash.note)
    return "\n".join(out) + "\n"


def deal_title(deal: Deal, names: list[str]) -> Msg:
    """What a deal was, in a few words (``Boris: 8♣``, ``Vera: misère``, ``All pass``).

    Shown above every deal in History, voided ones too: the explanation alone can miss the
    contract (a deal that only helps a closed pulya explains only the help).
    """
    if isinstance(deal, Game):
        return msg(
            N_("{player}: {contract}"),
            player=names[deal.declarer],
            contract=contract_name(deal.contract),  # "9БК" above a line that says 9БК
        )
    if isinstance(deal, Misere):
        return msg(N_("{player}: misère"), player=names[deal.declarer])
    if isinstance(deal, Raspasy):
        return msg(N_("All pass"))
    return msg(N_("Correction"))
