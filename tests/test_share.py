"""Sharing the table: join addresses, the QR code, the CLI's options and the guarded server."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest
import websockets.sync.client as ws_client
import zxingcpp
from support.table_server import free_port, log_of, serving, start, stop, wait_ready
from websockets.exceptions import InvalidStatus

from conftest import run_cli
from scorepad.app.server.access import check_pin_option, generate_pin
from scorepad.app.server.share import Sharing, banner, lan_addresses, qr, qr_png, qr_terminal
from scorepad.store import Store


def decode(code: object) -> list[str]:
    """Read a segno QR code back with zxing-cpp, from its pixels."""
    rows = [[0 if dark else 255 for dark in row] for row in code.matrix_iter(scale=4, border=4)]  # type: ignore[attr-defined]
    return [r.text for r in zxingcpp.read_barcodes(np.array(rows, dtype=np.uint8))]


def test_the_qr_code_decodes_to_the_join_address() -> None:
    sharing = Sharing(
        "http", 8550, ("192.168.1.23", "10.0.0.5"), "123456", True, frozenset({"192.168.1.23"})
    )
    urls = sharing.join_urls(7, "tok3n")
    assert urls == ["http://192.168.1.23:8550/join/7/tok3n", "http://10.0.0.5:8550/join/7/tok3n"]
    assert decode(qr(urls[0])) == ["http://192.168.1.23:8550/join/7/tok3n"]
    png = qr_png(urls[0])
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_the_terminal_banner_says_where_to_open_the_pin_the_warning_the_link_and_how_to_stop() -> (
    None
):
    sharing = Sharing(
        "http", 8550, ("192.168.1.23", "10.0.0.5"), "123456", True, frozenset({"127.0.0.1"})
    )
    text = banner(sharing, "en", join=(3, "tok3n"), explicit=True)
    assert text.splitlines()[:9] == [
        "Scorepad is served. On this computer open: http://127.0.0.1:8550/",
        "Phones on the same network join with a session's link:",
        "Table PIN (needed to write): 123456",
        "The host types the PIN on this computer too (it was given with --pin).",
        "Plain HTTP: anyone on this network can read the sheet and the PIN on the wire. Use a "
        "network you trust, or start with --certfile and --keyfile.",
        "Join link of session 3:",
        "  http://192.168.1.23:8550/join/3/tok3n",
        "  http://10.0.0.5:8550/join/3/tok3n",
        qr_terminal("http://192.168.1.23:8550/join/3/tok3n").splitlines()[0],
    ]
    assert qr_terminal("http://192.168.1.23:8550/join/3/tok3n") in text
    assert text.endswith(
        "Scorepad for a phone alone (it then keeps score with no laptop): open "
        "http://192.168.1.23:8550/app/ on the phone and add it to the home screen.\n"
        "Stop the server with Ctrl-C.\n"
    )
    # No session chosen: no QR code at all (never a guess at "the newest session").
    unchosen = banner(sharing, "en")
    assert "/join/" not in unchosen and "\u2580" not in unchosen and "\u2584" not in unchosen
    assert "start with --join SESSION" in unchosen
    ru = banner(sharing, "ru", join=(3, "tok3n")).splitlines()
    assert ru[0] == "Scorepad запущен. На этом компьютере откройте: http://127.0.0.1:8550/"
    assert ru[2] == "PIN стола (нужен для записи): 123456"
    assert ru[-1] == "Остановить сервер: Ctrl-C."


def test_host_names_the_server_answers_to() -> None:
    local = Sharing.make("127.0.0.1", 8550, tls=False, pin=None)
    assert local.allowed_hosts() == {"127.0.0.1:8550", "localhost:8550", "[::1]:8550"}
    assert "http://localhost:8550" in local.allowed_origins()
    lan = Sharing.make("192.168.1.23", 9000, tls=True, pin="123456")
    assert lan.allowed_hosts() == {"192.168.1.23:9000"}
    assert lan.join_urls(1, "t") == ["https://192.168.1.23:9000/join/1/t"]


def test_pins() -> None:
    pins = {generate_pin() for _ in range(50)}
    assert all(len(p) == 6 and p.isdigit() for p in pins)
    assert len(pins) > 40
    assert check_pin_option("0042") == "0042"


@pytest.mark.parametrize("pin", ["", "12", "abcdef", "1" * 13, "１２３４５６"])
def test_a_bad_pin_option_is_refused(tmp_path: Path, pin: str) -> None:
    done = run_cli("--db", str(tmp_path / "x.db"), "--lang", "en", "--web", "--pin", pin)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "the table PIN must be 4 to 12 digits\n"


def test_a_certificate_without_its_key_is_refused(tmp_path: Path) -> None:
    cert = tmp_path / "cert.pem"
    cert.write_text("x")
    done = run_cli("--db", str(tmp_path / "x.db"), "--lang", "en", "--web", "--certfile", str(cert))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "--certfile and --keyfile go together: give both or neither\n"


def test_two_hosts_on_one_port(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with serving(db) as (_url, port):
        done = run_cli("--db", str(tmp_path / "t.db"), "--lang", "en", "--web", "--port", str(port))
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == (
            f"port {port} on 127.0.0.1 is already in use (another Scorepad?): "
            "stop it, or choose another port with --port\n"
        )
    assert not (tmp_path / "t.db").exists() or Store(tmp_path / "t.db").sessions() == []


def _status(url: str, **headers: str) -> int:
    req = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def test_the_server_trusts_no_stranger(tmp_path: Path) -> None:
    with serving(tmp_path / "s.db") as (url, port):
        assert _status(url) == 200
        assert _status(url, Host=f"localhost:{port}") == 200
        assert _status(url, Host="evil.example") == 403
        assert _status(url, Host=f"evil.example:{port}") == 403
        assert _status(url + "join/1", Host=f"rebind.evil.example:{port}") == 403
        assert _status(url, Origin="http://evil.example") == 403
        assert _status(url, Origin=f"http://127.0.0.1:{port}") == 200
        for hidden in ("docs", "redoc", "openapi.json"):
            assert _status(url + hidden) == 404
        ws = f"ws://127.0.0.1:{port}/ws"
        with pytest.raises(InvalidStatus) as refused:
            ws_client.connect(ws, origin="http://evil.example", open_timeout=10)  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        with pytest.raises(InvalidStatus) as refused:
            ws_client.connect(ws, additional_headers={"Host": "evil.example"}, open_timeout=10)
        assert refused.value.response.status_code == 403
        with ws_client.connect(ws, origin=f"http://127.0.0.1:{port}", open_timeout=10) as conn:  # type: ignore[arg-type]
            assert conn.protocol.state.name == "OPEN"


def test_sigterm_stops_the_server_and_closes_the_database(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with Store(db) as store:
        sid = store.create_session(["Anna", "Boris", "Vera"])
    port = free_port()
    proc = start(db, port)
    try:
        wait_ready(proc, f"http://127.0.0.1:{port}/", tmp_path / f"server-{port}.log")
        # a connected page: the shutdown closes it rather than waiting for it
        with ws_client.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10):
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=2) == 0, log_of(db, port)
    finally:
        stop(proc)
    assert not Path(f"{db}-wal").exists()  # the last connection closed: the WAL is folded in
    check = sqlite3.connect(db)
    assert check.execute("PRAGMA quick_check").fetchone() == ("ok",)
    check.close()
    with Store(db) as store:
        assert [s.id for s in store.sessions()] == [sid]


def test_a_network_address_without_a_pin_gets_one(tmp_path: Path) -> None:
    """Binding anywhere but this computer always comes with a PIN (printed for the host)."""
    db = tmp_path / "s.db"
    port = free_port()
    proc = start(db, port, "--host", "0.0.0.0")
    try:
        wait_ready(proc, f"http://127.0.0.1:{port}/", tmp_path / f"server-{port}.log")
    finally:
        stop(proc)
    lines = log_of(db, port).splitlines()
    pin_lines = [line for line in lines if line.startswith("Table PIN (needed to write): ")]
    assert len(pin_lines) == 1
    assert len(pin_lines[0].rsplit(" ", 1)[1]) == 6


def test_the_cli_help_names_the_new_options() -> None:
    done = run_cli("--help")
    assert done.returncode == 0
    for option in ("--share", "--pin PIN", "--certfile CERTFILE", "--keyfile KEYFILE"):
        assert option in done.stdout


def test_share_prints_every_address_the_pin_and_a_qr_code(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with Store(db) as store:
        store.create_session(["Anna", "Boris", "Vera"])
        sid = store.create_session(["Gleb", "Dima", "Egor"])
    port = free_port()
    proc = start(db, port, "--share", "--pin", "471100", "--join", str(sid))
    try:
        wait_ready(proc, f"http://127.0.0.1:{port}/", tmp_path / f"server-{port}.log")
        lan = lan_addresses()
        out = log_of(db, port)
        token = out.split(f"/join/{sid}/", 1)[1].split()[0]
        urls = [f"http://{a}:{port}/join/{sid}/{token}" for a in lan]
        assert _status(urls[0]) == 200  # served on the network, answering its own address
        assert _status(f"http://127.0.0.1:{port}/", Host=f"{lan[0]}:{port}") == 200
    finally:
        stop(proc)
    lines = out.splitlines()
    assert lines[:4] == [
        f"Scorepad is served. On this computer open: http://127.0.0.1:{port}/",
        "Phones on the same network join with a session's link:",
        "Table PIN (needed to write): 471100",
        "The host types the PIN on this computer too (it was given with --pin).",
    ]
    at = lines.index(f"Join link of session {sid}:")
    assert lines[at + 1 : at + 1 + len(urls)] == [f"  {u}" for u in urls]
    assert qr_terminal(urls[0]) in out
    assert len(token) >= 22
    assert lines[-1] == "Stop the server with Ctrl-C."


def test_https_with_a_certificate(tmp_path: Path) -> None:
    import ssl

    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    made = subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        capture_output=True,
    )
    assert made.returncode == 0, made.stderr
    db = tmp_path / "s.db"
    port = free_port()
    proc = start(db, port, "--certfile", str(cert), "--keyfile", str(key))
    context = ssl.create_default_context(cafile=str(cert))
    context.check_hostname = False
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(
                    f"https://127.0.0.1:{port}/", timeout=2, context=context
                ) as r:
                    assert r.status == 200
                    break
            except (OSError, ssl.SSLError):
                assert proc.poll() is None, log_of(db, port)
                assert time.time() < deadline
                time.sleep(0.2)
    finally:
        stop(proc)
    assert log_of(db, port).splitlines()[:2] == [
        f"Scorepad is served. On this computer open: https://127.0.0.1:{port}/",
        "Stop the server with Ctrl-C.",
    ]


def test_the_address_the_phones_open_through_a_proxy() -> None:
    """``--public-url``: a proxy's address is answered as the server's own (its Host, with or
    without the scheme's port, and its Origin in its own scheme), and the join links use it."""
    from scorepad.app.server.share import Sharing, public_base

    assert public_base("https://Scorepad.Example.org/") == "https://scorepad.example.org"
    assert public_base("https://x.org:443") == "https://x.org"
    assert public_base("http://10.231.5.1:8080") == "http://10.231.5.1:8080"
    assert public_base("http://[2001:DB8::1]:81") == "http://[2001:db8::1]:81"
    for refused in (
        "ftp://x.org",
        "https://x.org/a",
        "https://u@x.org",
        "https://x.org:99999",
        "https://",
        "x.org",
        "https://x.org/?a=1",
        "https://x.org/#f",
    ):
        assert public_base(refused) is None, refused
    s = Sharing.make(
        "127.0.0.1",
        8550,
        tls=False,
        pin="123456",
        public=("https://scorepad.example.org", "http://10.231.5.1:8080"),
    )
    assert s.allowed_hosts() == {
        "127.0.0.1:8550",
        "localhost:8550",
        "[::1]:8550",
        "scorepad.example.org",
        "scorepad.example.org:443",
        "10.231.5.1:8080",
    }
    assert s.allowed_origins() == {
        "http://127.0.0.1:8550",
        "http://localhost:8550",
        "http://[::1]:8550",
        "https://scorepad.example.org",
        "http://10.231.5.1:8080",
    }
    assert "http://scorepad.example.org" not in s.allowed_origins()  # TLS is the proxy's
    assert s.join_urls(3, "tok") == [
        "https://scorepad.example.org/join/3/tok",
        "http://10.231.5.1:8080/join/3/tok",
    ]
    assert s.shared
