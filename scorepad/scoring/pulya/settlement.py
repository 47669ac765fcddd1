"""Settlement (расчёт пули): from the sheet to whists, money and payments (§10.2, Kodex §4.2.14).

1. Unequal pools become gora: each pool point counts as ``pool_point_whists / gora_point_whists``
   gora points off (Leningrad: 2, §7.2).  Equal pools change nothing.
2. Amnesty: the smallest gora is subtracted from every gora.
3. Each gora is shared: the owner writes ``gora × gora_point_whists / divisor`` to each other
   player, the divisor being the number of players (Kodex), the others, or 1 (pairwise).
4. Whists are netted pairwise; a player's balance is the sum of his nets.  It sums to zero.

Exact fractions throughout; the Kodex rounding (§4.2.12) is an option.  Money is rounded once,
to the currency's minor unit, by largest remainder (ties to the lower seat), so that it sums to 0.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from babel.numbers import get_currency_precision

from ...core.numbers import Number, normal
from .convention import Settings
from .sheet import Sheet


@dataclass(frozen=True, slots=True)
class Payment:
    payer: int
    payee: int
    amount: int  # in the currency's minor unit


@dataclass(frozen=True, slots=True)
class Settlement:
    """Each player's result: ``balance`` in whists (exact), ``money`` in minor units."""

    balance: tuple[Number, ...]
    money: tuple[int, ...]
    payments: tuple[Payment, ...]
    minor_digits: int


def gora_for_settlement(sheet: Sheet, s: Settings) -> list[Number]:
    """Steps 1 and 2: pools turned into gora, then the amnesty of the smallest gora."""
    ratio = Fraction(s.pool_point_whists, s.gora_point_whists)
    gora = [
        normal(g - ratio * p) if s.pool_point_whists else g
        for g, p in zip(sheet.gora, sheet.pool, strict=True)
    ]
    least = min(gora)
    return [normal(g - least) for g in gora]


def _divisor(s: Settings, n: int) -> int:
    return {"players": n, "others": n - 1, "none": 1}[s.gora_divisor]


def _kodex_round(gora: Number, whists: int, divisor: int) -> Number:
    """The nearest gora whose share is whole (§4.2.12); ties go down.

    >>> _kodex_round(11, 10, 3), _kodex_round(7, 10, 3), _kodex_round(1, 10, 4)
    (12, 6, 0)
    """
    step = Fraction(divisor, math.gcd(whists, divisor))
    low = math.floor(Fraction(gora) / step) * step
    high = low + step
    return normal(low if gora - low <= high - gora else high)


def whists_with_gora(sheet: Sheet, s: Settings) -> list[list[Number]]:
    """Step 3: every player's whists on every other, the shared gora added."""
    n = sheet.players
    gora = gora_for_settlement(sheet, s)
    divisor = _divisor(s, n)
    w: list[list[Number]] = [list(row) for row in sheet.whists]
    for p in range(n):
        g = gora[p]
        if not g:
            continue
        compensation: Number = 0
        if s.settlement_rounding == "kodex":
            rounded = _kodex_round(g, s.gora_point_whists, divisor)
            compensation = normal((rounded - g) * s.rounding_whists)
            g = rounded
        share = normal(Fraction(g * s.gora_point_whists) / divisor)
        for q in range(n):
            if q != p:
                w[q][p] += share - compensation
    return w


def balances(sheet: Sheet, s: Settings) -> tuple[Number, ...]:
    """Step 4: each player's result in whists; the sum is exactly zero."""
    w = whists_with_gora(sheet, s)
    n = sheet.players
    return tuple(
        normal(sum((w[p][q] - w[q][p] for q in range(n) if q != p), start=0)) for p in range(n)
    )


def minor_digits(currency: str) -> int:
    return int(get_currency_precision(currency))


def to_money(balance: Sequence[Number], price: Decimal | Fraction, digits: int) -> tuple[int, ...]:
    """``balance × price`` in minor units, rounded by largest remainder so the sum stays 0.

    >>> to_money([Fraction(-40, 3), Fraction(44, 3), Fraction(-4, 3)], Decimal("1.00"), 2)
    (-1333, 1467, -134)
    """
    unit = Fraction(price) * 10**digits
    exact = [Fraction(b) * unit for b in balance]
    floors = [math.floor(x) for x in exact]
    short = -sum(floors)  # the exact sum is 0, so this many units are still to hand out
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[:short]:
        floors[i] += 1
    return tuple(floors)


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _partitions(rest):
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]
        yield [[first], *part]


def payments(money: Sequence[int]) -> tuple[Payment, ...]:
    """A shortest list of transfers realising ``money`` (which sums to 0).

    The fewest transfers split the players into as many zero-sum groups as possible; within a
    group the largest debtor pays the largest creditor until all are square.

    >>> payments([-1333, 1467, -134])
    (Payment(payer=0, payee=1, amount=1333), Payment(payer=2, payee=1, amount=134))
    """
    owing = [i for i, m in enumerate(money) if m]
    best: list[list[int]] = [owing] if owing else []
    for part in _partitions(owing):
        if len(part) > len(best) and all(sum(money[i] for i in block) == 0 for block in part):
            best = part
    out: list[Payment] = []
    for block in best:
        left = {i: money[i] for i in block}
        while any(left.values()):
            debtor = min(left, key=lambda i: (left[i], i))
            creditor = max(left, key=lambda i: (left[i], -i))
            amount = min(-left[debtor], left[creditor])
            out.append(Payment(debtor, creditor, amount))
            left[debtor] += amount
            left[creditor] -= amount
    return tuple(sorted(out, key=lambda p: (p.payer, p.payee)))


def settle(sheet: Sheet, s: Settings, *, price: Decimal | Fraction, currency: str) -> Settlement:
    """Balances, money and payments for the sheet as it stands."""
    balance = balances(sheet, s)
    digits = minor_digits(currency)
    money = to_money(balance, price, digits)
    return Settlement(balance, money, payments(money), digits)


def format_money(units: int, digits: int) -> str:
    """Minor units as a decimal string: ``-134`` → ``"-1.34"``.

    >>> format_money(-134, 2), format_money(5, 2), format_money(-7, 0)
    ('-1.34', '0.05', '-7')
    """
    if digits == 0:
        return str(units)
    sign = "-" if units < 0 else ""
    whole, frac = divmod(abs(units), 10**digits)
    return f"{sign}{whole}.{frac:0{digits}d}"


def balances_over_deals(
    writings: Sequence[Any], s: Settings, players: int
) -> list[tuple[Number, ...]]:
    """Each player's balance after every deal (the chart of an evening), exact."""
    sheet = Sheet.empty(players)
    out: list[tuple[Number, ...]] = []
    for w in writings:
        for i in range(players):
            sheet.pool[i] += w.pool[i]
            sheet.gora[i] += w.gora[i]
        for (a, b), v in w.entries.items():
            sheet.whists[a][b] += v
        out.append(balances(sheet, s))
    return out
