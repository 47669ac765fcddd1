"""A phone that really is another host (tests/netns.py): the shared table as the phones at a real
table meet it, not a client on 127.0.0.1 that says it is elsewhere.

The server runs as the CLI starts it for the network (``--host`` on this computer's end of a veth
pair, with ``--pin``); the phone's socket, and its browser, live in a network namespace of their
own at ``10.231.N.2``.  What it may do comes from that address alone: whatever headers it sends
(no proxy is trusted here), it is never this computer, so it never sees the host's list or
administers; with the join link it reads its game, and with the table PIN it writes it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e.harness import ARGS, redrawn, semantics_on, shot, tap, visible
from support.flet_wire import Client
from support.netns import Phone, another_host
from support.proxy import reverse_proxy
from support.table_server import free_port, start, stop, wait_ready
from test_table_e2e import count, enter, enter_pin, has_text, link

from scorepad.store import Store

PIN = "246810"
# Headers a phone may send to pass for the host's computer: with no proxy trusted, none counts.
FORGED: list[dict[str, str]] = [
    {},
    {"X-Forwarded-For": "127.0.0.1"},
    {"Forwarded": "for=127.0.0.1"},
    {"X-Real-IP": "127.0.0.1"},
    {"X-Forwarded-For": "10.231.0.1"},  # this computer's end of the pair, as the phone knows it
]


@pytest.fixture(scope="module")
def phone() -> Iterator[Phone]:
    with another_host() as made:
        yield made


@pytest.fixture
def served(tmp_path: Path, phone: Phone) -> Iterator[tuple[Path, int, int]]:
    """The real CLI serving a database with one pulka on this computer's end of the pair."""
    db = tmp_path / "table.db"
    with Store(db) as store:
        sid = store.create_session(["Anna", "Boris", "Vera"])
    port = free_port()
    proc = start(db, port, "--host", phone.server, "--pin", PIN)
    try:
        wait_ready(proc, f"http://{phone.server}:{port}/", db.parent / f"server-{port}.log")
        yield db, port, sid
    finally:
        stop(proc)


def from_phone(phone: Phone, port: int, route: str, headers: dict[str, str]) -> Client:
    return Client(
        port, route, host=phone.server, headers=headers, sock=phone.connect(port), width=360
    )


def type_pin(c: Client, value: str) -> None:
    n = len(c.frames)
    c.props(c.control("pin-field"), {"value": value})
    c.event(c.control("pin-submit"))
    c.wait(lambda c: len(c.frames) > n and any(f[0] == 2 for f in c.frames[n:]))


def test_the_phone_is_a_stranger_whatever_it_says(
    served: tuple[Path, int, int], phone: Phone
) -> None:
    db, port, sid = served
    for headers in FORGED:
        with from_phone(phone, port, "/", headers) as c:
            c.wait(lambda c: c.has("join-needed"))
            assert not c.has("pin-field") and not c.has("sessions-list"), headers
            assert not c.has(f"session-delete-{sid}"), headers
    # This computer, on the very same address and port: the host's computer, which types the
    # PIN given with --pin and then has the list and its administration.
    with Client(port, "/", host=phone.server) as host:
        host.wait(lambda c: c.has("pin-field"))
        type_pin(host, PIN)
        host.wait(lambda c: c.has(f"session-delete-{sid}"))
    with Store(db) as store:
        assert [s.id for s in store.sessions()] == [sid]


def test_the_phone_reads_by_its_link_and_writes_with_the_pin_only_its_game(
    served: tuple[Path, int, int], phone: Phone
) -> None:
    db, port, sid = served
    with Store(db) as store:
        other = store.create_session(["Gleb", "Dima", "Zoya"])
    token = link(db, sid)
    with from_phone(phone, port, f"/join/{sid}/{token}", {"X-Forwarded-For": "127.0.0.1"}) as c:
        c.wait(lambda c: c.has("viewer-note"))  # a viewer: the sheet, no write
        assert not c.has("nav-sessions") and not c.has("confirm-deal")
        c.event(c.control("pin-open"))
        c.wait(lambda c: c.has("pin-field"))
        type_pin(c, "000000")
        c.wait(lambda c: c.shows("Wrong PIN. Tries left on this device: 4."))
        type_pin(c, PIN)
        c.wait(lambda c: c.has("nav-entry"))
        assert not c.has("nav-sessions")  # its game, never the host's list
    # The same device's grant opens nothing of another game: its own link is needed.
    with from_phone(phone, port, f"/join/{other}/{token}", {}) as c:
        c.wait(lambda c: c.shows("This link opens nothing"))
        assert not c.has("nav-entry")


