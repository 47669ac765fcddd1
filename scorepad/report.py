"""The output of ``scorepad settle``: the spec's JSON (``scorepad-settlement/1``) and a readable sheet.

Only formatting lives here; every number comes from :mod:`scorepad.scoring.score` and
:mod:`scorepad.scoring.settlement`, every sentence from the catalogs.
"""

from __future__ import annotations

import json
from typing import Any

from .i18n import N_, catalog, whist_count
from .numbers import to_json, to_text
from .scoring.score import Scored
from .scoring.settlement import Settlement, format_money, settle

FORMAT = "scorepad-settlement/1"


def settlement_of(scored: Scored) -> Settlement:
    session = scored.session
    return settle(scored.sheet, scored.settings, price=session.price, currency=session.currency)


def to_data(scored: Scored, lang: str = "en") -> dict[str, Any]:
    """The settlement document as plain data, in the spec's field order."""
    cat = catalog(lang)
    st = settlement_of(scored)
    sheet = scored.sheet
    return {
        "format": FORMAT,
        "players": list(scored.session.players),
        "convention": scored.session.convention,
        "deals": [
            {
                "index": r.index,
                "pool": [to_json(v) for v in r.writing.pool],
                "gora": [to_json(v) for v in r.writing.gora],
                "whists": [[to_json(v) for v in row] for row in r.writing.whists],
                "explain": [cat.render(m) for m in r.writing.explain or ()],
            }
            for r in scored.deals
        ],
        "sheet": {
            "pool": [to_json(v) for v in sheet.pool],
            "gora": [to_json(v) for v in sheet.gora],
            "whists": [[to_json(v) for v in row] for row in sheet.whists],
        },
        "finished": scored.finished,
        "balance": [to_text(b) for b in st.balance],
        "money": [format_money(m, st.minor_digits) for m in st.money],
        "payments": [
            {"from": p.payer, "to": p.payee, "amount": format_money(p.amount, st.minor_digits)}
            for p in st.payments
        ],
    }


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def to_json_text(scored: Scored, lang: str = "en") -> str:
    """The JSON document, one deal per line; the same session gives the same bytes."""
    data = to_data(scored, lang)
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key == "deals" and value:
            lines.append('  "deals": [')
            lines.extend(
                f"    {_compact(d)}{',' if j < len(value) - 1 else ''}" for j, d in enumerate(value)
            )
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {_compact(key)}: {_compact(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_text_sheet(scored: Scored, lang: str = "en", *, explain: bool = True) -> str:
    """A readable sheet: the deals with their explanations, the scorepad, balances and payments."""
    cat = catalog(lang)
    _ = cat.gettext
    names = list(scored.session.players)
    st = settlement_of(scored)
    sheet = scored.sheet
    out: list[str] = []
    if explain:
        for r in scored.deals:
            out.append(cat.render_args(N_("Deal {index}"), index=r.index))
            out.extend(f"  {cat.render(m)}" for m in r.writing.explain or ())
        out.append("")
    width = max(12, *(len(n) for n in names)) + 2
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
                to_text(sheet.pool[p]),
                to_text(sheet.gora[p]),
                *("—" if q == p else to_text(sheet.whists[p][q]) for q in range(len(names))),
            ]
        )
    out.extend("".join(cell.ljust(width) for cell in row).rstrip() for row in rows)
    out.append("")
    status = (
        _("The game is finished.")
        if scored.finished
        else _("The game is not finished: if we stopped now.")
    )
    out.append(status)
    currency = scored.session.currency
    for p, name in enumerate(names):
        out.append(
            cat.render_args(
                N_("{player}: {whists}, {money} {currency}"),
                player=name,
                whists=whist_count(st.balance[p]),
                money=format_money(st.money[p], st.minor_digits),
                currency=currency,
            )
        )
    if st.payments:
        out.append("")
        out.append(_("Payments:"))
        for pay in st.payments:
            out.append(
                "  "
                + cat.render_args(
                    N_("{payer} pays {payee} {amount} {currency}"),
                    payer=names[pay.payer],
                    payee=names[pay.payee],
                    amount=format_money(pay.amount, st.minor_digits),
                    currency=currency,
                )
            )
    return "\n".join(out) + "\n"
