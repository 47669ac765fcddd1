"""``scorepad serve``: the hosted server, where phones alone own their tables (issue #36), and
``scorepad delete``, the operator's delete of one game (its owner and link forgotten too).

The server itself is :mod:`scorepad.app.server.hosted`; this module parses and checks."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..core.i18n import N_, msg
from .common import Refused, database_of, open_database

WORKERS_MAX = 64


def _workers(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= WORKERS_MAX:
        raise argparse.ArgumentTypeError(f"a whole number from 1 to {WORKERS_MAX}")
    return int(text)


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError("a port from 1 to 65535")
    return int(text)


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "serve",
        parents=[common],
        help="serve Scorepad for phones alone: a phone that starts a game owns it "
        "(a SQLite file or a PostgreSQL database, behind a reverse proxy with TLS)",
    )
    p.add_argument("--host", default="0.0.0.0", help="where the server listens (default 0.0.0.0)")
    p.add_argument("--port", type=_port, default=8550, help="its port (default 8550)")
    p.add_argument(
        "--workers",
        type=_workers,
        default=1,
        help="worker processes sharing the database (default 1)",
    )
    p.add_argument(
        "--admin-secret-file",
        type=Path,
        metavar="FILE",
        help="the admin page's secret (its first line, 16 characters or more; or "
        "SCOREPAD_ADMIN_SECRET); without it there is no admin page",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="the reverse proxy whose X-Forwarded-For or Forwarded header is believed",
    )
    p.add_argument(
        "--public-url",
        action="append",
        default=[],
        metavar="URL",
        help="the address the phones open through that proxy (https://scorepad.example.org)",
    )
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser(
        "delete",
        parents=[common],
        help="delete a stored game (the operator's): it leaves every list, its link and owner "
        "open nothing; its record is kept",
    )
    p.add_argument("session", type=int)
    p.set_defaults(func=cmd_delete)


def hosted_options(args: argparse.Namespace) -> Any:
    """The checked options of ``scorepad serve`` (every refusal a sentence, before any socket
    or database is opened)."""
    from ..app.server.access import ServeRefused
    from ..app.server.hosted import HostedOptions, admin_secret
    from ..app.server.share import public_base, public_refused

    for url in args.public_url:
        if public_base(url) is None:
            raise Refused(public_refused(url))
    try:
        secret = admin_secret(args.admin_secret_file)
    except ServeRefused as exc:
        raise Refused(exc.message) from None
    return HostedOptions(
        db=database_of(args),
        lang=args.lang,
        host=args.host,
        port=args.port,
        workers=args.workers,
        admin_secret=secret,
        trusted_proxy=tuple(args.trusted_proxy),
        public_url=tuple(args.public_url),
    )


def cmd_serve(args: argparse.Namespace) -> int:
    from ..app.server.workers import hosted_workers

    # One process, or several on one socket sharing a PostgreSQL database (workers.py).
    hosted_workers(hosted_options(args))
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    import threading

    from ..app.server.admin import admin_delete
    from ..app.server.grants import Grants
    from ..app.server.owners import Owners

    lock = threading.RLock()
    with open_database(args, create=False, read_only=False) as store:
        if args.session not in {s.id for s in store.sessions()}:
            raise Refused(msg(N_("there is no session {id}"), id=args.session))
        # The operator's delete: one transaction, the game and what opens it.
        admin_delete(store, Owners(store, lock), Grants(store, lock), args.session)
    print(msg(N_("Deleted game {id}; its record is kept."), id=args.session).render(args.lang))
    return 0
