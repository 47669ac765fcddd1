"""HTTPS in front of a test server, as a host's reverse proxy gives it: a private authority and
a certificate for ``localhost`` and ``127.0.0.1`` made by ``openssl``, and a small TLS proxy
that forwards each connection to the server's port (which may change: the league goes down and
comes back on another port).  When the server is away the proxy answers 502, as nginx does."""

from __future__ import annotations

import asyncio
import ssl
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from support.proxy import Proxy, _pipe

BAD_GATEWAY = (
    b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nContent-Length: 12\r\n"
    b"Connection: close\r\n\r\nBad Gateway\n"
)


@dataclass(frozen=True)
class Certificates:
    ca: Path  # the private authority's certificate (what a client trusts with --ca)
    cert: Path  # the server's, for localhost and 127.0.0.1
    key: Path


def make_certificates(folder: Path) -> Certificates:
    """A private authority and a server certificate it signed (P-256 keys: made in ms)."""
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    run("req", "-x509", "-subj", "/CN=Scorepad test league CA", *ec, "-keyout", "ca.key",
        "-out", "ca.pem", "-days", "2", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign")  # fmt: skip
    run("req", *ec, "-subj", "/CN=localhost", "-keyout", "server.key", "-out", "server.csr")
    (folder / "server.ext").write_text(
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
        "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
    )
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "server.ext")  # fmt: skip
    return Certificates(folder / "ca.pem", folder / "server.pem", folder / "server.key")


class TlsProxy(Proxy):
    """TLS on 127.0.0.1 (a port chosen for it) for the plain HTTP server on 127.0.0.1:``upstream``
    (proxy.py's, every connection passed through untouched)."""

    def __init__(self, certs: Certificates, upstream: int) -> None:
        super().__init__(("127.0.0.1", upstream), ())
        self.tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.tls.load_cert_chain(certs.cert, certs.key)

    async def _serve_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:  # the server is away: the proxy says so, as nginx does
            with suppress(Exception):
                await reader.readuntil(b"\r\n\r\n")
                writer.write(BAD_GATEWAY)
                await writer.drain()
            writer.close()
            return
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))


@contextmanager
def tls_proxy(certs: Certificates, upstream: int) -> Iterator[TlsProxy]:
    proxy = TlsProxy(certs, upstream)
    proxy.serve("127.0.0.1")
    try:
        yield proxy
    finally:
        proxy.close()
