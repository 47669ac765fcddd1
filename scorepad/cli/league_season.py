"""``scorepad league players|link|claim-code|merge|split|members-link|standings|pdf``: the league's
players and its season from the command line (a thin layer over :mod:`scorepad.league.players`
and :mod:`scorepad.league.season`), run by the league's operator on the league's database.

The season's nights are the league's store's (``--db``); ``--file CLUB=PATH`` (repeated) reads
clubs' own files instead: the recomputation anyone can run to check the league's figures.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.i18n import N_, catalog, msg, nmsg
from . import common

if TYPE_CHECKING:
    from ..league.players import LeaguePlayers
    from ..league.season import Season
    from ..store import Store

#: The commands that only read: the database is opened read-only and nothing is created.
READS = frozenset({"players", "standings", "pdf"})


def _run(
    command: Callable[[argparse.Namespace, LeaguePlayers | None], int], *, reads: bool
) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        from ..league.players import LeaguePlayers
        from ..store import NotFound

        try:
            store = common.open_database(args, create=not reads)
        except NotFound:
            if not getattr(args, "file", None):
                raise
            # The clubs' files alone, without a league database: nobody is linked yet.
            args.store = None
            return command(args, None)
        with store:
            args.store = store
            return command(args, LeaguePlayers(store))

    return run


def _say(args: argparse.Namespace, m: Any) -> None:
    print(catalog(args.lang).render(m))


def cmd_players(args: argparse.Namespace, league: LeaguePlayers | None) -> int:
    assert league is not None  # a command that needs the database opens it or is refused
    players = league.players()
    if args.json:
        json.dump(
            [
                {
                    "uid": p.uid,
                    "name": p.name,
                    "merged_into": p.merged_into,
                    "links": [
                        {"club": x.club, "player": x.player, "name": x.name, "by": x.by}
                        for x in p.links
                    ],
                }
                for p in players
            ],
            sys.stdout,
            ensure_ascii=False,
            indent=2,
        )
        sys.stdout.write("\n")
        return 0
    for p in players:
        if p.merged_into is not None:
            _say(
                args,
                msg(
                    N_("{uid} {name}: merged into {into}"),
                    uid=p.uid,
                    name=p.name,
                    into=p.merged_into,
                ),
            )
        else:
            _say(
                args,
                nmsg(
                    "{uid} {name}: {n} club player linked",
                    "{uid} {name}: {n} club players linked",
                    len(p.links),
                    uid=p.uid,
                    name=p.name,
                ),
            )
        for x in p.links:
            _say(
                args,
                msg(
                    N_("  {club} / {player}: {name}, claimed by the player")
                    if x.by == "claim"
                    else N_("  {club} / {player}: {name}, by the operator"),
                    club=x.club,
                    player=x.player,
                    name=x.name,
                ),
            )
    return 0


def cmd_link(args: argparse.Namespace, league: LeaguePlayers | None) -> int:
    assert league is not None  # a command that needs the database opens it or is refused
    uid = league.link(
        args.club, args.player, args.name, to=args.to, another_person=args.another_person
    )
    print(uid)
    return 0


def cmd_claim_code(args: argparse.Namespace, league: LeaguePlayers | None) -> int:
    assert league is not None  # a command that needs the database opens it or is refused
    code = league.issue_claim_code(args.club, args.player, args.name)
    _say(
        args,
        msg(
            N_("The code for {name} to claim a place in the league: {code} (shown once)"),
            name=args.name,
            code=code,
        ),
    )
    return 0


def cmd_claim_code_either(
    args: argparse.Namespace, club_side: Callable[[argparse.Namespace, str], int]
) -> int:
    """``claim-code PLAYER`` on the club's store (``club_side``: the league's client asks, from
    cli/league.py, which imports this module), ``claim-code CLUB PLAYER NAME`` on the league's."""
    if len(args.who) == 3:
        args.club, args.player, args.name = args.who
        return _run(cmd_claim_code, reads=False)(args)
    if len(args.who) == 1:
        return club_side(args, args.who[0])
    raise common.Refused(
        msg(
            N_(
                "claim-code takes PLAYER (the club's director) or CLUB PLAYER NAME (the league's operator)"
            )
        )
    )


def cmd_merge(args: argparse.Namespace, league: LeaguePlayers | None) -> int:
    assert league is not None  # a command that needs the database opens it or is refused
    league.merge(args.player, args.into, reason=args.reason)
    return 0


def cmd_split(args: argparse.Namespace, league: LeaguePlayers | None) -> int:
    assert league is not None  # a command that needs the database opens it or is refused
    league.split(args.player, reason=args.reason)
    return 0


def cmd_members_link(args: argparse.Namespace, league: LeaguePlayers | None) -> int:
    assert league is not None  # a command that needs the database opens it or is refused
    if args.revoke:
        n = league.revoke_members_links()
        _say(args, nmsg("{n} members' link revoked", "{n} members' links revoked", n))
        return 0
    token = league.issue_members_link()
    base = (args.public_url or "").rstrip("/")
    _say(
        args,
        msg(
            N_("The league's pages for its members (shown once): {url}"),
            url=f"{base}/league/{token}",
        ),
    )
    return 0


def _files(values: list[str] | None) -> dict[str, list[Path]]:
    out: dict[str, list[Path]] = {}
    for value in values or []:
        club, sep, path = value.partition("=")
        if not sep or not club or not path:
            raise common.Refused(
                msg(N_("{value} is not CLUB=PATH (a club's id and its file)"), value=repr(value))
            )
        out.setdefault(club, []).append(Path(path))
    return out


