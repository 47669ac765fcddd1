"""``scorepad league``: a league of clubs (issue #39, docs/league.md).

The league's operator, on the league's database (``--db``, the server's PostgreSQL):
``league club add NAME`` (prints the club's secret, once), ``league club revoke CLUB``,
``league club renew CLUB`` (a new secret),
``league club list``, ``league nights``.  A club's director, on the club's own store:
``league join URL SECRET`` (kept in the club's outbox file beside the store, never in it),
``league publish [NIGHT...] [--change TEXT]`` and ``league claim-code PLAYER`` (a code the
league gives for one of the club's players, asked through the same file).  The season's commands (players, links,
standings) are another module's, added to the same ``league`` command (see ``add_parser``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..core.i18n import N_, msg
from . import common
from .common import database_of


def add_parser(sub: Any, common_parser: argparse.ArgumentParser) -> None:
    league = sub.add_parser(
        "league",
        parents=[common_parser],
        help="a league of clubs: its clubs and their published nights, a club's publishing",
    )
    ls = league.add_subparsers(dest="league_command", required=True)

    club = ls.add_parser(
        "club", parents=[common_parser], help="the league's clubs (the operator's)"
    )
    cs = club.add_subparsers(dest="club_command", required=True)
    p = cs.add_parser(
        "add", parents=[common_parser], help="a new club: prints its id and its secret (once)"
    )
    p.add_argument("name")
    p.set_defaults(func=cmd_club_add)
    p = cs.add_parser(
        "revoke", parents=[common_parser], help="the club's secret publishes nothing from now on"
    )
    p.add_argument("club", help="the club's id (scorepad league club list)")
    p.set_defaults(func=cmd_club_revoke)
    p = cs.add_parser(
        "renew",
        parents=[common_parser],
        help="a new secret for the club (printed once); the old one stops, a revoked club is back",
    )
    p.add_argument("club", help="the club's id (scorepad league club list)")
    p.set_defaults(func=cmd_club_renew)
    p = cs.add_parser("list", parents=[common_parser], help="the clubs: id, name, joined, revoked")
    p.set_defaults(func=cmd_club_list)

    p = ls.add_parser(
        "nights",
        parents=[common_parser],
        help="the league's nights in the order they were played (--all: every version)",
    )
    p.add_argument("--all", action="store_true", help="every version of every night")
    p.set_defaults(func=cmd_nights)

    outbox = argparse.ArgumentParser(add_help=False)
    outbox.add_argument(
        "--outbox",
        type=Path,
        metavar="FILE",
        help="the club's league file (default: beside the club's store, DB.league.json)",
    )
    p = ls.add_parser(
        "join",
        parents=[common_parser, outbox],
        help="this club publishes to the league at URL with the SECRET its operator gave",
    )
    p.add_argument("url", help="the league's address, https://HOST[:PORT]")
    p.add_argument("secret")
    p.add_argument("--ca", metavar="FILE", help="a private authority's certificate to trust")
    p.set_defaults(func=cmd_join)
    p = ls.add_parser(
        "publish",
        parents=[common_parser, outbox],
        help="send ended nights (default: every one) to the league; queued while it is away",
    )
    p.add_argument("nights", nargs="*", type=int, metavar="NIGHT", help="a night's id")
    p.add_argument("--change", help="what a corrected night changed, in the director's words")
    p.set_defaults(func=cmd_publish)

    # The season's commands (league players, links, standings, ratings) join the same
    # ``league`` command from their own module: one module per idea.
    from .league_season import add_commands as add_season

    add_season(ls, common_parser, club_claim_code=cmd_club_claim_code)


def _league(args: argparse.Namespace, *, create: bool, writes: bool = True) -> Any:
    """The league's store: ``create`` a new database (a club's first ``add``); a command that
    only reads opens it read-only."""
    from ..league.store import LeagueStore

    return LeagueStore(common.open_database(args, create=create, read_only=not writes))


def cmd_club_add(args: argparse.Namespace) -> int:
    league = _league(args, create=True)
    try:
        cid, secret = league.add_club(args.name)
    finally:
        league.store.close()
    print(
        msg(N_("Club {name} is in the league: its id is {id}"), name=args.name, id=cid).render(
            args.lang
        )
    )
    print(
        msg(
            N_("Its secret (shown this once; give it to the club's director): {secret}"),
            secret=secret,
        ).render(args.lang)
    )
    return 0


def cmd_club_revoke(args: argparse.Namespace) -> int:
    league = _league(args, create=False)
    try:
        league.revoke_club(args.club)
    finally:
        league.store.close()
    print(
        msg(
            N_("Club {id} is revoked: its secret publishes nothing from now on"), id=args.club
        ).render(args.lang)
    )
    return 0


def cmd_club_renew(args: argparse.Namespace) -> int:
    league = _league(args, create=False)
    try:
        secret = league.renew_secret(args.club)
    finally:
        league.store.close()
    print(
        msg(
            N_("Its secret (shown this once; give it to the club's director): {secret}"),
            secret=secret,
        ).render(args.lang)
    )
    return 0


def cmd_club_list(args: argparse.Namespace) -> int:
    league = _league(args, create=False, writes=False)
    try:
        for c in league.clubs():
            print("\t".join([c.id, c.name, c.joined, c.revoked or ""]))
    finally:
        league.store.close()
    return 0


def cmd_nights(args: argparse.Namespace) -> int:
    """One line a night (a version, with --all): date, club, name, version, digest, change."""
    league = _league(args, create=False, writes=False)
    try:
        names = {c.id: c.name for c in league.clubs()}
        for n in league.nights(current=not args.all):
            head = json.loads(n.document)
            fields = [head["date"], names.get(n.club, n.club), head["name"], str(n.version)]
            print("\t".join([*fields, n.digest, n.change or ""]))
    finally:
        league.store.close()
    return 0


def _outbox_of(args: argparse.Namespace) -> Path:
    from ..league.outbox import outbox_path

    return args.outbox or outbox_path(database_of(args))


def cmd_join(args: argparse.Namespace) -> int:
    from ..league.outbox import Outbox

    with Outbox.open(_outbox_of(args)) as box:
        base = box.join(args.url, args.secret, args.ca)
    print(msg(N_("This club publishes to the league at {url}"), url=base).render(args.lang))
    return 0


def cmd_publish(args: argparse.Namespace) -> int:
    from ..club.store import ClubStore
    from ..league.outbox import Outbox, publish

    path = _outbox_of(args)
    store = common.open_database(args, create=False)
    try:
        with Outbox.open(path) as box:
            if box.league is None:  # said before a night is read
                publish_refused = msg(
                    N_("this club has not joined a league: scorepad league join URL SECRET")
                )
                raise common.Refused(publish_refused)
            done = publish(
                ClubStore(store), box, args.nights or None, change=args.change, lang=args.lang
            )
    finally:
        store.close()
    for line in done.lines():
        print(line.render(args.lang))
    return 1 if done.refused else 0


def _club_player(store: Any, player: str) -> str:
    """The club's player named ``player`` (his name, or his id) in the club's nights: his id
    (the league names him as the club's published nights do)."""
    from ..club.store import ClubStore
    from ..scoring.pulya.session import look_alike

    club = ClubStore(store)
    found: dict[str, str] = {}
    for nid, _, _ in reversed(club.nights()):  # oldest first: the name played under last wins
        for p in club.load(nid).players:
            if p.uid and (p.uid == player or look_alike(p.name) == look_alike(player)):
                found[p.uid] = p.name
    if player in found:
        return player
    if not found:
        raise common.Refused(
            msg(N_("there is no player {name} in this club's nights"), name=repr(player))
        )
    if len(found) > 1:
        raise common.Refused(
            msg(
                N_("{name} is the name of several players of this club: give his id ({ids})"),
                name=repr(player),
                ids=", ".join(sorted(found)),
            )
        )
    return next(iter(found))


def cmd_club_claim_code(args: argparse.Namespace, player: str) -> int:
    """The club's director asks the league for a player's claim code, and prints it."""
    from ..league.client import Issued, Refusal, ask_claim_code
    from ..league.outbox import Outbox

    store = common.open_database(args, create=False, read_only=True)
    try:
        uid = _club_player(store, player)
    finally:
        store.close()
    with Outbox.open(_outbox_of(args)) as box:
        if box.league is None or box.secret is None:
            raise common.Refused(
                msg(N_("this club has not joined a league: scorepad league join URL SECRET"))
            )
        answer = ask_claim_code(box.league, box.secret, uid, lang=args.lang, ca=box.ca)
    if isinstance(answer, Refusal):
        raise common.Refused(msg(N_("the league says: {said}"), said=answer.said))
    if not isinstance(answer, Issued):
        raise common.Refused(
            msg(N_("the league gives no code now: {reason}"), reason=answer.reason)
        )
    print(
        msg(
            N_("The code for {name} to claim a place in the league: {code} (shown once)"),
            name=answer.name,
            code=answer.code,
        ).render(args.lang)
    )
    return 0
