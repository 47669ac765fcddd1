"""Each player's record over a chosen period and group, per family, in the family's own terms.

Read from the sessions' records (:mod:`scorepad.scoring.results`), one row a session: a thousand evenings are
counted without replaying a deal.  A session counts once it has a deal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..core.numbers import Number, normal
from ..scoring.results import SeatRecord, SessionRecord, record_of
from ..store import Store


@dataclass(frozen=True, slots=True)
class Played:
    """One session as the statistics see it: who sat where (directory ids), and its record."""

    session: int
    family: str
    started: str  # ISO time the session was created
    players: tuple[int, ...]
    record: SessionRecord


@dataclass(slots=True)
class FamilyStats:
    """A player's record in one family."""

    player: int
    family: str
    games: int = 0  # pulkas, or games of the family
    finished: int = 0
    won: dict[str, int] = field(default_factory=dict)  # currency -> minor units won
    lost: dict[str, int] = field(default_factory=dict)  # currency -> minor units lost (≥ 0)
    result: Number = 0  # whists, supe, chips or cash, summed
    counts: dict[str, int] = field(default_factory=dict)
    written: Number = 0
    received: Number = 0
    #: Each session he played with his seat's record, oldest first.
    sessions: list[tuple[Played, SeatRecord]] = field(default_factory=list)

    @property
    def net(self) -> dict[str, int]:
        return {
            c: self.won.get(c, 0) - self.lost.get(c, 0) for c in sorted({*self.won, *self.lost})
        }

    def by_level(self) -> dict[str, tuple[int, int, int]]:
        """``kind -> (declared, made, failed)``: contracts by level (the pulya) or by bid."""
        kinds = sorted({k.split(":", 1)[1] for k in self.counts if k.startswith("declared:")})
        return {
            k: (
                self.counts.get(f"declared:{k}", 0),
                self.counts.get(f"made:{k}", 0),
                self.counts.get(f"failed:{k}", 0),
            )
            for k in kinds
        }

    def money_over_evenings(self, currency: str) -> list[int]:
        """The running total of money after each session in ``currency``, oldest first."""
        total, out = 0, []
        for played, seat in self.sessions:
            if played.record.currency == currency:
                total += seat.money
                out.append(total)
        return out


def played(store: Store) -> list[Played]:
    """Every kept session as the statistics see it, oldest first.

    A session written before the store kept records (schema 2) is counted from a replay, in
    memory: a read never writes.
    """
    out = []
    for sid, family, started, players, text in store.session_records():
        record = SessionRecord.from_json(text) if text else None
        if record is None:
            record = record_of(store.load(sid).scored)
        out.append(Played(sid, family, started, tuple(players), record))
    return out


def chosen(
    played: Iterable[Played],
    *,
    since: str | None = None,
    until: str | None = None,
    group: Iterable[int] | None = None,
    family: str | None = None,
) -> list[Played]:
    """The sessions of a period (ISO dates, inclusive), a family, and where every seat is one of
    ``group`` (a club's regulars: a table with a guest is not theirs)."""
    members = None if group is None else set(group)
    out = []
    for p in played:
        day = p.started[:10]
        if since is not None and day < since:
            continue
        if until is not None and day > until:
            continue
        if family is not None and p.family != family:
            continue
        if members is not None and not set(p.players) <= members:
            continue
        out.append(p)
    return out


def family_stats(played: Iterable[Played]) -> dict[tuple[int, str], FamilyStats]:
    """``(player, family) -> FamilyStats`` over the sessions given (those with a deal)."""
    out: dict[tuple[int, str], FamilyStats] = {}
    for p in played:
        r = p.record
        if not r.deals:
            continue
        for seat, pid in enumerate(p.players):
            s = r.seats[seat]
            st = out.setdefault((pid, p.family), FamilyStats(pid, p.family))
            st.games += 1
            st.finished += r.finished
            if s.money > 0:
                st.won[r.currency] = st.won.get(r.currency, 0) + s.money
            elif s.money < 0:
                st.lost[r.currency] = st.lost.get(r.currency, 0) - s.money
            st.result = normal(st.result + s.result)
            st.written = normal(st.written + s.written)
            st.received = normal(st.received + s.received)
            for k, v in s.counts.items():
                st.counts[k] = st.counts.get(k, 0) + v
            st.sessions.append((p, s))
    return out


__all__ = ["FamilyStats", "Played", "chosen", "family_stats", "played"]
