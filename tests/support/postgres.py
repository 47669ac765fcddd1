"""A throwaway PostgreSQL for the tests: its own cluster (initdb, pg_ctl) in a temporary folder,
on a free port of 127.0.0.1 (never the machine's 5432), started once per test session and
stopped at its end; each test gets a database of its own.

PostgreSQL refuses to run as root: as root, the server runs as the ``postgres`` user, in a
folder that user owns, with its socket and log inside it (docs/store-backends.md, and the
specs' ../shared/guides/real-parts.md, "A throwaway PostgreSQL").  If the server cannot be started the tests that need
it fail, loudly, with its log: a suite that cannot reach PostgreSQL never passes by skipping.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path


def _bin_dir() -> Path:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb is None:
        raise RuntimeError(
            "PostgreSQL's server programs (initdb, pg_ctl) are not installed: "
            "apt-get install postgresql (scripts/test does it)"
        )
    return Path(initdb).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    """One running PostgreSQL server of the tests."""

    folder: Path
    port: int
    bin: Path
    options: str = ""  # the server's own options (pg_ctl -o), kept for a restart
    _names: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        """A server program, as the ``postgres`` user when this process is root."""
        cmd = [str(self.bin / argv[0]), *argv[1:]]
        if os.geteuid() == 0:
            cmd = ["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(cmd)]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)

    def database(self) -> str:
        """A new, empty database; its address."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8'")
        return self.url(name)

    def log(self) -> str:
        try:
            return (self.data / "log").read_text(errors="replace")[-4000:]
        except OSError as exc:
            return f"(no log: {exc})"

    def restart(self) -> None:
        """Stop the server as an operator's restart does (every connection cut), start it again
        on the same port and data; RuntimeError with its log if it does not come back."""
        self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        started = self.run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            self.options,
            "-l",
            str(self.data / "log"),
            "-w",
            "start",
        )
        if started.returncode != 0:
            raise RuntimeError(f"PostgreSQL did not start again:\n{started.stderr}\n{self.log()}")

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def start() -> Cluster:
    """A new cluster, started; RuntimeError (with the server's words) if it cannot be."""
    folder = Path(tempfile.mkdtemp(prefix="scorepad-pg-"))
    cluster = Cluster(folder, _free_port(), _bin_dir())
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    made = cluster.run(
        "initdb",
        "-D",
        str(cluster.data),
        "-A",
        "trust",
        "-U",
        "postgres",
        "-E",
        "UTF8",
        "--locale=C.UTF-8",
    )
    if made.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"initdb failed:\n{made.stdout}\n{made.stderr}")
    options = (
        f"-p {cluster.port} -k {cluster.data} -c listen_addresses=127.0.0.1 "
        # A test's database is thrown away: no need to wait for the disk.
        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    )
    cluster.options = options
    started = cluster.run(
        "pg_ctl",
        "-D",
        str(cluster.data),
        "-o",
        options,
        "-l",
        str(cluster.data / "log"),
        "-w",
        "start",
    )
    if started.returncode != 0:
        log = cluster.log()
        with contextlib.suppress(Exception):
            cluster.stop()
        raise RuntimeError(f"PostgreSQL did not start:\n{started.stdout}\n{started.stderr}\n{log}")
    return cluster
