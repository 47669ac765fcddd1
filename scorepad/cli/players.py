"""The command line of the directory: ``scorepad players``, ``ratings``, ``debts``, ``close``,
``reopen``, ``rename``, ``merge``, ``unmerge``, ``delete-player``, ``settled`` and ``season`` —
a thin layer over :mod:`scorepad.players`.

Every table can be written as CSV (``--csv``) for a spreadsheet: its columns are stable
identifiers (``player_id``, ``name``, ``family`` …), its numbers exact (``-176/3``), money in the
currency's units with a point (``-88.66``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from ..core.i18n import N_, Catalog, ScorepadError, catalog, msg, nmsg
from ..players.rows import csv_text, player_names, stats_rows
from . import common

FAMILIES = ("pulya", "bula", "kassa", "pot", "direct")


def _store(args: argparse.Namespace, *, create: bool = True) -> Any:

    return common.open_database(args, create=create)


def read_rows(
    args: argparse.Namespace, rows: Callable[[Any, argparse.Namespace], list[Any]]
) -> list[Any]:
    """What a read command shows: opened without creating (no file, no folder); with no
    database yet (none named, none at the default place) there is nothing to show."""
    from ..store import NotFound, default_path

    try:
        with _store(args, create=False) as store:
            return rows(store, args)
    except NotFound:
        if not args.db and not default_path().exists():
            return []
        raise


def rating_rows(store: Any, args: argparse.Namespace) -> list[dict[str, Any]]:
    from ..players.rating import ratings
    from ..players.stats import chosen, played

    names = player_names(store)
    rated = ratings(chosen(played(store), family=args.family, group=getattr(args, "player", None)))
    rows = [
        {
            "player_id": r.player,
            "name": names.get(r.player, str(r.player)),
            "family": r.family,
            "games": r.games,
            "rating": f"{r.ordinal:.2f}" if r.shown else "",
            "mu": f"{r.mu:.4f}",
            "sigma": f"{r.sigma:.4f}",
        }
        for r in rated.values()
    ]
    return sorted(rows, key=lambda r: (r["family"], r["rating"] == "", -float(r["mu"])))


def debt_rows(store: Any, args: argparse.Namespace) -> list[dict[str, Any]]:
    from ..players.season import debts, settled_in
    from ..scoring.pulya.settlement import format_money, minor_digits

    names = player_names(store)
    # Only a finished game's cash-out is a debt: a pulka in play may still turn (issue 38
    # item 14: three deals of an unfinished pulka were counted as owed).
    # A game closed before its end (abandoned, with a reason) is settled as it stands.
    closed = store.closed_sessions()
    owed = debts(
        [p for p in _debt_sessions(store, args) if p.record.finished or p.session in closed],
        settled_in(store),
        since=args.since,
    )
    return [
        {
            "debtor_id": d.debtor,
            "debtor": names.get(d.debtor, str(d.debtor)),
            "creditor_id": d.creditor,
            "creditor": names.get(d.creditor, str(d.creditor)),
            "amount": format_money(d.amount, minor_digits(d.currency)),
            "currency": d.currency,
            "evenings": d.evenings,
        }
        for d in owed
    ]


def _debt_sessions(store: Any, args: argparse.Namespace) -> list[Any]:
    from ..players.stats import chosen, played

    return chosen(played(store), since=args.since, until=args.until, group=args.player)


def debt_evenings(store: Any, args: argparse.Namespace) -> list[tuple[int, str, bool, str | None]]:
    """The games ``debts`` looks at: (session, day, finished, why it was closed or None),
    oldest first."""
    closed = store.closed_sessions()
    return [
        (p.session, p.started[:10], p.record.finished, closed.get(p.session, (None, None))[1])
        for p in _debt_sessions(store, args)
    ]


def _listed(
    args: argparse.Namespace,
    rows_of: Callable[[Any, argparse.Namespace], list[dict[str, Any]]],
    line: Callable[[dict[str, Any], Catalog], str],
) -> int:
    """A table of the directory: CSV with ``--csv`` (stable columns, exact numbers), else a
    line a row in the reader's language."""
    rows = read_rows(args, rows_of)
    if args.csv:
        sys.stdout.write(csv_text(rows))
        return 0
    cat = catalog(args.lang)
    for r in rows:
        print(line(r, cat))
    return 0


def cmd_players(args: argparse.Namespace) -> int:
    def line(r: dict[str, Any], cat: Catalog) -> str:
        games = cat.render(nmsg("{n} game", "{n} games", r["games"]))
        return f"{r['player_id']:4}  {r['name']:16}  {r['family']:6}  {games:12}  {r['money']}"

    return _listed(args, stats_rows, line)


def cmd_ratings(args: argparse.Namespace) -> int:
    def line(r: dict[str, Any], cat: Catalog) -> str:
        shown = r["rating"] or cat.render(msg(N_("not yet rated")))
        games = cat.render(nmsg("{n} game", "{n} games", r["games"]))
        return f"{r['name']:16}  {r['family']:6}  {shown:>14}  {games}"

    return _listed(args, rating_rows, line)


