"""Each player's record across the stored pulkas: what the Players screen shows.

Everything is counted from the scored sessions (the sheet and the settlement the cash-out
shows), never from a view.  A pulka counts once it has a deal; money is kept per currency in
the currency's minor unit (a table that plays for roubles one night and for points the next
does not add them up).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..core.numbers import Number
from ..store import Store
from .stats import chosen, family_stats, played

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


def store_stats(store: Store) -> dict[str, PlayerStats]:
    """Every player's record over every stored pulka (deleted ones left out), oldest first, by
    his directory name; counted once, by :mod:`scorepad.players.stats`, from the sessions' records.

    Only the pulya family here: pools, gora and whists mean nothing to a bula or a pot (their
    records are in :func:`scorepad.players.stats.family_stats`).
    """
    names = {e.id: e.name for e in store.directory()}
    out: dict[str, PlayerStats] = {}
    pulkas = family_stats(chosen(played(store), family="pulya"))
    for (pid, _family), f in sorted(pulkas.items(), key=lambda kv: kv[1].sessions[0][0].session):
        st = PlayerStats(names.get(pid, str(pid)))
        st.pulkas = f.games
        st.won, st.lost = dict(f.won), dict(f.lost)
        st.contracts = {
            int(level): Contracts(d, m, x) for level, (d, m, x) in sorted(f.by_level().items())
        }
        st.miseres_made = f.counts.get("misere_made", 0)
        st.miseres_failed = f.counts.get("misere_caught", 0)
        st.whists_written, st.whists_received = f.written, f.received
        st.all_pass_tricks = f.counts.get("allpass_tricks", 0)
        st.results = [
            PulkaResult(
                p.session, p.started, p.record.currency, p.record.digits, seat.money, seat.result
            )
            for p, seat in f.sessions
        ]
        out[st.name] = st
    return out


__all__ = ["LEVELS", "Contracts", "PlayerStats", "PulkaResult", "store_stats"]
