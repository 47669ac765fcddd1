"""Starting the real server (``python -m scorepad.cli --web``) for the shared-table tests."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(
    db: Path,
    port: int,
    *extra: str,
    lang: str = "en",
    env: dict[str, str] | None = None,
    no_cdn: bool = True,
) -> subprocess.Popen[bytes]:
    """``scorepad --web`` on 127.0.0.1:``port`` with the database ``db`` (its output in
    ``server-<port>.log`` beside it); ``env``: more of its environment; ``no_cdn``: Flet's web
    client served from this computer only (as every test but the installable app's wants)."""
    env = dict(os.environ, **(env or {}))
    if no_cdn:
        env["FLET_WEB_NO_CDN"] = "1"
    env.pop("DISPLAY", None)
    log = (db.parent / f"server-{port}.log").open("ab")
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scorepad.cli",
            "--lang",
            lang,
            "--db",
            str(db),
            "--web",
            "--port",
            str(port),
            *extra,
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def wait_ready(proc: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.time() + 60
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text(errors='replace')}")
        try:
            urllib.request.urlopen(url, timeout=2).read()
            break
        except urllib.error.HTTPError:
            break
        except OSError:
            if time.time() > deadline:
                proc.kill()
                raise
            time.sleep(0.2)
    # The banner (the address, the join links) is written once the server is up, which may be
    # just after the first page is served: the tests read it, so ready means written. It is one
    # write, so the address in it means the whole banner is there.
    port = url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1]
    while f":{port}/" not in log.read_text(errors="replace"):
        if proc.poll() is not None or time.time() > deadline:
            raise RuntimeError(f"no banner from the server: {log.read_text(errors='replace')}")
        time.sleep(0.05)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def serving(
    db: Path,
    *extra: str,
    port: int | None = None,
    lang: str = "en",
    env: dict[str, str] | None = None,
    no_cdn: bool = True,
) -> Iterator[tuple[str, int]]:
    """The server (``start``) once it answers and has printed its banner; stopped afterwards,
    whatever the test did."""
    port = port or free_port()
    proc = start(db, port, *extra, lang=lang, env=env, no_cdn=no_cdn)
    try:
        wait_ready(proc, f"http://127.0.0.1:{port}/", db.parent / f"server-{port}.log")
        yield f"http://127.0.0.1:{port}/", port
    finally:
        stop(proc)


def log_of(db: Path, port: int) -> str:
    return (db.parent / f"server-{port}.log").read_text(errors="replace")


@contextmanager
def shared_table(db: Path, sid: int, pin: str, *extra: str) -> Iterator[tuple[int, str]]:
    """The session ``sid`` of ``db`` served as a shared table (--share, --pin, a trusted proxy on
    this computer, --join): its port and the join link's token, read from the server's banner
    once it is printed (a state, on a loaded machine a moment after the first answer)."""
    port = free_port()
    proc = start(
        db,
        port,
        "--share",
        "--pin",
        pin,
        "--trusted-proxy",
        "127.0.0.1",
        "--join",
        str(sid),
        *extra,
    )
    try:
        wait_ready(proc, f"http://127.0.0.1:{port}/", db.parent / f"server-{port}.log")
        deadline = time.monotonic() + 30
        while not (found := re.search(rf"/join/{sid}/([A-Za-z0-9_-]+)", log_of(db, port))):
            assert time.monotonic() < deadline and proc.poll() is None, log_of(db, port)
            time.sleep(0.1)
        yield port, found[1]
    finally:
        stop(proc)
