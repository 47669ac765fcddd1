"""The directory's tables as rows of stable columns: what ``scorepad players --csv`` writes and
the Players screen copies (so neither front end imports the other).

``stats_rows`` takes the command line's filters (``since``, ``until``, ``family``, ``player``)
as attributes of one object; the screen builds that object from what is chosen on it.
"""

from __future__ import annotations

import argparse
import csv
import io
from typing import Any


def csv_text(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    if rows:
        w = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return out.getvalue()


def player_names(store: Any) -> dict[int, str]:
    """Each player's id and the name the directory shows."""
    return {e.id: e.name for e in store.directory()}


def stats_rows(store: Any, args: argparse.Namespace) -> list[dict[str, Any]]:
    from ..scoring.pulya.settlement import format_money
    from .stats import chosen, family_stats, played

    names = player_names(store)
    stats = family_stats(
        chosen(
            played(store),
            since=args.since,
            until=args.until,
            family=args.family,
            group=getattr(args, "player", None),
        )
    )
    rows = []
    for (pid, family), s in sorted(
        stats.items(), key=lambda kv: (kv[0][1], names.get(kv[0][0], ""))
    ):
        digits_of = {p.record.currency: p.record.digits for p, _seat in s.sessions}
        money = "; ".join(f"{format_money(v, digits_of.get(c, 2))} {c}" for c, v in s.net.items())
        rows.append(
            {
                "player_id": pid,
                "name": names.get(pid, str(pid)),
                "family": family,
                "games": s.games,
                "finished": s.finished,
                "money": money,
                "result": str(s.result),
                "declared": sum(d for d, _m, _f in s.by_level().values()),
                "made": sum(m for _d, m, _f in s.by_level().values()),
                "failed": sum(f for _d, _m, f in s.by_level().values()),
                "misere_made": s.counts.get("misere_made", 0),
                "misere_caught": s.counts.get("misere_caught", 0),
                "allpass_tricks": s.counts.get("allpass_tricks", 0),
                "whists_written": str(s.written),
                "whists_received": str(s.received),
                "refe_rounds": s.counts.get("refe_rounds", 0),
                "closed_first": s.counts.get("bula_closed_first", 0)
                + s.counts.get("kassa_closed_first", 0),
            }
        )
    return rows
