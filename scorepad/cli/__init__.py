"""The ``scorepad`` command: a thin layer that parses arguments and prints.

All behaviour lives in the library (:mod:`scorepad.scoring.pulya.session`, :mod:`scorepad.scoring.pulya.score`,
:mod:`scorepad.report.pulya`).  Invalid input: exit status 2, one line per problem on stderr,
nothing on stdout (except ``audit --json`` and batch audits, which print a verdict for every
record, an illegal one's too, and still exit with 2).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__
from ..core.i18n import (
    LANGUAGES,
    N_,
    Catalog,
    Msg,
    ScorepadError,
    catalog,
    msg,
    nmsg,
    system_language,
)
from .common import (
    EXIT_INVALID,
    Refused,
    creating,
    database_of,
    fail,
    forget_created,
    is_database_file,
    is_postgres,
    note_creation,
    open_database,
    opened,
    read_input,
    write_export,
)

# Each command imports what it uses, so that `--help` or `settle FILE` never loads the store
# (sqlite-utils), the rules engine or Flet.
if TYPE_CHECKING:
    from ..play.record import Audit

DEMO = Path(__file__).resolve().parent.parent / "data" / "demo-session.json"
#: Ctrl-C: 128 + SIGINT, as a shell says it.
EXIT_INTERRUPTED = 130


def cmd_settle(args: argparse.Namespace) -> int:
    # The family's engine and report only: a pulya file loads no other family's (issue 12).
    from ..report import report_for
    from ..scoring.family import family
    from ..scoring.peek import peek_family

    stored_id = int(args.file) if args.file.isascii() and args.file.isdigit() else None
    if stored_id is not None and stored_id > MAX_INT and not Path(args.file).exists():
        raise Refused(too_large("session", stored_id))
    if stored_id is not None and not args.db and not Path(args.file).exists():
        from ..store import default_path

        if not default_path().exists():  # a read creates nothing: no database, no folder
            raise Refused(
                msg(
                    N_("cannot read {path}: there is no such file, and no database at {db}"),
                    path=args.file,
                    db=str(default_path()),
                )
            )
    if stored_id is not None and (args.db or not Path(args.file).exists()):
        from ..store.journal import live_numbers  # the journal lives in the store's package

        with open_database(args, create=False) as store:
            stored = store.load_any(stored_id)
            # A stored session's deal numbers as said at the table (a void keeps its).
            name, scored, numbers = stored.family, stored.scored, live_numbers(stored.journal)
    else:
        data = read_input(args.file)
        engine = family(peek_family(data))
        session = engine.parse_session(data)
        # A file's voided deals keep their numbers, and so do the deals after them.
        name, scored, numbers = engine.name, engine.replay(session), [p + 1 for p in session.places]
    report = report_for(name)
    if args.json:
        sys.stdout.write(report.to_json_text(scored, args.lang, numbers))
    else:
        sys.stdout.write(
            report.to_text_sheet(scored, args.lang, explain=args.explain, numbers=numbers)
        )
    return 0


def cmd_sessions(args: argparse.Namespace) -> int:
    from ..store import NotFound, default_path

    cat = catalog(args.lang)
    try:
        with open_database(args, create=False) as store:
            rows = store.sessions()
            closed = store.closed_sessions()
    except NotFound:
        if not args.db and not default_path().exists():
            return 0  # no database yet: no sessions, and none is created by looking
        raise
    for r in rows:
        if r.damage is not None:
            damaged = cat.render(msg(N_("damaged ({detail})"), detail=r.damage))
            print(f"{r.id:5}  {damaged}")
            continue
        state = cat.gettext(N_("finished")) if r.finished_at else cat.gettext(N_("in play"))
        if r.id in closed:  # abandoned before its end (issue 38 item 14)
            state = cat.render(msg(N_("closed ({reason})"), reason=closed[r.id][1]))
        when = r.created_at[:16].replace("T", " ")
        deals = cat.render(nmsg("{n} deal, {state}", "{n} deals, {state}", r.deals, state=state))
        print(f"{r.id:5}  {when}  {r.convention:10}  {', '.join(r.players)}  {deals}")
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    """The database brought to this Scorepad's schema, after a backup (a read never does it)."""
    from ..store import schema_version

    with open_database(args, create=False, read_only=False) as store:
        done = store.migrated
    path, latest = (
        str(opened[-1] if is_postgres(args.db) else args.db or opened[-1]),
        schema_version(),
    )
    if done is None:
        text = msg(
            N_("{path} is up to date (schema {version}); nothing was written"),
            path=path,
            version=latest,
        )
    elif done[1] is None:
        text = msg(
            N_("{path} is now a Scorepad database (schema {version})"), path=path, version=latest
        )
    else:
        text = msg(
            N_("{path} is migrated from schema {old} to {version}; the backup is {backup}"),
            path=path,
            old=done[0],
            version=latest,
            backup=str(done[1]),
        )
    print(text.render(args.lang))
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    from ..scoring.pulya.session import deal_data
    from ..store import describe_action
    from ..store.journal import deal_numbers

    cat = catalog(args.lang)
    with open_database(args, create=False) as store:
        actions = store.history(args.session)
    numbers = deal_numbers(actions)
    for a in actions:
        what = cat.render(describe_action(a, numbers.get(a.seq)))
        line = f"{a.seq:4}  {a.at[:19].replace('T', ' ')}  {what}"
        if a.deal is not None:
            line += "  " + json.dumps(deal_data(a.deal), ensure_ascii=False)
        print(line)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from ..store import default_path

    db = args.db or default_path()
    if args.file != "-" and is_database_file(Path(args.file), db):
        raise Refused(
            msg(
                N_("{path} is the database or one of its files: the export was not written"),
                path=args.file,
            )
        )
    with open_database(args, create=False) as store:
        text = store.export_session(args.session)
    if args.file == "-":
        sys.stdout.write(text)
    else:
        write_export(Path(args.file), text, db=db, force=args.force)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    data = read_input(args.file)
    with open_database(args) as store:
        done = store.import_file(data)
    print(done.id)
    # A session is one session in every store (its stable id): said when it was here already.
    if done.status == "unchanged":
        note = msg(N_("session {id} was in this database already: nothing new"), id=done.id)
        print(note.render(args.lang), file=sys.stderr)
    elif done.status == "extended":
        note = nmsg(
            "session {id} was in this database already: {n} new deal added",
            "session {id} was in this database already: {n} new deals added",
            done.new_deals,
            id=done.id,
        )
        print(note.render(args.lang), file=sys.stderr)
    return 0


