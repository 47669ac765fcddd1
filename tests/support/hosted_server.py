"""Starting the real hosted server (``python -m scorepad.cli serve``) for the browser tests of
tests/test_hosted_*_e2e.py: on 127.0.0.1 (which gives no rights there), its log checked for a
traceback when it stops."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from support.table_server import ROOT, free_port, stop, wait_ready


@contextmanager
def serving(db: str, logs: Path, *extra: str) -> Iterator[str]:
    """``scorepad serve --db DB EXTRA…`` until the block ends: its base address."""
    port = free_port()
    env = dict(os.environ, FLET_WEB_NO_CDN="1")
    env.pop("DISPLAY", None)
    env.pop("SCOREPAD_ADMIN_SECRET", None)
    log = logs / f"server-{port}.log"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scorepad.cli",
            "serve",
            "--lang",
            "en",
            "--db",
            db,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            *extra,
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
