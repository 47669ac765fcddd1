"""`scorepad settle` for the ledger families (bula, kassa): the JSON document and a readable sheet.

Only formatting lives here; every number comes from :mod:`scorepad.scoring.ledger.families`, every
sentence from the catalogs.  The JSON is ``scorepad-settlement/1`` with a ``family`` field, each
deal's postings, and the family's sheet (docs/session-format.md, "Other families").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.i18n import N_, Catalog, catalog
from ..core.numbers import Number, to_json, to_text, whist_figure
from ..scoring.ledger.bula import BulaTable
from ..scoring.ledger.families import FamilyScored
from ..scoring.ledger.ledger import Posting, explanations
from ..scoring.ledger.pot import PotTable
from ..scoring.pulya.settlement import format_money, minor_digits
from .pulya import (
    balanced_away,
    closing_lines,
    column_lines,
    deal_lines,
    document_text,
    money_text,
    payment_lines,
)

FORMAT = "scorepad-settlement/1"


def _posting(p: Posting) -> dict[str, Any]:
    a = p.account
    out: dict[str, Any] = {"account": a.kind}
    if a.kind in ("supe", "chips"):
        out |= {"by": a.a, "on": a.b} if a.kind == "supe" else {"to": a.a, "from": a.b}
    elif a.a >= 0:
        out["seat"] = a.a
    out["amount"] = to_json(p.amount)
    return out


def sheet_data(scored: FamilyScored) -> dict[str, Any]:
    t, n = scored.table, len(scored.session.players)
    led = t.ledger
    if isinstance(t, PotTable):
        return {"pot": to_json(t.pot), "cash": [to_json(v) for v in t.cash]}
    if isinstance(t, BulaTable):
        if t.settings.scoring == "pot":
            return {
                "pot": to_json(led.get("pot")),
                "cash": [to_json(v) for v in led.row("cash", n)],
                "refe": list(t.refe),
            }
        return {
            "bula": [to_json(v) for v in t.bulas],
            "supe": [[to_json(v) for v in row] for row in led.square("supe", n)],
            "refe": list(t.refe),
            "refe_rounds": t.refe_rounds,
            "hats": [list(h) for h in t.hats],
            "left": to_json(t.left),
        }
    return {
        "kassa": [to_json(v) for v in t.kassas],
        "chips": [[to_json(v) for v in row] for row in led.square("chips", n)],
    }


def to_data(
    scored: FamilyScored, lang: str = "en", numbers: Sequence[int] | None = None
) -> dict[str, Any]:
    """The settlement document; ``index`` is the deal's number less one (a void keeps its)."""
    cat = catalog(lang)
    digits = minor_digits(scored.session.currency)
    money = scored.money_units()
    return {
        "format": FORMAT,
        "family": scored.family,
        "players": list(scored.session.players),
        "convention": scored.session.convention,
        "deals": [
            {
                "index": numbers[d.index] - 1 if numbers is not None else d.index,
                "postings": [_posting(p) for p in d.postings if p.account.kind != "note"],
                "explain": [cat.render(m) for m in explanations(d.postings)],
            }
            for d in scored.deals
        ],
        "sheet": sheet_data(scored),
        "finished": scored.finished,
        "balance": [to_text(b) for b in scored.results()],
        "money": [format_money(m, digits) for m in money],
        "payments": [
            {"from": p.payer, "to": p.payee, "amount": format_money(p.amount, digits)}
            for p in scored.payments()
        ],
    }


def to_json_text(
    scored: FamilyScored, lang: str = "en", numbers: Sequence[int] | None = None
) -> str:
    """The JSON document, one deal per line (as for the pulya); the same session gives the same bytes."""
    return document_text(to_data(scored, lang, numbers))


def to_text_sheet(
    scored: FamilyScored,
    lang: str = "en",
    *,
    explain: bool = True,
    numbers: Sequence[int] | None = None,
) -> str:
    """A readable sheet: each deal explained, the family's columns, results, money, payments.

    ``numbers``: each live deal's number as said at the table (a stored session's journal, where
    a voided deal keeps its number); a plain session file counts its deals from 1.
    """
    cat = catalog(lang)
    _ = cat.gettext
    names = list(scored.session.players)
    n = len(names)
    t = scored.table
    led = t.ledger
    out: list[str] = []
    if explain:
        out += deal_lines(cat, ((d.index, explanations(d.postings)) for d in scored.deals), numbers)
    rows: list[list[str]]
    if isinstance(t, PotTable):
        rows = [[_("Player"), _("Cash")]]
        rows += [[names[p], whist_figure(t.cash[p])] for p in range(n)]
        rows.append([_("Pot"), whist_figure(t.pot)])
    elif isinstance(t, BulaTable) and t.settings.scoring == "pot":
        rows = [[_("Player"), _("Cash"), _("Refe")]]
        rows += [[names[p], whist_figure(led.get("cash", p)), str(t.refe[p])] for p in range(n)]
        rows.append([_("Pot"), whist_figure(led.get("pot")), ""])
    elif isinstance(t, BulaTable):
        supe = led.square("supe", n)
        rows = [
            [_("Player"), _("Bula"), _("Refe")]
            + [cat.render_args(N_("supe on {player}"), player=x) for x in names]
        ]
        for p in range(n):
            rows.append(
                [names[p], whist_figure(t.bulas[p]), str(t.refe[p])]
                + ["—" if q == p else whist_figure(supe[p][q]) for q in range(n)]
            )
    else:
        chips = led.square("chips", n)
        rows = [
            [_("Player"), _("Kassa")]
            + [cat.render_args(N_("chips from {player}"), player=x) for x in names]
        ]
        for p in range(n):
            rows.append(
                [names[p], whist_figure(t.kassas[p])]
                + ["—" if q == p else whist_figure(chips[p][q]) for q in range(n)]
            )
    out += column_lines(rows, names)
    out.append("")
    out.append(_status(cat, scored.finished))
    # Amounts as the language writes them, as the pulya's sheet and the cash-out screen do
    # ("−107⅔", "−10,76 €"; issue 38 item 7); the JSON keeps its exact forms.
    money = scored.money_units()
    unit = N_("{player}: {result} supe, {money}")
    if scored.family == "kassa":
        unit = N_("{player}: {result} chips, {money}")
    elif scored.family in ("pot", "direct") or scored.table.ledger.get("pot"):
        unit = N_("{player}: {result}, {money}")
    cash = family_cash_out(scored, lang)
    for p, name in enumerate(names):
        out.append(
            cat.render_args(
                unit,
                player=name,
                result=whist_figure(scored.results()[p]),
                money=_money(scored, money[p], lang),
            )
        )
    out += closing_lines(cat, cash.payments, cash.note)
    return "\n".join(out) + "\n"