def cmd_copy(args: argparse.Namespace) -> int:
    """Every kept session, player and club night of one store into another, by their stable
    ids: what the target has already is left as it is (issue #36).  Either side is a SQLite
    file or a PostgreSQL address (a laptop's history onto a server, and back)."""
    from ..store import Store
    from ..store.backend import redacted
    from ..store.moving import copy_store

    for given in (args.source, args.target):
        if isinstance(given, _Address) and not is_postgres(given):
            raise Refused(_address_refused(given))  # never echoed whole: it may hold a password
    if _same_database(args.source, args.target):
        raise Refused(msg(N_("--from and --to name the same database: nothing was copied")))

    def shown(given: Path | str) -> Path | str:
        return redacted(given) if isinstance(given, str) else given

    opened.append(shown(args.source))
    source_at = str(args.source) if isinstance(args.source, str) else args.source
    with Store(source_at, create=False, read_only=True) as source:
        opened.append(shown(args.target))
        if isinstance(args.target, Path):
            note_creation(args.target)
        target_at = str(args.target) if isinstance(args.target, str) else args.target
        with Store(target_at) as target:
            report = copy_store(source, target)
    for line in report.lines():
        print(line.render(args.lang))
    return 0


def _same_database(a: Path | str, b: Path | str) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return str(a) == str(b)
    return _same_file(a, b)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def _records(paths: Sequence[str]) -> list[tuple[str, bytes | None, Msg | None]]:
    """Every record of the files: (source, text, or why it cannot be read).

    A file holds one JSON record, or JSON lines (one record a line, for a whole night).
    """
    from pydantic_core import from_json

    out: list[tuple[str, bytes | None, Msg | None]] = []
    for path in paths:
        try:
            data = read_input(path)
        except Refused as exc:
            out.append((path, None, exc.message))
            continue
        try:
            from_json(data)  # bounded depth: a record nested 1,000 deep is one refused record
        except ValueError:
            rows = [(k, line) for k, line in enumerate(data.splitlines(), start=1) if line.strip()]
            if len(rows) > 1 or (rows and rows[0][0] > 1):
                out.extend((f"{path}:{k}", line, None) for k, line in rows)
                continue
        out.append((path, data, None))
    return out


