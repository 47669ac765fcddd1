"""``scorepad league …``: a league of clubs (issue #39).

A minimal parser in this branch (h3-season): it makes the ``league`` subcommand and adds the
season's commands (:mod:`.league_season`); the league's own commands (joining, publishing) are
added beside them at the merge.
"""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    league = sub.add_parser(
        "league", parents=[common], help="a league of clubs: its players, season and standings"
    )
    ls = league.add_subparsers(dest="league_command", required=True)
    from .league_season import add_commands

    add_commands(ls, common)
