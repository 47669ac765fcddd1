"""Where the phones reach the night's server, for the QR codes of ``scorepad club pdf``.

The PDF is made by another process than the server, so it asks the system which Scorepad
server is running on the same database and where that server listens (psutil: the process's
command line and its listening sockets; a read, nothing written).  A server listening only on
this computer (127.0.0.1, the default without ``--share``) cannot be reached by a phone: the
caller warns.  Without a running server the address is this computer's network address on the
port asked (8550 by default), as before (issue #37).
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

import psutil  # type: ignore[import-untyped]  # (no stubs; app.* ignores it in pyproject)

from ..app.server.share import is_loopback, lan_addresses, url_host

DEFAULT_PORT = 8550


@dataclass(frozen=True, slots=True)
class Listening:
    """A running Scorepad server of this database: its scheme, listening address and port."""

    scheme: str
    address: str
    port: int

    @property
    def local_only(self) -> bool:
        return is_loopback(self.address)


def _option(cmd: list[str], name: str) -> str | None:
    for k, arg in enumerate(cmd):
        if arg == name and k + 1 < len(cmd):
            return cmd[k + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _is_server(cmd: list[str]) -> bool:
    """A ``scorepad`` command line (``scorepad --web``, ``python -m scorepad.cli …``): only
    the app's server among them listens on a socket."""
    return any("scorepad" in arg for arg in cmd[:3])


def running_server(db: Path, default_db: Path) -> Listening | None:
    """The Scorepad server running on database ``db`` (its listening socket), or None."""
    me = os.getpid()
    found: list[Listening] = []
    for proc in psutil.process_iter(["pid", "cmdline", "cwd"]):
        try:
            cmd = proc.info["cmdline"] or []
            if proc.info["pid"] == me or not _is_server(cmd):
                continue
            named = _option(cmd, "--db")
            if named is not None:
                path = Path(named)
                if not path.is_absolute() and proc.info["cwd"]:
                    path = Path(proc.info["cwd"]) / path
            else:
                env = proc.environ().get("SCOREPAD_DB")
                path = Path(env) if env else default_db
            if not _same(path, db):
                continue
            scheme = "https" if _option(cmd, "--certfile") else "http"
            for conn in proc.net_connections(kind="inet"):
                if conn.status == psutil.CONN_LISTEN and conn.laddr:
                    found.append(Listening(scheme, conn.laddr.ip, conn.laddr.port))
        except (psutil.Error, OSError):
            continue
    # A server listening everywhere first, then on an address, then on loopback only.
    found.sort(key=lambda x: (x.local_only, not _unspecified(x.address)))
    return found[0] if found else None


def _unspecified(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_unspecified
    except ValueError:
        return False


def base_for(
    found: Listening | None, *, address: str | None = None, port: int | None = None
) -> str:
    """The address phones join at: the running server's port and address (a server on every
    interface: this computer's network address), unless ``address`` or ``port`` is given."""
    scheme = found.scheme if found is not None else "http"
    if port is None:
        port = found.port if found is not None else DEFAULT_PORT
    if address is None:
        if found is not None and not found.local_only and not _unspecified(found.address):
            address = found.address
        else:
            address = (lan_addresses() or ["127.0.0.1"])[0]
    return f"{scheme}://{url_host(address)}:{port}"