def cmd_audit(args: argparse.Namespace) -> int:
    """Audit deal records; exit status 2 when any record is illegal or cannot be read."""
    from ..play.analysis import analyse, analysis_json, lines
    from ..play.record import RecordInvalid, audit, audit_json, dumps, invalid_json, parse_record

    lang = args.lang
    cat = catalog(lang)
    records = _records(args.file)
    single = len(records) == 1
    status = 0
    for source, data, unreadable in records:
        label = None if single else source
        try:
            if unreadable is not None:
                raise RecordInvalid(None, unreadable)
            assert data is not None
            found = audit(parse_record(data))
        except RecordInvalid as exc:
            status = EXIT_INVALID
            if args.json:
                # The verdict is a document too; the refusal is also said on stderr, as always.
                verdict = invalid_json(exc, lang, label)
                sys.stdout.write(dumps(verdict) if single else _compact(verdict))
                if single:
                    print(exc.render(lang), file=sys.stderr)
            elif single:
                print(exc.render(lang), file=sys.stderr)
            else:
                print(f"{source}: {exc.render(lang)}")
            continue
        analysis = analyse(found) if args.analyse else None
        if args.json:
            doc = audit_json(found, lang)
            if label is not None:
                doc = {"source": label, **doc}
            if analysis is not None:
                doc["analysis"] = analysis_json(found, analysis, lang)
            sys.stdout.write(dumps(doc) if single else _compact(doc))
            continue
        if single:
            _print_audit(found, cat)
        else:
            entry = json.dumps(found.entry, ensure_ascii=False)
            print(
                cat.render_args(
                    N_("{source}: every step is legal; entry {entry}"), source=source, entry=entry
                )
            )
        if analysis is not None:
            for line in lines(found, analysis):
                print(("" if single else "    ") + cat.render(line))
    return status


def _compact(doc: dict[str, object]) -> str:
    return json.dumps(doc, ensure_ascii=False) + "\n"


def _print_audit(found: Audit, cat: Catalog) -> None:
    from ..play.cards import card_word  # Russian ranks in Russian: В Д К Т

    names = found.record.players
    print(cat.gettext(N_("Verdict: every step is legal.")))
    for tr in found.tricks:
        cards = ", ".join(f"{names[seat]} {cat.render(card_word(card))}" for seat, card in tr.cards)
        if tr.talon:
            line = cat.render_args(
                N_("Trick {k}: the talon's {talon} leads; {cards} — {winner} takes it."),
                k=tr.number,
                talon=cat.render(card_word(tr.talon)),
                cards=cards,
                winner=names[tr.winner],
            )
        else:
            line = cat.render_args(
                N_("Trick {k}: {cards} — {winner} takes it."),
                k=tr.number,
                cards=cards,
                winner=names[tr.winner],
            )
        print(line)
    if found.claim_value is not None:
        print(
            cat.render_args(
                N_("The claim holds: with best play the declarer takes {value} of the rest."),
                value=found.claim_value,
            )
        )
    taken = ", ".join(f"{names[s]} {n}" for s, n in sorted(found.taken.items()))
    if taken:
        print(cat.render_args(N_("Tricks: {taken}."), taken=taken))
    print(cat.render_args(N_("Entry: {entry}"), entry=json.dumps(found.entry, ensure_ascii=False)))


def cmd_conventions(args: argparse.Namespace) -> int:
    from ..scoring.ledger.families import family_presets
    from ..scoring.pulya.convention import presets

    cat = catalog(args.lang)
    for p in presets().values():
        name, summary = p.name_in(args.lang), p.summary_in(args.lang)
        print(f"{p.id:12} {name}: {summary}")
        if args.verbose:
            for field, info in type(p.settings).model_fields.items():
                value = getattr(p.settings, field)
                print(f"    {field} = {value!r}  # {cat.gettext(info.description or '')}")
    for fp in family_presets().values():
        name, summary = fp.name_in(args.lang), fp.summary_in(args.lang)
        print(f"{fp.id:12} {name} [{fp.family}]: {summary}")
        if args.verbose:
            settings = fp.resolve()
            for field, info in type(settings).model_fields.items():
                if field == "family":
                    continue
                value = getattr(settings, field)
                print(f"    {field} = {value!r}  # {cat.gettext(info.description or '')}")
    return 0


