"""A real ``scorepad serve`` for the league pages' browser tests (issue #39): the process is the
CLI's own server, its pages reading the league's nights from a file the test wrote.

The league's store of published nights (``scorepad.league.store``, items 1 and 4) is another
branch's; until both are merged the pages' one seam (``screens.league.nights_of``) is given the
nights here.  Everything else (the database, the members' link, the links, the claim) is the
real one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from scorepad.league.nights import PublishedNight
from support.table_server import ROOT, free_port, stop, wait_ready

LAUNCH = """
import json, sys
from scorepad.app.screens import league
from scorepad.league.nights import PublishedNight
with open(sys.argv[1], encoding="utf-8") as f:
    nights = [PublishedNight.model_validate(x) for x in json.load(f)]
league.nights_of = lambda store: nights
from scorepad.cli import main
sys.exit(main(sys.argv[2:]))
"""


@contextmanager
def serving_league(
    db: str, logs: Path, nights: Sequence[PublishedNight], *, lang: str = "en"
) -> Iterator[str]:
    """The server until the block ends: its base address."""
    port = free_port()
    given = logs / f"nights-{port}.json"
    given.write_text(json.dumps([n.model_dump() for n in nights]), encoding="utf-8")
    env = dict(os.environ, FLET_WEB_NO_CDN="1")
    env.pop("DISPLAY", None)
    env.pop("SCOREPAD_ADMIN_SECRET", None)
    log = logs / f"server-{port}.log"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            LAUNCH,
            str(given),
            "serve",
            "--lang",
            lang,
            "--db",
            db,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_ready(proc, f"http://127.0.0.1:{port}/", log)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc)
        assert "Traceback" not in log.read_text(errors="replace"), log.read_text()
