"""Each player's record across the stored pulkas: what the Players screen shows.

Everything is counted from the scored sessions (the sheet and the settlement the cash-out
shows), never from a view.  A pulka counts once it has a deal; money is kept per currency in
the currency's minor unit (a table that plays for roubles one night and for points the next
does not add them up).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .numbers import Number, normal
from .report import settlement_of
from .scoring.pulya.score import Scored
from .scoring.pulya.session import Game, Misere, Raspasy
from .store import Store

LEVELS = (6, 7, 8, 9, 10)


@dataclass(frozen=True, slots=True)
class Contracts:
    """Games a player declared at one level, and how many he made or failed."""

    declared: int = 0
    made: int = 0
    failed: int = 0


@dataclass(frozen=True, slots=True)
class PulkaResult:
    """One pulka of a player: its session id, when it started, and what he won or lost."""

    session: int
    started: str
    currency: str
    minor_digits: int
    money: int  # in minor units, + won, − lost
    balance: Number  # in whists


@dataclass(slots=True)
class PlayerStats:
    name: str
    pulkas: int = 0
    won: dict[str, int] = field(default_factory=dict)  # currency -> minor units won
    lost: dict[str, int] = field(default_factory=dict)  # currency -> minor units lost (≥ 0)
    contracts: dict[int, Contracts] = field(default_factory=dict)  # level -> tally
    miseres_made: int = 0
    miseres_failed: int = 0
    whists_written: Number = 0
    whists_received: Number = 0
    all_pass_tricks: int = 0
    results: list[PulkaResult] = field(default_factory=list)  # oldest first

    @property
    def net(self) -> dict[str, int]:
        """Won less lost, per currency."""
        return {c: self.won.get(c, 0) - self.lost.get(c, 0) for c in {*self.won, *self.lost}}

    def money_over_pulkas(self) -> tuple[str, list[int]] | None:
        """The running total of money after each pulka, in the player's most played currency."""
        if not self.results:
            return None
        currency = Counter(r.currency for r in self.results).most_common(1)[0][0]
        total, out = 0, []
        for r in self.results:
            if r.currency == currency:
                total += r.money
                out.append(total)
        return currency, out


def player_stats(pulkas: Iterable[tuple[int, str, Scored]]) -> dict[str, PlayerStats]:
    """Every player's record over ``(session id, started at, scored)``, oldest first, by name."""
    out: dict[str, PlayerStats] = {}
    for sid, started, scored in pulkas:
        if not scored.deals:
            continue
        names = scored.session.players
        n = len(names)
        sheet = scored.sheet
        st = settlement_of(scored)
        seats = [out.setdefault(name, PlayerStats(name)) for name in names]
        for p, s in enumerate(seats):
            s.pulkas += 1
            money = st.money[p]
            currency = scored.session.currency
            if money > 0:
                s.won[currency] = s.won.get(currency, 0) + money
            elif money < 0:
                s.lost[currency] = s.lost.get(currency, 0) - money
            s.results.append(
                PulkaResult(sid, started, currency, st.minor_digits, money, st.balance[p])
            )
            s.whists_written = normal(
                s.whists_written + sum((sheet.whists[p][q] for q in range(n) if q != p), 0)
            )
            s.whists_received = normal(
                s.whists_received + sum((sheet.whists[q][p] for q in range(n) if q != p), 0)
            )
        for deal, result in zip(scored.session.deals, scored.deals, strict=True):
            if isinstance(deal, Game):
                level = int(deal.contract.level)
                s = seats[deal.declarer]
                # A failed game always writes its remiz into the declarer's gora.
                failed = result.writing.gora[deal.declarer] > 0
                old = s.contracts.get(level, Contracts())
                s.contracts[level] = Contracts(
                    old.declared + 1, old.made + (not failed), old.failed + failed
                )
            elif isinstance(deal, Misere):
                if deal.tricks.get(deal.declarer, 0) > 0:
                    seats[deal.declarer].miseres_failed += 1
                else:
                    seats[deal.declarer].miseres_made += 1
            elif isinstance(deal, Raspasy):
                for seat, taken in deal.tricks.items():
                    seats[seat].all_pass_tricks += taken
    return out


def store_stats(store: Store) -> dict[str, PlayerStats]:
    """:func:`player_stats` over every stored pulka (deleted ones left out), oldest first.

    Only the pulya family: pools, gora and whists mean nothing to a bula or a pot.
    """
    summaries = sorted((s for s in store.sessions() if s.family == "pulya"), key=lambda s: s.id)
    return player_stats((s.id, s.created_at, store.load(s.id).scored) for s in summaries)


__all__ = ["LEVELS", "Contracts", "PlayerStats", "PulkaResult", "player_stats", "store_stats"]
