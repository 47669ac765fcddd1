"""Sharing the table on the local network: the join addresses, the QR code, the host's banner."""

from __future__ import annotations

import io
import ipaddress
import re
import socket
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import segno

from ...core.i18n import N_, Msg, catalog, msg

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def this_computer(peer: str) -> bool:
    """A connection's peer is this computer: loopback, or one of its own interface addresses
    (a server bound to its LAN address is reached from the laptop itself on that address)."""
    if is_loopback(peer):
        return True
    try:
        ip = ipaddress.ip_address(peer)
    except ValueError:
        return False
    import psutil  # here, not at the top: the app on a phone (Pyodide) has no psutil nor a LAN

    own = {
        ipaddress.ip_address(a.address)
        for addrs in psutil.net_if_addrs().values()
        for a in addrs
        if a.family in (socket.AF_INET, socket.AF_INET6) and "%" not in a.address
    }
    return ip in own


def lan_addresses() -> list[str]:
    """The IPv4 address of every network interface that is up and not loopback (sorted)."""
    import psutil  # see this_computer

    found: set[str] = set()
    stats = psutil.net_if_stats()
    for name, addrs in psutil.net_if_addrs().items():
        if name in stats and not stats[name].isup:
            continue
        for a in addrs:
            if a.family != socket.AF_INET:
                continue
            ip = ipaddress.ip_address(a.address)
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
                continue
            found.add(a.address)
    return sorted(found, key=lambda a: ipaddress.ip_address(a))


def url_host(address: str) -> str:
    return f"[{address}]" if ":" in address else address


_DEFAULT_PORT = {"http": 80, "https": 443}


def public_base(url: str) -> str | None:
    """The address the phones open through a reverse proxy (``--public-url``), as a browser
    writes it in ``Origin``: ``scheme://host`` with the port only where it is not the scheme's
    own; None when it is not such an address (a path, a query, a user, another scheme)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname
    if (
        parts.scheme not in _DEFAULT_PORT
        or not host
        or parts.username is not None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        return None
    name = url_host(host.lower())
    if port is None or port == _DEFAULT_PORT[parts.scheme]:
        return f"{parts.scheme}://{name}"
    return f"{parts.scheme}://{name}:{port}"


def public_refused(url: str) -> Msg:
    return msg(
        N_(
            "--public-url takes the address the phones open, such as https://scorepad.example.org or http://192.168.1.5:8080 (no path): not {url}"
        ),
        url=url[:60],
    )


@dataclass(frozen=True)
class Sharing:
    """Where the server can be reached, and how a device joins a session there."""

    scheme: str  # http or https
    port: int
    addresses: tuple[str, ...]  # every address a device may use (the ones printed)
    pin: str | None
    shared: bool  # reachable from the network (not only this computer)
    hosts: frozenset[str] = field(default=frozenset())
    # The addresses the phones open through a reverse proxy (``--public-url``, each as
    # public_base gives it): answered as the server's own, and the join links are theirs.
    public: tuple[str, ...] = ()

    @classmethod
    def make(
        cls,
        host: str,
        port: int,
        *,
        tls: bool,
        pin: str | None,
        extra: tuple[str, ...] = (),
        public: tuple[str, ...] = (),
    ) -> Sharing:
        if is_loopback(host):
            addresses: tuple[str, ...] = (host if host != "localhost" else "127.0.0.1",)
            shared = False
        elif host in ("0.0.0.0", "::", ""):
            addresses = tuple(lan_addresses())
            shared = True
        else:
            addresses = (host,)
            shared = True
        names = {"127.0.0.1", "localhost", "[::1]", *map(url_host, addresses), *extra}
        if not is_loopback(host) and host not in ("0.0.0.0", "::", ""):
            names.discard("127.0.0.1")
            names.discard("localhost")
            names.discard("[::1]")
        scheme = "https" if tls else "http"
        return cls(scheme, port, addresses, pin, shared or bool(public), frozenset(names), public)

    def base(self, address: str) -> str:
        return f"{self.scheme}://{url_host(address)}:{self.port}"

    def join_urls(self, sid: int, token: str) -> list[str]:
        if self.public:  # behind a proxy: the phones know only its address
            return [f"{base}/join/{sid}/{token}" for base in self.public]
        return [f"{self.base(a)}/join/{sid}/{token}" for a in self.addresses]

    def here(self) -> str:
        """The address to open on the host's computer itself."""
        if "127.0.0.1" in self.hosts or not self.addresses:
            return f"{self.scheme}://127.0.0.1:{self.port}/"
        return f"{self.base(self.addresses[0])}/"

    def allowed_hosts(self) -> set[str]:
        """``Host`` header values this server answers to (the names and addresses it prints)."""
        return self._own_hosts() | self._public_hosts()

    def allowed_origins(self) -> set[str]:
        return {f"{self.scheme}://{h}" for h in self._own_hosts()} | set(self.public)

    def _own_hosts(self) -> set[str]:
        out = {f"{h}:{self.port}" for h in self.hosts}
        if (self.scheme, self.port) in (("http", 80), ("https", 443)):
            out |= set(self.hosts)
        return out

    def _public_hosts(self) -> set[str]:
        """A proxy that passes the phone's ``Host`` on (as most are set up) sends these."""
        out: set[str] = set()
        for base in self.public:
            scheme, netloc = base.split("://", 1)
            out.add(netloc)
            if not re.search(r":\d+$", netloc):  # the scheme's own port, said or not
                out.add(f"{netloc}:{_DEFAULT_PORT[scheme]}")
        return out


