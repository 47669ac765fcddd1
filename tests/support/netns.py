"""A phone that really is another host: a network namespace joined to this computer by a veth
pair (../shared/guides/real-parts.md, "A phone that is really another host").

The server decides "this computer" from the socket's peer address (loopback, or one of the
machine's own interface addresses), so a client on 127.0.0.1 with a forged header is still this
computer and cannot show what a phone gets.  Here the phone's end, ``10.231.N.2``, lives in a
namespace of its own: none of this computer's addresses is its address, and its loopback is not
this computer's.  Everything it sends crosses the veth pair to ``10.231.N.1``, this computer's
end, where the server listens (``--host 10.231.N.1``: the code path of ``--share``).

A socket is opened inside the namespace by a thread that entered it (``setns`` moves only the
calling thread); the socket then stays there whichever thread uses it.  A browser runs inside it
through ``ip netns exec`` (:meth:`Phone.chromium`).
"""

from __future__ import annotations

import ctypes
import os
import random
import socket
import stat
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

CLONE_NEWNET = 0x40000000


def _ip(*args: str, netns: str | None = None) -> None:
    cmd = ["ip", *args] if netns is None else ["ip", "netns", "exec", netns, "ip", *args]
    subprocess.run(cmd, check=True, capture_output=True, timeout=30)


@dataclass(frozen=True)
class Phone:
    """The other host: its namespace, its address, and this computer's address as it sees it."""

    netns: str
    address: str  # the phone's own (10.231.N.2)
    server: str  # this computer's end of the pair (10.231.N.1), where a server listens

    def connect(self, port: int, timeout: float = 20.0) -> socket.socket:
        """A TCP connection to the server, opened from inside the namespace."""
        made: list[socket.socket | BaseException] = []

        def inside() -> None:
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                with open(f"/run/netns/{self.netns}", "rb") as ns:
                    if libc.setns(ns.fileno(), CLONE_NEWNET) != 0:
                        raise OSError(ctypes.get_errno(), "setns")
                made.append(socket.create_connection((self.server, port), timeout=timeout))
            except BaseException as exc:  # handed to the caller's thread
                made.append(exc)

        worker = threading.Thread(target=inside)  # a thread of its own: it never leaves
        worker.start()
        worker.join()
        result = made[0]
        if isinstance(result, BaseException):
            raise result
        result.settimeout(None)
        return result

    def chromium(self, folder: Path, executable: str = "/usr/bin/chromium") -> str:
        """A launcher that starts chromium inside the namespace (for Playwright's
        ``executable_path``: it talks to the browser through a pipe, which any namespace keeps)."""
        launcher = folder / f"chromium-{self.netns}"
        launcher.write_text(f'#!/bin/sh\nexec ip netns exec {self.netns} {executable} "$@"\n')
        launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
        return str(launcher)


@contextmanager
def another_host() -> Iterator[Phone]:
    """A namespace with a veth pair, torn down whatever happens (names unique to this run)."""
    tag = f"{os.getpid() % 100000}{random.randrange(1000):03d}"
    netns, here, there = f"sp{tag}", f"sh{tag}", f"sq{tag}"  # at most 15 characters a link
    subnet = random.randrange(1, 250)
    server, address = f"10.231.{subnet}.1", f"10.231.{subnet}.2"
    _ip("netns", "add", netns)
    try:
        _ip("link", "add", here, "type", "veth", "peer", "name", there)
        _ip("link", "set", there, "netns", netns)
        _ip("addr", "add", f"{server}/30", "dev", here)
        _ip("link", "set", here, "up")
        _ip("addr", "add", f"{address}/30", "dev", there, netns=netns)
        _ip("link", "set", there, "up", netns=netns)
        _ip("link", "set", "lo", "up", netns=netns)
        yield Phone(netns, address, server)
    finally:
        # Deleting the namespace deletes its end of the pair, and with it this computer's end.
        subprocess.run(["ip", "netns", "del", netns], capture_output=True, timeout=30)
        subprocess.run(["ip", "link", "del", here], capture_output=True, timeout=30)
