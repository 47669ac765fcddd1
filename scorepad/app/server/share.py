"""Sharing the table on the local network: the join addresses, the QR code, the host's banner."""

from __future__ import annotations

import io
import ipaddress
import socket
from dataclasses import dataclass, field

import psutil
import segno

from ...i18n import N_, catalog, msg

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_addresses() -> list[str]:
    """The IPv4 address of every network interface that is up and not loopback (sorted)."""
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


@dataclass(frozen=True)
class Sharing:
    """Where the server can be reached, and how a device joins a session there."""

    scheme: str  # http or https
    port: int
    addresses: tuple[str, ...]  # every address a device may use (the ones printed)
    pin: str | None
    shared: bool  # reachable from the network (not only this computer)
    hosts: frozenset[str] = field(default=frozenset())

    @classmethod
    def make(
        cls, host: str, port: int, *, tls: bool, pin: str | None, extra: tuple[str, ...] = ()
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
        return cls("https" if tls else "http", port, addresses, pin, shared, frozenset(names))

    def base(self, address: str) -> str:
        return f"{self.scheme}://{url_host(address)}:{self.port}"

    def join_urls(self, sid: int) -> list[str]:
        return [f"{self.base(a)}/join/{sid}" for a in self.addresses]

    def allowed_hosts(self) -> set[str]:
        """``Host`` header values this server answers to (the names and addresses it prints)."""
        out = {f"{h}:{self.port}" for h in self.hosts}
        if (self.scheme, self.port) in (("http", 80), ("https", 443)):
            out |= set(self.hosts)
        return out

    def allowed_origins(self) -> set[str]:
        return {f"{self.scheme}://{h}" for h in self.allowed_hosts()}


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


def banner(sharing: Sharing, sid: int | None, lang: str) -> str:
    """What the host's terminal shows: the addresses, the PIN, a QR code of the first address."""
    cat = catalog(lang)
    lines: list[str] = []
    if not sharing.addresses:
        lines.append(cat.render(msg(N_("No network interface is up: the table cannot be shared."))))
        return "\n".join(lines) + "\n"
    urls = (
        sharing.join_urls(sid)
        if sid is not None
        else [f"{sharing.base(a)}/" for a in sharing.addresses]
    )
    lines.append(cat.render(msg(N_("Scorepad is served at:"))))
    lines += [f"  {u}" for u in urls]
    if sharing.pin is not None:
        lines.append(cat.render(msg(N_("Table PIN (needed to write): {pin}"), pin=sharing.pin)))
    if sharing.shared:
        lines.append(qr_terminal(urls[0]))
    return "\n".join(lines) + "\n"