def qr(url: str) -> segno.QRCode:
    return segno.make(url, error="m", micro=False)


def qr_png(url: str, *, scale: int = 8) -> bytes:
    out = io.BytesIO()
    qr(url).save(out, kind="png", scale=scale, border=4)
    return out.getvalue()


def qr_terminal(url: str) -> str:
    """The QR code in half-block characters (two modules a line), readable from a terminal."""
    out = io.StringIO()
    qr(url).terminal(out=out, compact=True, border=2)
    return out.getvalue()


def banner(
    sharing: Sharing, lang: str, *, join: tuple[int, str] | None = None, explicit: bool = False
) -> str:
    """What the host's terminal shows: where to open the app here, the network addresses, the
    PIN, the plain-HTTP warning, a join link and its QR code (the session the host chose with
    ``--join``), and how to stop."""
    cat = catalog(lang)

    def say(text: str, **args: object) -> str:
        return cat.render(msg(text, **args))

    lines = [say(N_("Scorepad is served. On this computer open: {url}"), url=sharing.here())]
    if sharing.shared:
        if not sharing.addresses:
            lines.append(say(N_("No network interface is up: the table cannot be shared.")))
        else:
            lines.append(say(N_("Phones on the same network join with a session's link:")))
    if sharing.pin is not None:
        lines.append(say(N_("Table PIN (needed to write): {pin}"), pin=sharing.pin))
        if explicit:
            lines.append(
                say(N_("The host types the PIN on this computer too (it was given with --pin)."))
            )
    if sharing.shared and sharing.scheme == "http":
        lines.append(
            say(
                N_(
                    "Plain HTTP: anyone on this network can read the sheet and the PIN on the wire. Use a network you trust, or start with --certfile and --keyfile."
                )
            )
        )
    if sharing.shared and sharing.addresses:
        if join is None:
            lines.append(
                say(
                    N_(
                        'To show a session\'s link and QR code here, start with --join SESSION; or open the session on this computer and press "Share the table".'
                    )
                )
            )
        else:
            sid, token = join
            urls = sharing.join_urls(sid, token)
            lines.append(say(N_("Join link of session {id}:"), id=sid))
            lines += [f"  {u}" for u in urls]
            lines.append(qr_terminal(urls[0]))
    if sharing.shared and sharing.addresses:  # installable.py builds it at its first visit
        lines.append(
            say(
                N_(
                    "Scorepad for a phone alone (it then keeps score with no laptop): open {url} on the phone and add it to the home screen."
                ),
                url=f"{sharing.base(sharing.addresses[0])}/app/",
            )
        )
    lines.append(say(N_("Stop the server with Ctrl-C.")))
    return "\n".join(lines) + "\n"