def season_of_args(args: argparse.Namespace, store: Store | None) -> Season:
    """The season of ``--file CLUB=PATH`` files, or of the league's store of nights (no
    store: the files alone, nobody linked)."""
    from ..league.players import LeaguePlayers, Roster
    from ..league.season import league_season, recompute_from_files

    roster = LeaguePlayers(store).roster() if store is not None else Roster({}, {})
    files = _files(args.file)
    if files:
        for paths in files.values():
            for p in paths:
                if not p.is_file():
                    raise common.Refused(msg(N_("there is no file {path}"), path=str(p)))
        return recompute_from_files(files, roster)
    return league_season(store) if store is not None else recompute_from_files({}, roster)


def cmd_standings(args: argparse.Namespace, league: LeaguePlayers | None) -> int:
    from ..core.numbers import to_json
    from ..league.season import club_names, heading, row_line

    s = season_of_args(args, args.store)
    rows = s.league if args.club is None else s.clubs.get(args.club, ())
    if args.json:
        json.dump(
            [
                {
                    "rank": r.rank,
                    "player": r.who,
                    "name": r.name,
                    "nights": r.nights,
                    "points": to_json(r.points),
                    "whists": to_json(r.whists),
                    "places": list(r.places),
                    "rating": round(s.ratings[r.who].ordinal, 6)
                    if r.who in s.ratings and s.ratings[r.who].shown
                    else None,
                    "mu": s.ratings[r.who].mu if r.who in s.ratings else None,
                    "sigma": s.ratings[r.who].sigma if r.who in s.ratings else None,
                    "games": s.ratings[r.who].games if r.who in s.ratings else 0,
                }
                for r in rows
            ],
            sys.stdout,
            ensure_ascii=False,
            indent=2,
        )
        sys.stdout.write("\n")
        return 0
    _say(args, heading(s, args.club, club_names(args.store)))
    for r in rows:
        _say(args, row_line(r, s.ratings.get(r.who)))
    for c in s.conflicts:
        _say(
            args,
            msg(
                N_(
                    "{date}, {night}: tour {tour}, table {table} is not rated: one league player holds two seats"
                ),
                date=c.night.date.isoformat(),
                night=c.night.name,
                tour=c.tour,
                table=c.table,
            ),
        )
    return 0


def cmd_pdf(args: argparse.Namespace, league: LeaguePlayers | None) -> int:
    from ..league.pdf import league_pdf
    from ..league.season import club_names

    s = season_of_args(args, args.store)
    data = league_pdf(s, lang=args.lang, clubs=club_names(args.store))
    common.write_export(Path(args.out), data, db=common.database_of(args), force=args.force)
    return 0


def add_commands(
    ls: Any,
    common_parser: argparse.ArgumentParser,
    club_claim_code: Callable[[argparse.Namespace, str], int],
) -> None:
    """The season's subcommands of ``scorepad league`` (``ls``: its subparsers;
    ``club_claim_code``: the director's ``claim-code PLAYER``, which asks the league)."""

    def command(
        name: str, func: Callable[[argparse.Namespace, LeaguePlayers | None], int], help: str
    ) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = ls.add_parser(name, parents=[common_parser], help=help)
        p.set_defaults(func=_run(func, reads=name in READS))
        return p

    p = command("players", cmd_players, "list the league's players and their clubs' links")
    p.add_argument("--json", action="store_true", help="as JSON")

    p = command("link", cmd_link, "link a club's player to a league player (once)")
    p.add_argument("club", help="the club's id in the league")
    p.add_argument("player", help="the player's id in the club's nights")
    p.add_argument("name", help="the name he plays under in the club")
    p.add_argument("--to", help="the league player's id (default: a new league player)")
    p.add_argument(
        "--another-person",
        metavar="REASON",
        help="a new league player although his name looks like another's: say why",
    )

    # Two sides, one command: the club's director names his player (PLAYER: the league is asked
    # through the club's league file), the league's operator names the club's player in full.
    p = ls.add_parser(
        "claim-code",
        parents=[common_parser],
        help="a code the club's director gives a player to claim his place in the league",
    )
    p.add_argument(
        "who",
        nargs="+",
        metavar="PLAYER | CLUB PLAYER NAME",
        help="the club's director: his player's name or id; the operator: club, player id, name",
    )
    p.add_argument(
        "--outbox",
        type=Path,
        metavar="FILE",
        help="the club's league file (default: beside the club's store, DB.league.json)",
    )
    p.set_defaults(func=functools.partial(cmd_claim_code_either, club_side=club_claim_code))

    p = command("merge", cmd_merge, "two league players are one person (a record)")
    p.add_argument("player", help="the league player merged away")
    p.add_argument("into", help="the league player he is")
    p.add_argument("--reason", required=True)

    p = command("split", cmd_split, "take a merge back: the player is his own again")
    p.add_argument("player")
    p.add_argument("--reason", required=True)

    p = command("members-link", cmd_members_link, "a link to the league's pages for its members")
    p.add_argument("--revoke", action="store_true", help="close every members' link")
    p.add_argument("--public-url", help="the server's address, as the members open it")

    for name, func, help in (
        ("standings", cmd_standings, "the season's standings and ratings"),
        ("pdf", cmd_pdf, "the league's table as a PDF"),
    ):
        p = command(name, func, help)
        p.add_argument(
            "--file",
            action="append",
            metavar="CLUB=PATH",
            help="a club's own night file (repeated): recompute from the files",
        )
        if name == "standings":
            p.add_argument("--club", help="one club's standings")
            p.add_argument("--json", action="store_true", help="as JSON")
        else:
            p.add_argument("out", help="the PDF file to write")
            p.add_argument("--force", action="store_true", help="replace an existing file")


__all__ = ["add_commands", "season_of_args"]
