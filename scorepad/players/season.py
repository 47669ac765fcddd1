"""A season: a named period and group (a club's Fridays), its standings and the debts between its
players, carried from evening to evening until settled.

The standings rank the group by money won (per currency), by rating and by games played, over the
sessions of the season (those in its period where every seat is one of the group).  The debts are
what the season's cash-outs said each player pays whom, netted per pair and per currency, less
what the directory's journal says was settled between them since the season began.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..core.i18n import Msg, nmsg
from ..store import Store
from .rating import Rating, ratings
from .stats import FamilyStats, Played, chosen, family_stats


@dataclass(frozen=True, slots=True)
class Debt:
    """``debtor`` owes ``creditor`` ``amount`` minor units of ``currency``, over ``evenings``."""

    debtor: int
    creditor: int
    amount: int
    currency: str
    evenings: int


def owes(debtor: str, creditor: str, amount: str, evenings: int) -> Msg:
    """ "Boris owes Anna 340 ₽ over 3 evenings": the one sentence of a debt, for the Players
    screen and the CLI alike (``amount`` is the money already written out)."""
    return nmsg(
        "{debtor} owes {creditor} {amount} over {n} evening",
        "{debtor} owes {creditor} {amount} over {n} evenings",
        evenings,
        debtor=debtor,
        creditor=creditor,
        amount=amount,
    )


@dataclass(frozen=True, slots=True)
class Settled:
    """A payment the directory's journal keeps: ``payer`` paid ``payee``."""

    payer: int
    payee: int
    amount: int
    currency: str
    at: str


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    games: int
    money: dict[str, int]  # currency -> net minor units
    rating: Rating | None  # in the season's most played family, shown or not


@dataclass(frozen=True, slots=True)
class SeasonTable:
    sessions: tuple[Played, ...]
    by_money: tuple[Standing, ...]
    by_rating: tuple[Standing, ...]
    by_games: tuple[Standing, ...]
    debts: tuple[Debt, ...]


def settled_in(store: Store) -> list[Settled]:
    """Every payment the directory's journal keeps."""
    return [
        Settled(a.player_id, a.other_id, a.amount, a.currency or "", a.at)
        for a in store.player_history()
        if a.kind == "settle" and a.player_id is not None and a.other_id is not None and a.amount
    ]


def debts(
    played: Iterable[Played], settled: Iterable[Settled] = (), *, since: str | None = None
) -> list[Debt]:
    """Net debts per pair and currency from the cash-outs' payments, less what was settled."""
    owed: dict[tuple[int, int, str], int] = {}
    evenings: dict[tuple[int, int, str], set[int]] = {}
    for p in played:
        for payer, payee, amount in p.record.payments:
            a, b = p.players[payer], p.players[payee]
            key = (a, b, p.record.currency)
            owed[key] = owed.get(key, 0) + amount
            evenings.setdefault((min(a, b), max(a, b), p.record.currency), set()).add(p.session)
    for s in settled:
        if since is not None and s.at[:10] < since:
            continue
        key = (s.payer, s.payee, s.currency)
        owed[key] = owed.get(key, 0) - s.amount
    out = []
    pairs = {(min(a, b), max(a, b), c) for a, b, c in owed}
    for a, b, c in sorted(pairs):
        net = owed.get((a, b, c), 0) - owed.get((b, a, c), 0)
        n = len(evenings.get((a, b, c), ()))
        if net > 0:
            out.append(Debt(a, b, net, c, n))
        elif net < 0:
            out.append(Debt(b, a, -net, c, n))
    return out


def season_table(
    played: Sequence[Played],
    *,
    since: str,
    until: str,
    group: Iterable[int],
    settled: Iterable[Settled] = (),
) -> SeasonTable:
    members = sorted(set(group))
    mine = chosen(played, since=since, until=until, group=members)
    stats = family_stats(mine)
    rated = ratings(mine)
    families = [p.family for p in mine]
    main = max(set(families), key=families.count) if families else None

    def standing(pid: int) -> Standing:
        per: list[FamilyStats] = [s for (p, _f), s in stats.items() if p == pid]
        money: dict[str, int] = {}
        for s in per:
            for c, v in s.net.items():
                money[c] = money.get(c, 0) + v
        return Standing(
            pid, sum(s.games for s in per), money, rated.get((pid, main)) if main else None
        )

    rows = [standing(pid) for pid in members]
    currencies = sorted({c for r in rows for c in r.money})
    first = currencies[0] if currencies else ""
    by_money = sorted(rows, key=lambda r: (-r.money.get(first, 0), -r.games, r.player))
    by_rating = sorted(
        rows,
        key=lambda r: (
            not (r.rating and r.rating.shown),
            -(r.rating.ordinal if r.rating else 0.0),
            r.player,
        ),
    )
    by_games = sorted(rows, key=lambda r: (-r.games, r.player))
    return SeasonTable(
        tuple(mine),
        tuple(by_money),
        tuple(by_rating),
        tuple(by_games),
        tuple(debts(mine, settled, since=since)),
    )


__all__ = ["Debt", "SeasonTable", "Settled", "Standing", "debts", "season_table", "settled_in"]