def cmd_app(args: argparse.Namespace) -> int:
    from ..app.server.run import run  # Flet loads only when the app starts

    db = database_of(args)
    if not isinstance(db, Path) and not is_postgres(db):
        raise Refused(
            msg(
                N_(
                    "--db names a {scheme}:// database: Scorepad keeps its data in a SQLite file, so give that file's path (nothing was created)"
                ),
                scheme=db.split("://", 1)[0],
            )
        )
    if args.workers > 1 or not isinstance(db, Path):
        # A server's PostgreSQL, in one worker or several (app/server/workers.py): always the
        # web app, never a desktop window.
        from ..app.server.share import is_loopback
        from ..app.server.workers import serve_workers, sqlite_refused

        if isinstance(db, Path):
            raise Refused(sqlite_refused(args.workers))
        from ..app.frame import flet_diff

        flet_diff.install()
        serve_workers(
            db,
            args.lang,
            workers=args.workers,
            host="0.0.0.0" if args.share and is_loopback(args.host) else args.host,
            port=args.port,
            pin=args.pin,
            certfile=args.certfile,
            keyfile=args.keyfile,
            pin_wait=args.pin_wait,
            trusted_proxy=tuple(args.trusted_proxy),
            join_session=args.join,
            public_url=tuple(args.public_url),
        )
        return 0
    run(
        db,
        args.lang,
        web=args.web,
        host=args.host,
        port=args.port,
        share=args.share,
        pin=args.pin,
        certfile=args.certfile,
        keyfile=args.keyfile,
        pin_wait=args.pin_wait,
        trusted_proxy=tuple(args.trusted_proxy),
        join_session=args.join,
        public_url=tuple(args.public_url),
    )
    return 0


#: The demo evening of each language: a game its players play (issue 38 item 13): the Balkan
#: bula in Serbian, the Austrian pot game in German, Prefa in Greek; the pulya otherwise.
DEMOS = {
    "sr_Latn": DEMO.with_name("demo-bula.json"),
    "sr_Cyrl": DEMO.with_name("demo-bula.json"),
    "de": DEMO.with_name("demo-pot.json"),
    "el": DEMO.with_name("demo-prefa.json"),
}


def cmd_demo(args: argparse.Namespace) -> int:
    # What a kept session looks like, without a database: the sheet of a demo evening.
    from ..report import report_for
    from ..scoring.family import family
    from ..scoring.peek import peek_family

    data = DEMOS.get(args.lang, DEMO).read_bytes()
    engine = family(peek_family(data))
    scored = engine.replay(engine.parse_session(data))
    sys.stdout.write(report_for(engine.name).to_text_sheet(scored, args.lang))
    return 0


def _language(text: str) -> str:
    """``--lang``: a language of the catalogs, written as a player would: ``sr`` is Serbian in
    Latin letters (the README's first choice), ``sr-Cyrl``, ``SR_latn`` or ``de-AT`` as well."""
    for code in LANGUAGES:
        if text.replace("-", "_").casefold() == code.casefold():
            return code
    base = text.replace("-", "_").split("_")[0].casefold()
    if base == "sr":
        return "sr_Cyrl" if "cyr" in text.casefold() else "sr_Latn"
    return base if base in LANGUAGES else text  # anything else: argparse lists the choices


