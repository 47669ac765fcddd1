"""A whole store copied into another (``scorepad copy``): every kept session of every family,
the directory's players and the club's nights, by their stable ids (issue #36).

It is written against the stores' public interface (a session file and a club file out of one,
into the other), so any two stores the CLI opens can be copied.  It is idempotent: what the
target holds already is left as it is, a session played on further in the source brings its new
deals, and a second copy finds nothing new.  The whole copy is one transaction of the target:
a session that conflicts (same id, another deal at the same number) stops it with nothing
written.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.i18n import N_, Msg, msg, nmsg
from . import Store


@dataclass(slots=True)
class CopyReport:
    """What a copy found new in the source, and what the target had already."""

    sessions_new: int = 0
    sessions_same: int = 0
    sessions_more: int = 0
    deals_new: int = 0
    players_new: int = 0
    nights_new: int = 0
    nights_same: int = 0

    @property
    def anything_new(self) -> bool:
        return bool(self.sessions_new or self.sessions_more or self.players_new or self.nights_new)

    def lines(self) -> list[Msg]:
        """The summary, one sentence a line, in the catalogs' words."""
        n = self.sessions_new
        out = [nmsg("{n} session new", "{n} sessions new", n)]
        n = self.sessions_same
        out.append(nmsg("{n} session unchanged", "{n} sessions unchanged", n))
        if self.sessions_more:
            n = self.sessions_more
            out.append(
                nmsg(
                    "{n} session played on further, its new deals added: {deals}",
                    "{n} sessions played on further, their new deals added: {deals}",
                    n,
                    deals=self.deals_new,
                )
            )
        n = self.players_new
        out.append(nmsg("{n} player new", "{n} players new", n))
        if self.nights_new or self.nights_same:
            n = self.nights_new
            out.append(nmsg("{n} club night new", "{n} club nights new", n))
            n = self.nights_same
            out.append(nmsg("{n} club night unchanged", "{n} club nights unchanged", n))
        if not self.anything_new:
            out.append(
                msg(N_("nothing new: the target had all of it already, nothing was written"))
            )
        return out


def copy_store(source: Store, target: Store) -> CopyReport:
    """Copy every kept session, player and club night of ``source`` into ``target``."""
    from ..club.store import ClubStore

    report = CopyReport()
    club = ClubStore(source, create=False)
    nights = [nid for nid, _name, _date in reversed(club.nights())]  # oldest first
    # A club table's session travels with its night (the night's file holds it).
    tables = {sid for nid in nights for sid in _table_sessions(source, nid)}
    with target._write():
        before = _count_players(target)
        for entry in source.directory():
            target.player_id(entry.name, source.player_uid(entry.id))
        if nights:
            into = ClubStore(target)
            for nid in nights:
                _, new = into.import_night_file(club.export_night(nid))
                if new:
                    report.nights_new += 1
                else:
                    report.nights_same += 1
        for summary in reversed(source.sessions()):  # oldest first: the target lists them so
            if summary.id in tables:
                continue
            done = target.import_file(source.export_session(summary.id))
            if done.status == "new":
                report.sessions_new += 1
            elif done.status == "unchanged":
                report.sessions_same += 1
            else:
                report.sessions_more += 1
                report.deals_new += done.new_deals
        report.players_new = _count_players(target) - before
    return report


def _count_players(store: Store) -> int:
    (n,) = store.backend.execute("SELECT count(*) FROM players").fetchone()
    return int(n)


def _table_sessions(store: Store, nid: int) -> list[int]:
    return [
        int(r[0])
        for r in store.backend.execute(
            "SELECT session_id FROM night_tables WHERE night_id = ?", (nid,)
        ).fetchall()
    ]


__all__ = ["CopyReport", "copy_store"]