def _money(scored: FamilyScored, units: int, lang: str) -> str:
    currency = scored.session.currency
    return money_text(units, minor_digits(currency), currency, lang)


def rounding_note(scored: FamilyScored, lang: str = "en") -> str | None:
    """Where the rounding to the minor unit moved an amount so that the total is zero, the
    sentence that says so (the pulya's: "Rounded so that the total is zero: Jürgen −10,76 €,
    not −10,77 €"); None when every amount is its own result rounded."""
    units = scored.money_units()
    digits = minor_digits(scored.session.currency)
    moved = balanced_away(scored.results(), scored.unit_price, digits, units)
    if moved is None:
        return None
    p, plain = moved
    return catalog(lang).render_args(
        N_("Rounded so that the total is zero: {player} {money}, not {plain}."),
        player=scored.session.players[p],
        money=_money(scored, units[p], lang),
        plain=_money(scored, plain, lang),
    )


@dataclass(frozen=True, slots=True)
class FamilyCashOut:
    """The cash-out of a ledger family, every figure formatted for ``lang`` (the app's screen).

    ``columns`` are (msgid, key) pairs (the view renders the msgid; the key names the cell for
    tests); each row is a player's name and figures in the columns' order.  The result and the money are those of ``scorepad settle``.
    """

    finished: bool
    status: str
    columns: tuple[tuple[str, str], ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]
    balances: tuple[str, ...]  # "Ana: −12, −1,20 €"
    payments: tuple[str, ...]  # "Boris → Ana: 1,20 €"
    note: str | None = None  # the rounding moved an amount so that the total is zero


def family_cash_out(scored: FamilyScored, lang: str = "en") -> FamilyCashOut:
    cat = catalog(lang)
    names = list(scored.session.players)
    n = len(names)
    t = scored.table
    led = t.ledger
    digits = minor_digits(scored.session.currency)
    currency = scored.session.currency
    units = scored.money_units()
    results = scored.results()

    def money(value: int) -> str:
        return money_text(value, digits, currency, lang)

    figures: list[list[Number]]
    columns: tuple[tuple[str, str], ...]
    if isinstance(t, PotTable):
        columns = ((N_("Cash"), "cash"), (N_("Result"), "result"))
        figures = [[t.cash[p], results[p]] for p in range(n)]
    elif isinstance(t, BulaTable) and t.settings.scoring == "pot":
        columns = ((N_("Cash"), "cash"), (N_("Result"), "result"))
        figures = [[led.get("cash", p), results[p]] for p in range(n)]
    elif isinstance(t, BulaTable):
        supe = led.square("supe", n)
        columns = (
            (N_("Bula"), "bula"),
            (N_("Supe written"), "supe-written"),
            (N_("Supe received"), "supe-received"),
            (N_("Result"), "result"),
        )
        figures = [
            [
                t.bulas[p],
                sum((supe[p][q] for q in range(n) if q != p), 0),
                sum((supe[q][p] for q in range(n) if q != p), 0),
                results[p],
            ]
            for p in range(n)
        ]
    else:
        chips = led.square("chips", n)
        columns = (
            (N_("Kassa"), "kassa"),
            (N_("Chips received"), "chips-received"),
            (N_("Chips paid"), "chips-paid"),
            (N_("Result"), "result"),
        )
        figures = [
            [
                t.kassas[p],
                sum((chips[p][q] for q in range(n) if q != p), 0),
                sum((chips[q][p] for q in range(n) if q != p), 0),
                results[p],
            ]
            for p in range(n)
        ]
    rows = tuple(
        (names[p], (*(whist_figure(v) for v in figures[p]), money(units[p]))) for p in range(n)
    )
    balances = tuple(
        cat.render_args(
            N_("{player}: {result}, {money}"),
            player=names[p],
            result=whist_figure(results[p]),
            money=money(units[p]),
        )
        for p in range(n)
    )
    payments = payment_lines(cat, names, scored.payments(), money)
    status = _status(cat, scored.finished)
    columns += ((N_("Money"), "money"),)
    note = rounding_note(scored, lang)
    return FamilyCashOut(scored.finished, status, columns, rows, balances, payments, note)


#: The name every family's report gives its cash-out (:func:`scorepad.report.report_for`).
cash_out = family_cash_out


def _status(cat: Catalog, finished: bool) -> str:
    """Over, or what the cash-out would be if the players stopped now (the sheet, the screen)."""
    return cat.gettext(
        N_("The game is over.") if finished else N_("The game is not over: if we stopped now.")
    )