class _SolverVersion(argparse.Action):
    """``audit --version``: the version, and which double-dummy search runs (compiled or Python)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from ..play.dds import CORE

        print(f"scorepad {__version__}, double-dummy solver: {CORE}")
        parser.exit()


# A --db value (or SCOREPAD_DB) that is an address: ``postgresql://…`` is a PostgreSQL database
# (the store's second backend); any other scheme, taken for a path, made a folder ``mysql:`` and
# a SQLite file in it, and is refused.
_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,31}://")


class _Address(str):
    """A --db value that names a database by address, not a file (refused in :func:`main`)."""


def _workers(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = 0
    if not 1 <= n <= 64:
        raise argparse.ArgumentTypeError(f"{value!r}: 1 to 64")
    return n


def _database(value: str) -> Path | _Address:
    return _Address(value) if _ADDRESS.match(value) else Path(value)


def _refused_scheme(scheme: str) -> Msg:
    return msg(
        N_(
            "--db names a {scheme}:// database: Scorepad keeps its data in a SQLite file, so give that file's path (nothing was created)"
        ),
        scheme=scheme,
    )


def _address_refused(given: str) -> Msg:
    """Today's sentence for a database given by address (``copy --from``/``--to``)."""
    found = _ADDRESS.match(given)
    return _refused_scheme(found[0][:-3] if found else given)


