"""The README's "Run a server for your club", run as an operator would: every command line the
section shows, in its order, on a real PostgreSQL (the test cluster's address in place of the
example's), ``scorepad serve`` behind a real reverse proxy answering to its public address."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from support.proxy import reverse_proxy
from support.readme import section_commands
from support.table_server import free_port, stop

from scorepad.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_DB = "postgresql://scorepad@localhost/scorepad"
DEMO = ROOT / "scorepad" / "data" / "demo-session.json"


def readme_commands() -> list[list[str]]:
    return section_commands("Run a server for your club")


def get(port: int, host: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/", headers={"Host": host})
        return conn.getresponse().status
    finally:
        conn.close()


def test_every_command_of_the_readme_section_runs(
    postgres_cluster: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LANGUAGE", "en")
    url = postgres_cluster.url("scorepad")
    # The laptop's history that `copy` brings: one evening.
    assert main(["import", str(DEMO), "--db", "scorepad.db"]) == 0
    capsys.readouterr()
    commands = readme_commands()
    assert [c[:2] for c in commands] == [
        ["createdb", "scorepad"],
        ["scorepad", "copy"],
        ["scorepad", "serve"],
        ["scorepad", "sessions"],
        ["scorepad", "export"],
        ["scorepad", "delete"],
    ]
    for argv in commands:
        argv = [url if a == EXAMPLE_DB else a for a in argv]
        if argv[0] == "createdb":  # as PostgreSQL's own user, on the test cluster
            made = postgres_cluster.run(
                "createdb", "-h", "127.0.0.1", "-p", str(postgres_cluster.port), "-U", "postgres",
                *argv[1:],
            )  # fmt: skip
            assert made.returncode == 0, made.stderr
        elif argv[1] == "serve":
            served(argv[1:], tmp_path)
        else:
            assert main(argv[1:]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert re.search(r"^\s+1\s", out, re.M)  # `sessions` listed the copied evening
    assert '"format": "scorepad-session/1"' in (tmp_path / "game.json").read_text()
    assert out.rstrip().endswith("Deleted game 1; its record is kept.")
    assert main(["sessions", "--db", url]) == 0
    assert capsys.readouterr().out == ""  # the deleted game is in no list


def served(argv: list[str], tmp_path: Path) -> None:
    """``scorepad serve`` as the README starts it (on a free port), behind a reverse proxy on
    127.0.0.1: it answers to its public address through the proxy, and to no other."""
    port = free_port()
    argv = [str(port) if a == "8550" else a for a in argv]
    log = tmp_path / "serve.log"
    env = dict(os.environ, FLET_WEB_NO_CDN="1", LANGUAGE="en")
    env.pop("DISPLAY", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorepad.cli", *argv],
        cwd=tmp_path,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        # Up once it printed its banner, which names the public address (not this one).
        deadline = time.monotonic() + 60
        while "https://scorepad.example.org/" not in log.read_text():
            assert time.monotonic() < deadline and proc.poll() is None, log.read_text()
            time.sleep(0.1)
        with reverse_proxy("127.0.0.1", ("127.0.0.1", port)) as through:
            assert get(through, "scorepad.example.org") == 200
            assert get(through, "evil.example.org") == 403
    finally:
        stop(proc)
    assert "Traceback" not in log.read_text(), log.read_text()