def cmd_debts(args: argparse.Namespace) -> int:
    from ..players.season import owes
    from ..report.pulya import money_text
    from ..scoring.pulya.settlement import minor_digits

    rows = read_rows(args, debt_rows)
    if args.csv:
        sys.stdout.write(csv_text(rows))
        return 0
    cat = catalog(args.lang)
    for r in rows:
        digits = minor_digits(r["currency"])
        units = int(Decimal(r["amount"]).scaleb(digits))
        print(
            cat.render(
                owes(
                    r["debtor"],
                    r["creditor"],
                    money_text(units, digits, r["currency"], args.lang),
                    r["evenings"],
                )
            )
        )
    # Which evenings were counted, and which are still in play (not counted).
    evenings = read_rows(args, debt_evenings)
    done = [f"#{sid} ({day})" for sid, day, finished, _ in evenings if finished]
    closed = [(sid, day, why) for sid, day, finished, why in evenings if why and not finished]
    playing = [
        f"#{sid} ({day})" for sid, day, finished, why in evenings if not finished and not why
    ]
    if done:
        print(cat.render(msg(N_("Counted: the finished games {games}."), games=", ".join(done))))
    elif evenings and not closed:
        print(cat.render(msg(N_("No game is finished yet: there is nothing to count."))))
    for sid, day, why in closed:
        game = f"#{sid} ({day})"
        print(
            cat.render(
                msg(N_("Counted as it stands: {game}, closed ({reason})."), game=game, reason=why)
            )
        )
    if playing:
        print(cat.render(msg(N_("In play, not counted: {games}."), games=", ".join(playing))))
    return 0


def cmd_close(args: argparse.Namespace) -> int:
    """``scorepad close SESSION --reason TEXT``: a game abandoned before its end, closed with
    the table's reason; ``debts`` then counts it as it stands (issue 38 item 14)."""
    with _store(args) as store:
        store.close_session(args.session, reason=args.reason)
    print(
        catalog(args.lang).render(
            msg(N_("Game {id} is closed: {reason}."), id=args.session, reason=args.reason.strip())
        )
    )
    return 0


def cmd_reopen(args: argparse.Namespace) -> int:
    with _store(args) as store:
        store.reopen_session(args.session)
    print(catalog(args.lang).render(msg(N_("Game {id} is back in play."), id=args.session)))
    return 0


def cmd_rename(args: argparse.Namespace) -> int:
    with _store(args) as store:
        store.rename_player(args.player, args.name, reason=args.reason or "")
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    with _store(args) as store:
        store.merge_players(args.player, args.into, reason=args.reason)
    return 0


def cmd_unmerge(args: argparse.Namespace) -> int:
    with _store(args) as store:
        store.undo_merge(args.player, reason=args.reason or "")
    return 0


def cmd_delete_player(args: argparse.Namespace) -> int:
    with _store(args) as store:
        store.delete_player(args.player)
    return 0


def cmd_settled(args: argparse.Namespace) -> int:
    from ..scoring.pulya.settlement import minor_digits
    from ..store.directory import currency_code

    digits = minor_digits(currency_code(args.currency))
    try:
        units = int(Decimal(args.amount.replace(",", ".")).scaleb(digits).to_integral_exact())
    except (InvalidOperation, ValueError):
        raise ScorepadError(
            msg(N_("{amount} is not an amount of money"), amount=repr(args.amount[:24]))
        ) from None
    with _store(args) as store:
        store.settle_debt(
            args.payer, args.payee, units, currency=args.currency, reason=args.reason or ""
        )
    return 0