@pytest.mark.parametrize("spellings", [("xff",), ("forwarded",), ("xff", "forwarded")])
def test_through_a_real_reverse_proxy_the_phone_is_its_own_address(
    tmp_path: Path, phone: Phone, spellings: tuple[str, ...]
) -> None:
    """As a club hosts it: a reverse proxy (tests/proxy.py, appending the peer as nginx does) in
    front of a server on 127.0.0.1 that trusts it and answers to the address the phones open
    (``--public-url``).  Whatever a phone on the other host forges, the proxy's last hop is its
    own address: a stranger at ``/``, a viewer with the link, a writer with the PIN.  This
    computer's browser through the same proxy is the host."""
    db = tmp_path / "table.db"
    with Store(db) as store:
        sid = store.create_session(["Anna", "Boris", "Vera"])
    port = free_port()
    with reverse_proxy(phone.server, ("127.0.0.1", port), spellings) as front:
        public = f"http://{phone.server}:{front}"
        proc = start(db, port, "--pin", PIN, "--trusted-proxy", "127.0.0.1", "--public-url", public)
        try:
            wait_ready(proc, f"http://127.0.0.1:{port}/", db.parent / f"server-{port}.log")
            for headers in FORGED:
                with from_phone(phone, front, "/", headers) as c:
                    c.wait(lambda c: c.has("join-needed"))
                    assert not c.has("pin-field") and not c.has("sessions-list"), headers
            token = link(db, sid)
            route = f"/join/{sid}/{token}"
            with from_phone(phone, front, route, {"X-Forwarded-For": "127.0.0.1"}) as c:
                c.wait(lambda c: c.has("viewer-note"))
                c.event(c.control("pin-open"))
                c.wait(lambda c: c.has("pin-field"))
                type_pin(c, PIN)
                c.wait(lambda c: c.has("nav-entry"))
                assert not c.has("nav-sessions")
            with Client(front, "/", host=phone.server) as host:  # this computer, via the proxy
                host.wait(lambda c: c.has("pin-field"))
                type_pin(host, PIN)
                host.wait(lambda c: c.has(f"session-delete-{sid}"))
        finally:
            stop(proc)


def test_a_public_url_that_is_not_an_address_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scorepad.cli import main

    for url in ("ftp://scorepad.example.org", "https://scorepad.example.org/path", "nonsense"):
        assert main(["--db", str(tmp_path / "x.db"), "--web", "--public-url", url]) == 2
        assert capsys.readouterr().err.strip() == (
            "--public-url takes the address the phones open, such as "
            "https://scorepad.example.org or http://192.168.1.5:8080 (no path): not " + url
        )
    assert not (tmp_path / "x.db").exists()  # refused before anything was opened


def test_a_phone_in_another_namespace_plays_a_deal_in_its_browser(
    served: tuple[Path, int, int], phone: Phone, tmp_path: Path
) -> None:
    """Chromium itself on the other host: it joins by the link, types the PIN and writes a deal
    by taps; the deal is in the host's database as written."""
    from playwright.sync_api import sync_playwright

    db, port, sid = served
    origin = f"http://{phone.server}:{port}"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=phone.chromium(tmp_path), headless=True, args=ARGS
        )
        try:
            ctx = browser.new_context(viewport={"width": 360, "height": 740})
            # The phone reaches the server and nothing else (no CDN, no font host).
            ctx.route(
                "**/*",
                lambda route: (
                    route.continue_()
                    if route.request.url.startswith((origin, "blob:", "data:"))
                    else route.abort()
                ),
            )
            page: Any = ctx.new_page()
            page.goto(f"{origin}/join/{sid}/{link(db, sid)}")
            semantics_on(page)
            visible(page, "viewer-note")
            tap(page, "pin-open")
            enter_pin(page, PIN)
            visible(page, "nav-entry")
            assert count(page, "nav-sessions") == 0
            tap(page, "nav-entry")
            has_text(page, "deal-header", "Deal 1: Anna deals, Boris leads.")
            enter(page, 1, "7", "S", ["whist", "pass"])
            redrawn(page, "tricks-1-7")
            redrawn(page, "tricks-2-3")
            has_text(page, "tricks-0", "0")
            shot(page, "netns-phone-360-entry")
            tap(page, "confirm-deal")
            has_text(page, "deal-header", "Deal 2: Boris deals, Vera leads.")
        finally:
            browser.close()
    with Store(db) as store:
        (written,) = [e.deal for e in store.load(sid).journal.live]
    data = written.model_dump(mode="json")
    assert (data["declarer"], data["contract"], data["calls"], data["tricks"]) == (
        1,
        "7S",
        ["whist"],  # the calls' shortest form: the last defender's pass is implied
        {"0": 0, "1": 7, "2": 3},
    )
