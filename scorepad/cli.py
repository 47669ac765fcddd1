"""The ``scorepad`` command: a thin layer that parses arguments and prints.

All behaviour lives in the library (:mod:`scorepad.session`, :mod:`scorepad.score`,
:mod:`scorepad.report`).  Invalid input: exit status 2, one line per problem on stderr,
nothing on stdout.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .convention import ConventionError, presets
from .i18n import LANGUAGES, N_, catalog, system_language
from .report import to_json_text, to_text_sheet
from .score import replay
from .session import SessionInvalid, parse_session

DEMO = Path(__file__).resolve().parent / "data" / "demo-session.json"
EXIT_INVALID = 2


def _fail(lines: Sequence[str]) -> int:
    for line in lines:
        print(line, file=sys.stderr)
    return EXIT_INVALID


def cmd_settle(args: argparse.Namespace) -> int:
    lang = args.lang
    try:
        data = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as exc:
        return _fail(
            [
                catalog(lang).render_args(
                    N_("cannot read {path}: {reason}"),
                    path=args.file,
                    reason=exc.strerror or str(exc),
                )
            ]
        )
    try:
        scored = replay(parse_session(data))
    except SessionInvalid as exc:
        return _fail(exc.render(lang))
    text = (
        to_json_text(scored, lang)
        if args.json
        else to_text_sheet(scored, lang, explain=args.explain)
    )
    sys.stdout.write(text)
    return 0


def cmd_conventions(args: argparse.Namespace) -> int:
    cat = catalog(args.lang)
    try:
        found = presets()
    except ConventionError as exc:
        return _fail(str(exc).splitlines())
    for p in found.values():
        name, summary = (p.name_ru, p.summary_ru) if args.lang == "ru" else (p.name, p.summary)
        print(f"{p.id:12} {name}: {summary}")
        if args.verbose:
            for field, info in type(p.settings).model_fields.items():
                value = getattr(p.settings, field)
                print(f"    {field} = {value!r}  # {cat.gettext(info.description or '')}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    # Until the app exists, `scorepad` shows what it will keep: the sheet of a demo evening.
    scored = replay(parse_session(DEMO.read_bytes()))
    sys.stdout.write(to_text_sheet(scored, args.lang))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorepad", description="Preferans scorepad and settlement."
    )
    parser.add_argument("--version", action="version", version=f"scorepad {__version__}")
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=system_language(),
        help="language of sentences (default: from the system locale)",
    )
    parser.set_defaults(func=cmd_demo)
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("settle", help="settle a session file: the sheet, balances, money, payments")
    p.add_argument("file", help="a scorepad-session/1 JSON file, or - for standard input")
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

    p = sub.add_parser("conventions", help="list the convention presets")
    p.add_argument("-v", "--verbose", action="store_true", help="show every setting")
    p.set_defaults(func=cmd_conventions)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
