"""The server-wide part of the shared table (one per server): the PIN gate, where the server can
be reached, and the server itself, to start serving on the network when the host shares.

Every page of one server holds the same :class:`Table` (``shell.table``); the screens that show
it are in app/screens/table.py.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import TYPE_CHECKING

from ...core.i18n import N_, Msg, msg
from .access import PIN_MIN_SHARED, Gate, ServeRefused, generate_pin, short_pin
from .grants import Grants
from .share import Sharing, lan_addresses, this_computer, url_host

if TYPE_CHECKING:
    from .server import Server


@dataclasses.dataclass
class Table:
    """What every page of one server shares: the PIN and where the server is reached."""

    gate: Gate
    sharing: Sharing
    server: Server | None = None
    grants: Grants | None = None
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)

    def here(self, peer: str) -> bool:
        """Whether a connection from ``peer`` comes from this computer (the host's)."""
        return this_computer(peer)

    def join_urls(self, sid: int) -> list[str]:
        assert self.grants is not None
        return self.sharing.join_urls(sid, self.grants.link(sid))

    def share_now(self) -> Sharing:
        """Serve on every network interface too (the host pressed "Share the table")."""
        with self.lock:
            if self.sharing.shared:
                return self.sharing
            if self.server is None:
                raise ServeRefused(no_network())
            addresses = lan_addresses()
            if not addresses:
                raise ServeRefused(no_network())
            # Through the server itself: this module never imports the web server's stack
            # (FastAPI, uvicorn), which the app on a phone (Pyodide) has not, and needs not.
            sockets = [self.server.bind(a, self.sharing.port) for a in addresses]
            if self.gate.pin is None:
                self.gate.pin = generate_pin()  # never on the network without a PIN
            elif len(self.gate.pin) < PIN_MIN_SHARED:
                raise ServeRefused(short_pin())
            self.server.add(sockets)
            self.sharing = dataclasses.replace(
                self.sharing,
                addresses=tuple(addresses),
                shared=True,
                pin=self.gate.pin,
                hosts=self.sharing.hosts | {url_host(a) for a in addresses},
            )
            return self.sharing


def no_network() -> Msg:
    return msg(N_("No network interface is up: the table cannot be shared."))