def cmd_season(args: argparse.Namespace) -> int:
    """Create a season (``--since``, ``--until``, ``--player`` …) or show one's standings."""
    from ..players.season import owes, season_table, settled_in
    from ..players.stats import played
    from ..report.pulya import money_text
    from ..scoring.pulya.session import shown
    from ..scoring.pulya.settlement import format_money, minor_digits
    from ..store import NotFound, default_path

    writes = bool(args.since or args.until or args.player)
    if not writes and not args.db and not default_path().exists():
        # A read creates nothing: with no database, there is no season.
        raise NotFound(msg(N_("there is no season {name}"), name=repr(args.name[:24])))
    with _store(args, create=writes) as store:
        if writes:
            if not (args.since and args.until and args.player):
                raise ScorepadError(
                    msg(N_("a new season needs --since, --until and at least one --player"))
                )
            sid = store.create_season(
                args.name, since=args.since, until=args.until, players=args.player
            )
            print(sid)
            return 0
        found = [s for s in store.seasons() if s.name == args.name]
        if not found:
            raise ScorepadError(msg(N_("there is no season {name}"), name=repr(args.name[:24])))
        season = found[-1]
        names = player_names(store)
        table = season_table(
            played(store),
            since=season.since,
            until=season.until,
            group=season.players,
            settled=settled_in(store),
        )
    cat = catalog(args.lang)
    if args.csv:
        rows = [
            {
                "place": k + 1,
                "player_id": r.player,
                "name": names.get(r.player, str(r.player)),
                "games": r.games,
                "money": "; ".join(
                    f"{format_money(v, minor_digits(c))} {c}" for c, v in sorted(r.money.items())
                ),
                "rating": f"{r.rating.ordinal:.2f}" if r.rating and r.rating.shown else "",
            }
            for k, r in enumerate(table.by_money)
        ]
        sys.stdout.write(csv_text(rows))
        return 0
    print(
        cat.render(
            msg(
                N_("{name}: {since} to {until}"),
                name=shown(season.name),
                since=season.since,
                until=season.until,
            )
        )
    )
    for title, rows_ in (
        (N_("By money"), table.by_money),
        (N_("By rating"), table.by_rating),
        (N_("By games played"), table.by_games),
    ):
        print(cat.gettext(title))
        for k, r in enumerate(rows_, start=1):
            money = ", ".join(
                money_text(v, minor_digits(c), c, args.lang) for c, v in sorted(r.money.items())
            )
            rating = (
                f"{r.rating.ordinal:.1f}"
                if r.rating and r.rating.shown
                else cat.render(msg(N_("not yet rated")))
            )
            games = cat.render(nmsg("{n} game", "{n} games", r.games))
            print(f"{k:3}. {names.get(r.player, str(r.player)):16} {games:10} {money:14} {rating}")
    for d in table.debts:
        amount = money_text(d.amount, minor_digits(d.currency), d.currency, args.lang)
        print(
            cat.render(
                owes(names.get(d.debtor, "?"), names.get(d.creditor, "?"), amount, d.evenings)
            )
        )
    return 0


def add_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    """The directory's commands, added to the ``scorepad`` parser."""

    def table(
        name: str, help_: str, func: Any, *, period: bool = True, family: bool = True
    ) -> None:
        p = sub.add_parser(name, parents=[common], help=help_)
        if period:
            p.add_argument("--since", help="from this date on (YYYY-MM-DD)")
            p.add_argument("--until", help="up to this date (YYYY-MM-DD)")
        if family:
            p.add_argument("--family", choices=FAMILIES)
        p.add_argument(
            "--player",
            type=int,
            action="append",
            help="only the tables where every seat is one of these players (repeat)",
        )
        p.add_argument("--csv", action="store_true", help="write the table as CSV")
        p.set_defaults(func=func, since=None, until=None, family=None)

    table("players", "every player's record, by family", cmd_players)
    table("ratings", "each player's rating per family", cmd_ratings, period=False)
    table("debts", "who owes whom across the evenings", cmd_debts, family=False)

    p = sub.add_parser("close", parents=[common], help="close a game abandoned before its end")
    p.add_argument("session", type=int)
    p.add_argument("--reason", required=True, help="why the game stopped (kept with it)")
    p.set_defaults(func=cmd_close)

    p = sub.add_parser("reopen", parents=[common], help="put a closed game back in play")
    p.add_argument("session", type=int)
    p.set_defaults(func=cmd_reopen)

    p = sub.add_parser("rename", parents=[common], help="rename a player everywhere")
    p.add_argument("player", type=int)
    p.add_argument("name")
    p.add_argument("--reason")
    p.set_defaults(func=cmd_rename)

    p = sub.add_parser("merge", parents=[common], help="two entries are the same person")
    p.add_argument("player", type=int)
    p.add_argument("into", type=int)
    p.add_argument("--reason", required=True)
    p.set_defaults(func=cmd_merge)

    p = sub.add_parser("unmerge", parents=[common], help="take back a merge")
    p.add_argument("player", type=int)
    p.add_argument("--reason")
    p.set_defaults(func=cmd_unmerge)

    p = sub.add_parser("delete-player", parents=[common], help="delete an entry nobody sits under")
    p.add_argument("player", type=int)
    p.set_defaults(func=cmd_delete_player)

    p = sub.add_parser("season", parents=[common], help="create a season, or show its standings")
    p.add_argument("name")
    p.add_argument("--since", help="a new season's first day (YYYY-MM-DD)")
    p.add_argument("--until", help="a new season's last day (YYYY-MM-DD)")
    p.add_argument("--player", type=int, action="append", help="a member (repeat)")
    p.add_argument("--csv", action="store_true", help="write the standings by money as CSV")
    p.set_defaults(func=cmd_season)

    p = sub.add_parser("settled", parents=[common], help="a debt was paid")
    p.add_argument("payer", type=int)
    p.add_argument("payee", type=int)
    p.add_argument("amount")
    p.add_argument("--currency", default="RUB")
    p.add_argument("--reason")
    p.set_defaults(func=cmd_settled)