def _not_served(args: argparse.Namespace) -> str | None:
    """The scheme of a database address given for the database, or None for a path."""
    given = args.db if args.db is not None else os.environ.get("SCOREPAD_DB")
    if isinstance(given, Path) or not given or is_postgres(given):
        return None
    found = _ADDRESS.match(given)
    return found[0][:-3] if found else None


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db",
        type=_database,
        default=argparse.SUPPRESS,
        help="the database file (default: SCOREPAD_DB, else scorepad.db in the user data folder)",
    )
    common.add_argument(
        "--lang",
        type=_language,
        choices=LANGUAGES,
        default=argparse.SUPPRESS,
        help="language of sentences (default: from the system locale)",
    )
    parser = argparse.ArgumentParser(
        prog="scorepad", description="Preferans scorepad and settlement.", parents=[common]
    )
    parser.add_argument("--version", action="version", version=f"scorepad {__version__}")
    parser.add_argument(
        "--web",
        action="store_true",
        help="serve the web app even where a desktop window could open",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="where the web app listens (default 127.0.0.1)"
    )
    parser.add_argument("--port", type=int, default=8550, help="the web app's port (default 8550)")
    parser.add_argument(
        "--share",
        action="store_true",
        help="serve the table on the local network (every interface), behind a table PIN",
    )
    parser.add_argument(
        "--pin",
        help="the table PIN (4 to 12 digits; default: 6 generated digits when sharing); "
        "given, it is asked on this computer too",
    )
    parser.add_argument("--certfile", type=Path, help="serve HTTPS with this certificate (PEM)")
    parser.add_argument("--keyfile", type=Path, help="the certificate's private key (PEM)")
    parser.add_argument(
        "--join",
        type=int,
        metavar="SESSION",
        help="print this session's join link and its QR code for the phones (with --share)",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy whose X-Forwarded-For or Forwarded header is believed (otherwise "
        "ignored); a request through it without one is a stranger's",
    )
    parser.add_argument(
        "--public-url",
        action="append",
        default=[],
        metavar="URL",
        help="the address the phones open through that proxy (https://scorepad.example.org): "
        "answered as this server's own, and the join links and QR codes use it",
    )
    parser.add_argument(
        "--workers",
        type=_workers,
        default=1,
        metavar="N",
        help="serve in N processes sharing the database (a PostgreSQL --db; default 1)",
    )
    parser.add_argument("--pin-wait", type=float, default=None, help=argparse.SUPPRESS)
    parser.set_defaults(func=cmd_app)
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser(
        "settle",
        parents=[common],
        help="settle a session file or a stored session: the sheet, balances, money, payments",
    )
    p.add_argument(
        "file",
        help="a scorepad-session/1 JSON file, - for standard input, or a stored session's id",
    )
    p.add_argument(
        "--json", action="store_true", help="print the scorepad-settlement/1 JSON document"
    )
    p.add_argument(
        "--no-explain",
        dest="explain",
        action="store_false",
        help="leave out the per-deal sentences",
    )
    p.set_defaults(func=cmd_settle)

    p = sub.add_parser("demo", parents=[common], help="print the sheet of a demo evening")
    p.set_defaults(func=cmd_demo)

    from .players import add_commands  # the directory: players, ratings, debts …

    add_commands(sub, common)

    p = sub.add_parser("sessions", parents=[common], help="list the stored sessions")
    p.set_defaults(func=cmd_sessions)

    p = sub.add_parser(
        "migrate",
        parents=[common],
        help="bring the database to this Scorepad's schema, after a backup beside it",
    )
    p.set_defaults(func=cmd_migrate)

    p = sub.add_parser(
        "history",
        parents=[common],
        help="every action of a stored session, with its reason and time",
    )
    p.add_argument("session", type=int)
    p.set_defaults(func=cmd_history)

    p = sub.add_parser("export", parents=[common], help="write a stored session as a session file")
    p.add_argument("session", type=int)
    p.add_argument("file", help="the file to write, or - for standard output")
    p.add_argument(
        "--force", action="store_true", help="overwrite the file if it exists (never the database)"
    )
    p.set_defaults(func=cmd_export)

    p = sub.add_parser(
        "import",
        parents=[common],
        help="store a session file (validated in full first); prints its id",
    )
    p.add_argument("file", help="a scorepad-session/1 JSON file, or - for standard input")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser(
        "copy",
        parents=[common],
        help="copy every session, player and club night of one database into another; what "
        "it has already is left as it is, so a second copy changes nothing",
    )
    p.add_argument("--from", dest="source", type=_database, required=True, metavar="PATH")
    p.add_argument("--to", dest="target", type=_database, required=True, metavar="PATH")
    p.set_defaults(func=cmd_copy)

    p = sub.add_parser(
        "audit",
        parents=[common],
        help="check deal records card by card: the verdict, the tricks, the entry "
        "(exit status 2 when any record is illegal or unreadable)",
    )
    p.add_argument(
        "file",
        nargs="+",
        help="scorepad-deal/1 JSON files (or JSON lines, one record a line), - for standard input",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print each verdict as JSON (one document; one line per record for several)",
    )
    p.add_argument(
        "--analyse",
        "--analyze",
        action="store_true",
        help="add the double-dummy analysis: what was makeable, and which card cost a trick",
    )
    p.add_argument(
        "--version",
        action=_SolverVersion,
        nargs=0,
        help="print the version and which double-dummy solver runs: compiled, or python "
        "(no C compiler at install, or SCOREPAD_SOLVER=python)",
    )
    p.set_defaults(func=cmd_audit)

    p = sub.add_parser("conventions", parents=[common], help="list the convention presets")
    p.add_argument("-v", "--verbose", action="store_true", help="show every setting")
    p.set_defaults(func=cmd_conventions)

    from .club import add_parser as add_club  # a club night's commands (scorepad/club/)

    add_club(sub, common)

    from .league import add_parser as add_league  # a league of clubs (scorepad/league/)

    add_league(sub, common)

    from .serve import add_parser as add_serve  # the hosted server, and the operator's delete

    add_serve(sub, common)

    from .phone import add_parser as add_build_app  # the app that runs on a phone

    add_build_app(sub, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # --db and --lang may stand before or after the command; fill them in when absent.
    if getattr(args, "lang", None) is None:
        args.lang = system_language()
    if getattr(args, "db", None) is None:
        args.db = None
    env = os.environ.get("SCOREPAD_DB")
    if args.db is None and is_postgres(env):
        args.db = env  # an address is never the user's file: every command reads it as --db
    _escape_unshowable()
    opened.clear()
    creating.clear()
    scheme = _not_served(args)
    if scheme is not None:  # never echoed whole: an address may hold a password
        return fail([_refused_scheme(scheme).render(args.lang)])
    try:
        code = _run(args)
    except KeyboardInterrupt:
        # Ctrl-C: one line, the shell's status for SIGINT; a write it cut short was one
        # transaction, rolled back by the store.
        print(catalog(args.lang).gettext(N_("interrupted (Ctrl-C)")), file=sys.stderr)
        code = EXIT_INTERRUPTED
    if code in (EXIT_INVALID, EXIT_INTERRUPTED):
        forget_created()
    creating.clear()
    return code


#: The largest whole number the database stores (SQLite's signed 64 bits).
MAX_INT = 2**63 - 1


def _check_numbers(args: argparse.Namespace) -> None:
    """A number of the command line (an id, a tour) beyond what the database stores is said,
    naming the argument, before anything is opened."""
    for field, value in vars(args).items():
        for n in value if isinstance(value, list) else [value]:
            if type(n) is not int:
                continue
            if n > MAX_INT:
                raise Refused(too_large(field, n))
            if n < -MAX_INT - 1:
                raise Refused(
                    msg(
                        N_("{field}: {value} is too small: at least {limit}"),
                        field=field,
                        value=n,
                        limit=-MAX_INT - 1,
                    )
                )


def too_large(field: str, value: int) -> Msg:
    return msg(
        N_("{field}: {value} is too large: at most {limit}"),
        field=field,
        value=value,
        limit=MAX_INT,
    )


def _escape_unshowable() -> None:
    """A terminal (or locale) that is not UTF-8: what it cannot show is written escaped
    (``\\u0410``; still JSON in a JSON document), never a failure of the command."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


def _run(args: argparse.Namespace) -> int:
    """The command, and every way it can end: a sentence, never a traceback."""
    try:
        _check_numbers(args)
        code = int(args.func(args))
        sys.stdout.flush()  # an output that cannot be written is said here, not lost at exit
        return code
    except Refused as exc:
        return fail([exc.message.render(args.lang)])
    except ValueError as exc:
        lines = _refusal(exc, args.lang)
        if lines is None:
            return fail([_unreadable(exc, args)])
        return fail(lines)
    except sqlite3.Error as exc:  # a read the store met first (a damaged page, a lock)
        from ..store import LOCK_TIMEOUT, database_error, default_path

        error = database_error(exc, args.db or default_path(), LOCK_TIMEOUT)
        return fail(error.render(args.lang).splitlines())
    except (RecursionError, KeyError, TypeError, AttributeError, IndexError, OverflowError) as exc:
        return fail([_unreadable(exc, args)])
    except BrokenPipeError:
        return _reader_left()
    except OSError as exc:
        # Input files and the database say their own errors (Refused, StoreError): what is
        # left is the output (a full disk, /dev/full), which stops here, incomplete.
        _reader_left()
        return fail(
            [
                msg(
                    N_("cannot write the output: {reason}; what was written of it is incomplete"),
                    reason=exc.strerror or type(exc).__name__,
                ).render(args.lang)
            ]
        )
    except Exception as exc:  # last: every clause above keeps its own
        if not type(exc).__module__.startswith("psycopg"):
            raise
        # A read the store met first on PostgreSQL (the server gone): in words, as SQLite's.
        from ..store import LOCK_TIMEOUT
        from ..store.errors import postgres_error

        error = postgres_error(exc, str(opened[-1] if opened else "-"), LOCK_TIMEOUT)
        return fail(error.render(args.lang).splitlines())


def _reader_left() -> int:
    """`scorepad audit … | head`: the reader closed the pipe, which is no error of ours. Python
    would still flush stdout at exit and print a second traceback, so stdout goes to devnull."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    with contextlib.suppress(OSError, ValueError):
        os.dup2(devnull, sys.stdout.fileno())
    return 1


def _unreadable(exc: Exception, args: argparse.Namespace) -> str:
    """The last resort: what a check above missed is still a sentence naming the database (or
    the input file), never a traceback.  It claims nothing it does not know: not that the file
    is unreadable, nor that nothing was written."""
    what = opened[-1] if opened else args.db or getattr(args, "file", None) or "-"
    return msg(
        N_(
            "the command stopped on an unexpected error ({error}) while using {what}; please report it"
        ),
        what=str(what),
        error=type(exc).__name__,
    ).render(args.lang)


def _refusal(exc: ValueError, lang: str) -> list[str] | None:
    """The lines that say why the input was refused; ``None`` for an error that is a bug."""
    # Imported only on the way out, so that no command loads a module for its errors alone.
    from ..play.record import RecordInvalid
    from ..scoring.pulya.convention import ConventionError
    from ..scoring.pulya.session import SessionInvalid
    from ..store import StoreError

    if isinstance(exc, SessionInvalid):
        return exc.render(lang)
    if isinstance(exc, StoreError):
        return exc.render(lang).splitlines()
    if isinstance(exc, ConventionError):
        return exc.message.render(lang).splitlines()
    if isinstance(exc, RecordInvalid):
        return [exc.render(lang)]
    if isinstance(exc, ScorepadError):  # any other refusal is one sentence
        return [exc.message.render(lang)]
    return None
