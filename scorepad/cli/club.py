"""``scorepad club …``: a club night from the command line (a thin layer over :mod:`scorepad.club.store`).

Only the parser is built at import time; a command imports the store when it runs, so that
``scorepad --help`` loads nothing of it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.i18n import N_, Msg, ScorepadError, catalog, msg, nmsg
from . import common

if TYPE_CHECKING:
    from ..club.store import ClubStore


def _club(args: argparse.Namespace, *, create: bool = True) -> ClubStore:
    from ..club.store import ClubStore

    return ClubStore(args.store, create=create)


# The commands that only read: they create nothing (no database, no folder, no club tables)
# and leave the file byte for byte as it was (``pdf`` mints a table's missing join link, and
# only for a night that exists).
READS = frozenset({"nights", "tables", "standings", "summary", "export", "pdf"})


def _run(
    command: Callable[[argparse.Namespace, ClubStore], int],
    *,
    reads: bool = False,
    prepare: Callable[[argparse.Namespace], None] | None = None,
) -> Callable[[argparse.Namespace], int]:
    """Open the database for the command; a refusal of the club engine exits with status 2.

    ``prepare`` reads and checks the command's input before the database is opened: a refused
    input creates no database, no folder and no club table (the command makes the club's
    tables itself, in its own transaction)."""

    def run(args: argparse.Namespace) -> int:
        from ..store import NotFound, default_path

        try:
            if prepare is not None:
                prepare(args)
            try:
                # ``pdf`` reads, and mints a table's missing join link: not opened read-only.
                store = common.open_database(
                    args, create=not reads, read_only=reads and command is not cmd_pdf
                )
            except NotFound:
                if not (reads and not args.db and not default_path().exists()):
                    raise
                # No database yet: no nights. Answered as an empty database would answer.
                if command is cmd_nights:
                    return 0
                raise ScorepadError(
                    msg(N_("there is no night {id}"), id=getattr(args, "night", 0))
                ) from None
            with store:
                args.store = store
                return command(args, _club(args, create=not reads and prepare is None))
        except ScorepadError as exc:
            from ..store import StoreError

            if isinstance(exc, StoreError):
                raise
            return common.fail(exc.message.render(args.lang).splitlines())

    return run


def _deal(text: str) -> dict[str, Any]:

    data = common.read_input(text).decode("utf-8") if text == "-" or Path(text).is_file() else text
    try:
        deal = json.loads(data)
    except ValueError:
        deal = None
    if not isinstance(deal, dict):
        raise common.Refused(msg(N_("a deal is a JSON object, like the deals of a session file")))
    return deal


def _place(
    club: ClubStore, night: int, tour: int, table: int, number: int, *, voided: bool = False
) -> int:
    """The deal id of the table's deal number ``number``: the number said at the table, which a
    voided deal keeps (the History's, the phones', the protocol's; issue #37).

    ``voided``: the deal may be a voided one (a restore); any other command names a deal that
    counts, and a voided one is refused by its number."""
    sid = club.session_of(night, tour, table)
    entries = list(club.store.load(sid).journal.entries.values())
    if not 1 <= number <= len(entries):
        raise ScorepadError(
            msg(N_("table {table} has no deal {number}"), table=table, number=number)
        )
    entry = entries[number - 1]
    if entry.voided and not voided:
        raise ScorepadError(
            msg(
                N_("deal {number} of table {table} is voided: restore it first"),
                table=table,
                number=number,
            )
        )
    return entry.deal_id


def cmd_create(args: argparse.Namespace, club: ClubStore) -> int:
    from ..club.scoring import parse_scoring

    try:
        date = dt.date.fromisoformat(args.date) if args.date else dt.date.today()
    except ValueError:
        raise ScorepadError(
            msg(N_("{value} is not a date like 2026-12-01"), value=repr(args.date[:20]))
        ) from None
    nid = club.create_night(
        args.name,
        date=date,
        tours=args.tours,
        convention=args.convention,
        pool_target=args.pool,
        deals_per_tour=args.deals,
        scoring=parse_scoring(args.scoring),
        seats=args.seats,
        seed=args.seed,
    )
    print(nid)
    return 0


def cmd_nights(args: argparse.Namespace, club: ClubStore) -> int:
    for nid, name, date in club.nights():
        print(f"{nid:5}  {date}  {name}")
    return 0


def cmd_check_in(args: argparse.Namespace, club: ClubStore) -> int:
    night = club.load(args.night)
    for name in args.names:  # every name checked before one is written
        night = night.check_in(name)
    for name in args.names:
        back = club.load(args.night).returning(name)
        p = club.check_in(args.night, name)
        if back is not None and back.number == p.number:
            _came_back(args, club, p.number)
        else:
            print(f"#{p.number} {p.name}")
    return 0


def _came_back(args: argparse.Namespace, club: ClubStore, number: int) -> None:
    night = club.load(args.night)
    p = night.player(number)
    print(
        catalog(args.lang).render(
            msg(
                N_("#{number} {name} is back: plays again from tour {tour}"),
                number=p.number,
                name=p.name,
                tour=night.next_tour,
            )
        )
    )


def cmd_come_back(args: argparse.Namespace, club: ClubStore) -> int:
    club.come_back(args.night, args.number)
    _came_back(args, club, args.number)
    return 0


def cmd_withdraw(args: argparse.Namespace, club: ClubStore) -> int:
    p = club.withdraw(args.night, args.number)
    print(
        catalog(args.lang).render(
            msg(
                N_("#{number} {name} plays no tour after tour {tour}"),
                number=p.number,
                name=p.name,
                tour=p.last_tour,
            )
        )
    )
    return 0


def cmd_draw(args: argparse.Namespace, club: ClubStore) -> int:
    from ..club.summary import seating_lines

    report = club.redraw(args.night, confirmed=args.yes) if args.again else club.draw(args.night)
    for line in seating_lines(club.load(args.night), report.tour, args.lang, report):
        print(line)
    return 0


def cmd_tables(args: argparse.Namespace, club: ClubStore) -> int:
    from ..club.disputes import change_rejection, deal_disputes
    from ..club.store import voided_words
    from ..store import now

    cat = catalog(args.lang)
    at = dt.datetime.fromisoformat(now())
    for v in club.tables(args.night, args.tour):
        state = cat.render(msg(_TABLE_STATES[v.state]))
        line = cat.render(
            nmsg(
                "Table {table}: {n} deal, {state}; {provisional} to confirm",
                "Table {table}: {n} deals, {state}; {provisional} to confirm",
                v.deals,
                table=v.table,
                state=state,
                provisional=v.provisional,
            )
        )
        voided = voided_words(v.voided)
        if voided is not None:
            line += "; " + cat.render(voided)
        idle = v.idle_minutes(at)
        if idle is not None and v.state == "playing":
            line += "; " + cat.render(msg(N_("no deal for {minutes} min"), minutes=idle))
        print(line)
        # The table's disputes, as the director's view says them: which deal, who, and why.
        for _, said in deal_disputes(club, v):
            print("  " + cat.render(said))
        for c in v.rejected:
            print("  " + cat.render(change_rejection(v.table, c)))
    return 0


_TABLE_STATES = {
    "waiting": N_("no deal yet"),
    "playing": N_("playing"),
    "finished": N_("done"),
    "disputed": N_("a deal disputed"),
}


def cmd_deal(args: argparse.Namespace, club: ClubStore) -> int:
    sid = club.session_of(args.night, args.tour, args.table)
    seen = club.store.load(sid).revision
    stored = club.write_deal(
        args.night, args.tour, args.table, _deal(args.deal), by=args.by, seen=seen
    )
    # The number the table says: voided deals before it keep theirs (issue #37).
    print(len(stored.journal.entries))
    return 0


def cmd_confirm(args: argparse.Namespace, club: ClubStore) -> int:
    if (args.deal is None) == (args.change is None):
        raise ScorepadError(msg(N_("name a deal or a change (--change), one of them")))
    if args.reason is not None and not args.reject:
        raise ScorepadError(msg(N_("--reason says why a deal or a change is rejected (--reject)")))
    where = (args.night, args.tour, args.table)
    if args.change is not None:
        from ..club.store import change_words

        change = club.decide_change(
            *where, args.change, by=args.by, confirmed=not args.reject, reason=args.reason
        )
        what: Msg = change_words(change)
        state, why = change.state, change.rejection
    else:
        deal = _place(club, *where, args.deal)
        if args.reject:
            mark = club.reject(*where, deal, by=args.by, reason=args.reason or "")
        else:
            mark = club.confirm(*where, deal, by=args.by)
        what = msg(N_("deal {number}"), number=mark.number)
        state, why = mark.state, mark.rejection
    said = (
        msg(N_("{what}: {state}"), what=what, state=_state(state))
        if why is None
        else msg(N_("{what}: {state} ({reason})"), what=what, state=_state(state), reason=why)
    )
    print(catalog(args.lang).render(said))
    return 0


def cmd_change(args: argparse.Namespace, club: ClubStore) -> int:
    """``club void``, ``restore``, ``undo``, ``redo``: a player's change at his table; prints
    its number (``club confirm … --change N`` confirms it) and that it waits."""
    from ..club.store import change_words

    where = (args.night, args.tour, args.table)
    kind = args.club_command
    if kind == "void":
        deal = _place(club, *where, args.deal)
        change = club.void_deal(*where, deal, by=args.by, reason=args.reason)
    elif kind == "restore":
        deal = _place(club, *where, args.deal, voided=True)
        change = club.restore_deal(*where, deal, by=args.by)
    elif kind == "undo":
        change = club.undo(*where, by=args.by)
    else:
        change = club.redo(*where, by=args.by)
    print(
        catalog(args.lang).render(
            msg(N_("{change}: {state}"), change=change_words(change), state=_state(change.state))
        )
    )
    return 0


def _state(state: str) -> Any:
    from ..club.store import STATE_WORDS

    return STATE_WORDS[state]


def cmd_correct(args: argparse.Namespace, club: ClubStore) -> int:
    deal = _place(club, args.night, args.tour, args.table, args.deal)
    sid = club.session_of(args.night, args.tour, args.table)
    seen = club.store.load(sid).revision
    club.correct_deal(
        args.night, args.tour, args.table, deal, _deal(args.new), reason=args.reason, seen=seen
    )
    return 0


def cmd_end_tour(args: argparse.Namespace, club: ClubStore) -> int:
    # Ended by mistake with tables still playing, their results would count as they stand:
    # those tables are named and the tour ends only with --yes (issue #37).
    short = club.short_tables(args.night, args.tour)
    if short and not args.yes:
        cat = catalog(args.lang)
        raise ScorepadError(
            Msg(
                "{t}",
                {
                    "t": "\n".join(
                        [
                            cat.render(
                                msg(
                                    N_(
                                        "tour {tour} has tables short of their deals; add --yes to end it as it stands:"
                                    ),
                                    tour=args.tour,
                                )
                            ),
                            *(cat.render(m) for m in short),
                        ]
                    )
                },
            )
        )
    club.end_tour(args.night, args.tour)
    return 0


def cmd_reopen_tour(args: argparse.Namespace, club: ClubStore) -> int:
    withdrawn = club.reopen_tour(args.night, args.tour)
    cat = catalog(args.lang)
    print(cat.render(msg(N_("tour {tour} is open again"), tour=args.tour)))
    if withdrawn is not None:
        print(
            cat.render(
                msg(
                    N_("the draw of tour {tour} is withdrawn: draw it again when tour {open} ends"),
                    tour=withdrawn,
                    open=args.tour,
                )
            )
        )
    return 0


def cmd_standings(args: argparse.Namespace, club: ClubStore) -> int:
    from ..club.summary import standings_lines
    from ..core.numbers import to_json

    night = club.load(args.night)
    if args.json:
        from ..club.standings import standings

        rows = [
            {
                "rank": s.rank,
                "number": s.number,
                "name": s.name,
                "points": to_json(s.points),
                "whists": to_json(s.whists),
                "withdrawn": s.withdrawn,
                "tours": [
                    {
                        "tour": x.tour,
                        "table": x.table,
                        "whists": to_json(x.whists),
                        "points": to_json(x.points),
                        "final": x.final,
                    }
                    for x in s.tours
                ],
            }
            for s in standings(night, through=args.tour)
        ]
        json.dump(rows, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    for line in standings_lines(night, args.lang, through=args.tour):
        print(line)
    return 0


def cmd_export(args: argparse.Namespace, club: ClubStore) -> int:
    from ..store import default_path

    text = club.export_night(args.night)
    if args.file == "-":
        sys.stdout.write(text)
    else:
        common.write_export(Path(args.file), text, db=args.db or default_path(), force=args.force)
    return 0


def _check_import(args: argparse.Namespace) -> None:
    """The club file read and checked in full, before the database is opened."""
    from ..club.file import parse_night

    args.checked = parse_night(common.read_input(args.file))


def cmd_import(args: argparse.Namespace, club: ClubStore) -> int:
    nid, new = club.import_night_file(args.checked)
    print(nid)
    if not new:  # a night is one night in every store (its stable id): said, nothing written
        note = msg(N_("night {id} was in this database already: nothing new"), id=nid)
        print(note.render(args.lang), file=sys.stderr)
    return 0


def cmd_pdf(args: argparse.Namespace, club: ClubStore) -> int:
    from ..app.server.grants import Grants
    from ..club.pdf import night_pdf
    from ..club.store import table_pin
    from ..store import default_path

    night = club.load(args.night)  # no such night: refused before anything is written
    base, note = _join_base(args)
    # A table's join link is minted the first time it is asked for (the app does the same):
    # the only write of this command, and only for a night that exists.
    links = Grants(club.store, threading.RLock())

    def join_url(tour: int, table: int) -> str:
        # The table's link with its token (a link without it opens nothing), as the app's.
        sid = club.session_of(args.night, tour, table)
        return f"{base.rstrip('/')}/join/{sid}/{links.link(sid)}"

    def pin(tour: int, table: int) -> str | None:
        return table_pin(club.store, club.session_of(args.night, tour, table))

    data = night_pdf(
        night,
        club.protocols(args.night, args.tour),
        lang=args.lang,
        tour=args.tour,
        join_url=join_url,
        pin=pin,
    )
    target = Path(args.file)
    if common.is_database_file(target, args.db or default_path()):
        raise common.Refused(
            msg(
                N_("{path} is the database or one of its files: the export was not written"),
                path=args.file,
            )
        )
    try:
        with target.open("wb" if args.force else "xb") as f:
            f.write(data)
    except FileExistsError:
        raise common.Refused(
            msg(N_("{path} exists: add --force to overwrite it"), path=args.file)
        ) from None
    except OSError as exc:
        raise common.Refused(
            msg(
                N_("cannot write {path}: {reason}"), path=args.file, reason=exc.strerror or str(exc)
            )
        ) from None
    if note is not None:
        print(note, file=sys.stderr)
    return 0


def _join_base(args: argparse.Namespace) -> tuple[str, str | None]:
    """Where the QR codes send the phones: --base as given; else the running server of this
    database (its port; its address, or this computer's network address for a server on
    every interface), --address and --port overriding; a server that only this computer can
    reach, or none running, is the note said on stderr once the PDF is written."""
    from ..club.reach import base_for, running_server
    from ..store import default_path

    if args.base:
        return str(args.base), None
    db = Path(args.db) if args.db else default_path()
    found = running_server(db, default_path())
    base = base_for(found, address=args.address, port=args.qr_port)
    cat = catalog(args.lang)
    if found is None:
        note = msg(
            N_("no Scorepad server is running on this database: the QR codes say {base}"),
            base=base,
        )
    elif found.local_only:
        note = msg(
            N_(
                "the server on port {port} listens only on this computer: phones cannot open {base}; start it with --share"
            ),
            port=found.port,
            base=base,
        )
    else:
        return base, None
    return base, cat.render(note)


def cmd_summary(args: argparse.Namespace, club: ClubStore) -> int:
    from ..club.summary import seating_lines, standings_lines

    night = club.load(args.night)
    print("\n".join(standings_lines(night, args.lang)))
    nxt = night.current
    if nxt is not None and nxt.state != "ended":
        print()
        print("\n".join(seating_lines(night, nxt.number, args.lang)))
    return 0


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    """``scorepad club``: its own subcommands."""
    club = sub.add_parser(
        "club", parents=[common], help="a club night: registry, draw, tables, standings"
    )
    cs = club.add_subparsers(dest="club_command", required=True)

    def command(
        name: str,
        func: Callable[[argparse.Namespace, ClubStore], int],
        help: str,
        *numbers: str,
    ) -> argparse.ArgumentParser:
        """A subcommand; ``numbers``: its first arguments, each a whole number (a night, a
        tour, a table, a deal or a player's number), in that order."""
        p: argparse.ArgumentParser = cs.add_parser(name, parents=[common], help=help)
        prepare = _check_import if name == "import" else None
        p.set_defaults(func=_run(func, reads=name in READS, prepare=prepare))
        for number in numbers:
            p.add_argument(number, type=int)
        return p

    p = command("create", cmd_create, "create a night; prints its id")
    p.add_argument("name")
    p.add_argument("--date", help="the night's date (default today), like 2026-12-01")
    p.add_argument("--tours", type=int, required=True, help="the number of tours")
    length = p.add_mutually_exclusive_group(required=True)
    length.add_argument("--pool", type=int, help="each table plays to this pool target")
    length.add_argument("--deals", type=int, help="each table plays this many deals a tour")
    p.add_argument("--convention", default="sochi", help="the convention of every table (frozen)")
    p.add_argument(
        "--scoring",
        default="whists",
        help="tour points: whists, whists:normalised, places:3/2/1/0, piecewise:200=1:1,10:1",
    )
    p.add_argument(
        "--seats",
        type=int,
        choices=(3, 4),
        help="every table this size (default: 3, and 4 where needed)",
    )
    p.add_argument("--seed", type=int, help="the draw's seed (default: random)")

    command("nights", cmd_nights, "list the nights")

    p = command(
        "check-in", cmd_check_in, "check players in (from the roster or new names)", "night"
    )
    p.add_argument("names", nargs="+")

    command("withdraw", cmd_withdraw, "a player leaves between tours", "night", "number")

    command(
        "come-back",
        cmd_come_back,
        "take a withdrawal back: the player plays again from the next tour, with his record",
        "night",
        "number",
    )

    p = command(
        "draw", cmd_draw, "draw the next tour (or --again the current one, with --yes)", "night"
    )
    p.add_argument(
        "--again", action="store_true", help="draw the current tour again (before its first deal)"
    )
    p.add_argument("--yes", action="store_true", help="confirm the re-draw")

    p = command(
        "tables", cmd_tables, "the director's view: every table of a tour and its state", "night"
    )
    p.add_argument("--tour", type=int)

    p = command(
        "deal",
        cmd_deal,
        "write a deal at a table (provisional until confirmed)",
        "night",
        "tour",
        "table",
    )
    p.add_argument("deal", help="the deal as JSON (as in a session file), a file, or -")
    p.add_argument("--by", type=int, required=True, help="the number of the player who writes it")

    p = command(
        "confirm",
        cmd_confirm,
        "confirm (or --reject) a table's deal, or its change",
        "night",
        "tour",
        "table",
    )
    p.add_argument("deal", type=int, nargs="?", help="the deal's number at the table")
    p.add_argument(
        "--change",
        type=int,
        help="a void, restore, undo or redo instead (its number, as `club void` printed it)",
    )
    p.add_argument("--by", type=int, required=True, help="the number of the player who confirms")
    p.add_argument(
        "--reject",
        action="store_true",
        help="it is wrong: a deal is disputed; a change is taken back and disputed (with --reason)",
    )
    p.add_argument("--reason", help="with --reject, required: what is wrong, in your words")

    for name, helped in (
        ("void", "void a deal at a table, with a reason (provisional until confirmed)"),
        ("restore", "take a void back at a table (provisional until confirmed)"),
        ("undo", "undo the table's last change (provisional until confirmed)"),
        ("redo", "redo what the table undid (provisional until confirmed)"),
    ):
        p = command(name, cmd_change, helped, "night", "tour", "table")
        if name in ("void", "restore"):
            p.add_argument("deal", type=int, help="the deal's number at the table (as History)")
        if name == "void":
            p.add_argument("--reason", required=True, help="why (written in the journal)")
        p.add_argument("--by", type=int, required=True, help="the number of the player")

    p = command(
        "correct",
        cmd_correct,
        "the director corrects a table's deal, with a reason",
        "night",
        "tour",
        "table",
        "deal",
    )
    p.add_argument("new", help="the deal as it should be (JSON, a file, or -)")
    p.add_argument("--reason", default="", help="why (written in the journal)")

    p = command(
        "end-tour",
        cmd_end_tour,
        "end a tour: its results count and change only by the director",
        "night",
        "tour",
    )
    p.add_argument(
        "--yes", action="store_true", help="end it even with tables short of their deals"
    )

    command(
        "reopen-tour",
        cmd_reopen_tour,
        "reopen an ended tour (until the next tour's first deal; a next tour drawn is withdrawn)",
        "night",
        "tour",
    )

    p = command(
        "standings", cmd_standings, "the standings, each player's tour-by-tour line", "night"
    )
    p.add_argument("--tour", type=int, help="after this tour (default: everything written)")
    p.add_argument("--json", action="store_true")

    p = command("export", cmd_export, "write the night as one scorepad-club/1 file", "night")
    p.add_argument("file", help="the file to write, or - for standard output")
    p.add_argument("--force", action="store_true", help="overwrite the file if it exists")

    p = command(
        "pdf",
        cmd_pdf,
        "the seating sheet with QR codes, the tables' protocols, the standings",
        "night",
    )
    p.add_argument("file", help="the PDF file to write")
    p.add_argument(
        "--tour",
        type=int,
        help="this tour's seating and protocols (default: the current seating, every protocol)",
    )
    p.add_argument(
        "--base",
        help="the address phones join at, like http://192.168.1.20:8551 (default: the running "
        "server's address and port, else this computer's network address, port 8550)",
    )
    p.add_argument("--address", help="the address in the QR codes (default: as --base says)")
    p.add_argument(
        "--port",
        dest="qr_port",
        type=int,
        help="the port in the QR codes (default: as --base says)",
    )
    p.add_argument("--force", action="store_true", help="overwrite the file if it exists")

    command(
        "summary",
        cmd_summary,
        "the standings (and the seating being played) as plain text for a messenger",
        "night",
    )

    p = command("import", cmd_import, "store a club file (checked in full first); prints its id")
    p.add_argument("file")
