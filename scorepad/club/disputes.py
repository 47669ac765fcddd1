"""A table's disputes in words, as the director's view and ``scorepad club tables`` say them
(issue #37): each deal rejected at the table (which deal, what it writes, who wrote it, who
rejected it and why, in his words) and each change rejected there (taken back)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.i18n import N_, Msg, msg
from ..report.pulya import deal_title

if TYPE_CHECKING:
    from .store import ChangeMark, ClubStore, TableView


def deal_disputes(club: ClubStore, v: TableView) -> list[tuple[int, Msg]]:
    """Each disputed deal of table ``v``: its number at the table, and the sentence."""
    stored = club.store.load(v.session_id)
    deals = {e.deal_id: e.deal for e in stored.journal.live}
    players = list(stored.session.players)
    names = dict(zip(v.players, players, strict=False))
    out = []
    for m in club.marks(v.session_id, stored):
        if m.state != "disputed" or m.deal_id not in deals:
            continue
        where = {
            "table": v.table,
            "number": m.number,
            "title": deal_title(deals[m.deal_id], players),
            "writer": m.written_by,
            "writer_name": names.get(m.written_by or 0, ""),
            "judge": m.decided_by,
            "judge_name": names.get(m.decided_by or 0, ""),
        }
        line = msg(
            N_(
                "Table {table}, deal {number} ({title}): written by #{writer} {writer_name}, rejected by #{judge} {judge_name}"
            )
            if m.rejection is None  # rejected before a rejection had its reason
            else N_(
                "Table {table}, deal {number} ({title}): written by #{writer} {writer_name}, rejected by #{judge} {judge_name}: {reason}"
            ),
            reason=m.rejection,
            **where,
        )
        out.append((m.number, line))
    return out


def change_rejection(table: int, c: ChangeMark) -> Msg:
    """A change rejected at ``table`` (taken back there), for the director."""
    from .store import change_words

    return msg(
        N_("Table {table}: {change}, by #{writer}, rejected by #{judge}: taken back")
        if c.rejection is None  # rejected before a rejection had its reason
        else N_(
            "Table {table}: {change}, by #{writer}, rejected by #{judge} ({reason}): taken back"
        ),
        table=table,
        change=change_words(c),
        writer=c.written_by,
        judge=c.decided_by,
        reason=c.rejection,
    )
