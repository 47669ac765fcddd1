"""The operator's admin page of the hosted server (issue #36) without a browser: no secret, no
page; a wrong secret refused and throttled; the right one gets a server-issued grant kept hashed
in its own namespace, lists and deletes; a table's PIN grant opens no admin page and the admin's
grant opens no table.  On a real SQLite file and a real PostgreSQL."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from scorepad.app.server.access import NotAllowed
from scorepad.app.server.admin import Admin, admin_delete, admin_key
from scorepad.app.server.grants import Grants, grant_key
from scorepad.app.server.hosted import ADMIN, Hosted, HostedAccess, HostedGate, hosted_parts
from scorepad.app.server.owners import Owners
from scorepad.store import Store

SECRET = "correct horse battery staple"
PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def served(target: str) -> Any:
    store = Store(target, check_same_thread=False)
    clock = Clock()
    hosted, gate = hosted_parts(store, threading.RLock(), admin_secret=SECRET, clock=clock)
    yield store, hosted, gate, clock
    store.close()


def page(gate: HostedGate, hosted: Hosted, device: str, address: str = "198.51.100.7") -> Any:
    gate.meet(device)
    return HostedAccess(gate, device, address=address, hosted=hosted)


def test_no_secret_no_admin_page(target: str) -> None:
    store = Store(target, check_same_thread=False)
    try:
        lock = threading.RLock()
        grants = Grants(store, lock)
        hosted = Hosted(Owners(store, lock), grants)  # serve without --admin-secret-file
        gate = HostedGate(None, grants=grants)
        gate.hosted = hosted
        access = page(gate, hosted, "d" * 24)
        # Even a token that would be a grant of some secret opens nothing: there is no page.
        token = "T" * 32
        grants.grant(admin_key(token, SECRET))
        access.admin_token = token
        assert hosted.admin is None and not access.admin
        with pytest.raises(NotAllowed) as refused:
            access.require_admin()
        assert refused.value.render("en") == "Only the server's operator may do that."
    finally:
        store.close()
    assert ADMIN.fullmatch("/admin") and ADMIN.fullmatch("/admin/")
    assert not ADMIN.fullmatch("/admin/x")


def test_a_wrong_secret_is_refused_and_throttled(served: Any) -> None:
    _store, hosted, _gate, clock = served
    admin = hosted.admin
    said = []
    for _ in range(4):
        token, refused = admin.enter("dev-a" * 5, "correct horse battery stapl", "198.51.100.7")
        assert token is None
        said.append(refused.render("en"))
    assert said[0] == "That is not the admin secret. Tries left on this device: 4."
    assert said[3] == "That is not the admin secret. Tries left on this device: 1."
    token, refused = admin.enter("dev-a" * 5, "x" * 30, "198.51.100.7")
    assert token is None
    assert refused.render("en") == (
        "Too many wrong secrets from this device or network: wait 30 s, then try again."
    )
    # While it waits, even the right secret is refused (nothing compared).
    token, refused = admin.enter("dev-a" * 5, SECRET, "198.51.100.7")
    assert token is None and "wait 30 s" in refused.render("en")
    # Many new devices from one address: the address waits after 20 misses.
    for i in range(15):
        assert admin.enter(f"dev-{i:02d}" * 4, "y" * 20, "198.51.100.7")[0] is None
    token, refused = admin.enter("dev-new" * 4, SECRET, "198.51.100.7")
    assert token is None and "wait 60 s" in refused.render("en")
    # Another address is not bound by it; after the waits, the right secret opens.
    token, refused = admin.enter("dev-other" * 3, SECRET, "203.0.113.9")
    assert refused is None and token is not None
    clock.now += 61
    token, refused = admin.enter("dev-new" * 4, SECRET, "198.51.100.7")
    assert refused is None and token is not None
    assert admin.enter("dev-b" * 5, "", "203.0.113.9")[1].render("en") == (
        "Type the server's admin secret: the operator configured it."
    )
    assert admin.enter("dev-b" * 5, None, "203.0.113.9")[0] is None


def test_the_right_secret_lists_exports_and_deletes(served: Any) -> None:
    store, hosted, gate, _ = served
    owned = store.create_session(PLAYERS, convention="sochi")
    orphan = store.create_session(PLAYERS[:3], convention="sochi")
    phone = page(gate, hosted, "p" * 24)
    phone.made(owned)
    operator = page(gate, hosted, "o" * 24, address="203.0.113.9")
    assert not operator.admin
    with pytest.raises(NotAllowed):
        operator.require_admin()
    token, refused = hosted.admin.enter(operator.device, " " + SECRET + "\n", operator.address)
    assert refused is None and token is not None and len(token) >= 32
    operator.admin_token = token
    assert operator.admin
    operator.require_admin()
    # Kept hashed: the database holds the key, never the token or the secret.
    rows = [str(r["device"]) for r in store.backend.query("SELECT device FROM table_grants")]
    assert admin_key(token, SECRET) in rows
    assert not any(token in r or SECRET in r for r in rows)
    # Another page (another worker) with the same token is the operator too: it is the database's.
    other = page(gate, hosted, "q" * 24)
    other.admin_token = token
    assert other.admin
    # A token of the same form that the server never issued opens nothing.
    other.admin_token = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert not other.admin
    # A new secret (the server started with another file): the old grants open nothing.
    renewed = Admin("another secret of twenty chars", hosted.grants, hosted.owners.lock)
    assert not renewed.opens(token)
    # The list is every game; export is the game's file; delete forgets its owner and link.
    assert {s.id for s in store.sessions()} == {owned, orphan}
    assert '"Anna"' in store.export_session(owned)
    link = hosted.grants.link(owned)
    admin_delete(store, hosted.owners, hosted.grants, owned)
    assert {s.id for s in store.sessions()} == {orphan}
    assert hosted.owners.pin(owned) is None
    assert not hosted.grants.opens(owned, link)
    assert not phone.owns(owned)
    # Signing out forgets the grant.
    hosted.admin.leave(token)
    operator.admin_token = token
    assert not operator.admin


def test_admin_and_table_grants_are_separate_namespaces(served: Any) -> None:
    store, hosted, gate, _ = served
    sid = store.create_session(PLAYERS, convention="sochi")
    owner = page(gate, hosted, "w" * 24)
    owner.made(sid)
    pin = hosted.owners.pin(sid)
    # A phone that writes at the table (its PIN given): no admin page with its device token,
    # nor with its grant's key, nor with its link.
    device = "j" * 24
    phone = page(gate, hosted, device)
    phone.scope = sid
    phone.link = hosted.grants.link(sid)
    assert phone.enter(pin) is None and phone.may_write
    for held in (device, grant_key(device, pin, sid), phone.link, owner.owned[sid]):
        phone.admin_token = held
        assert not phone.admin
    # The owner of a table has no admin page either.
    owner.admin_token = owner.owned[sid]
    assert not owner.admin
    with pytest.raises(NotAllowed):
        owner.require_admin()
    # The operator's grant gives no right at any table: no PIN, not the owner's, not a write.
    token, _ = hosted.admin.enter("a" * 24, SECRET, "203.0.113.9")
    assert token is not None
    for device in ("a" * 24, token):
        operator = page(gate, hosted, device)
        operator.admin_token = token
        assert operator.admin
        assert not operator.owns(sid)
        with pytest.raises(NotAllowed):
            operator.require_owner(sid)
        with pytest.raises(NotAllowed):
            operator.require_host()
        assert not operator.host
        operator.scope = sid
        operator.link = hosted.grants.link(sid)
        assert not operator.may_write
        with pytest.raises(NotAllowed):
            operator.require_write(sid)
    # Nor does the admin key, read as a device's table grant, match anything.
    assert not gate.may_write(admin_key(token, SECRET), scope=sid)
