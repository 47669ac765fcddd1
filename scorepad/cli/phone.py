"""``scorepad build-app DIR``: the command (the build itself is ``build.py``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..core.i18n import N_, msg


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "build-app",
        parents=[common],
        help="build the app that runs on a phone by itself (a static folder, no network needed)",
    )
    p.add_argument("folder", type=Path, help="the folder to write (new, empty, or a former build)")
    p.add_argument(
        "--base",
        default="/",
        help="the path the folder is served at (default /; /scorepad/ for example.org/scorepad/)",
    )
    p.set_defaults(func=cmd_build_app)


def cmd_build_app(args: argparse.Namespace) -> int:
    from ..phone.build import build  # the build's refusals are ScorepadErrors: cli.main says them

    built = build(args.folder, args.base)
    print(
        msg(
            N_("Built the app in {path}: {files} files, {size} MB."),
            path=str(built.folder),
            files=built.files,
            size=f"{built.size / 1e6:.1f}",
        ).render(args.lang)
    )
    if not built.compiled:
        print(
            msg(
                N_(
                    "Node.js (18 or later) was not found: the app's Python is not compiled "
                    "ahead, so the phone compiles it at every start, which takes longer."
                )
            ).render(args.lang)
        )
    print(
        msg(
            N_(
                "Serve the folder from any web server (HTTPS, or http://127.0.0.1 on the same "
                "device), open it on the phone once and add it to the home screen: from then on "
                "it starts with no network."
            )
        ).render(args.lang)
    )
    return 0
