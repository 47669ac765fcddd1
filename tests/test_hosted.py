"""The hosted server (``scorepad serve``, issue #36) without a browser: its command's parser and
refusals, the owners kept hashed in the store, the owner's rights refused to anyone else, the
creation limit and the operator's delete.  The store tests run on a real SQLite file and on a
real PostgreSQL."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any

import pytest

from scorepad.app.server.access import NotAllowed
from scorepad.app.server.grants import Grants, grant_key
from scorepad.app.server.hosted import (
    Hosted,
    HostedAccess,
    HostedGate,
    HostedOptions,
    _parse_held,
    hosted_parts,
)
from scorepad.app.server.owners import CREATIONS_PER_HOUR, Owners, address_key
from scorepad.cli import build_parser, main
from scorepad.cli.serve import hosted_options
from scorepad.store import Store

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]


@pytest.fixture
def served(target: str) -> Any:
    store = Store(target, check_same_thread=False)
    hosted, gate = hosted_parts(store, threading.RLock())
    yield store, hosted, gate
    store.close()


def page(gate: HostedGate, hosted: Hosted, device: str, address: str = "198.51.100.7") -> Any:
    access = HostedAccess(gate, device, address=address, hosted=hosted)
    gate.meet(device)
    return access


def game(store: Store) -> int:
    return store.create_session(PLAYERS, convention="sochi")


# --- the command ---------------------------------------------------------------------------------


def test_the_serve_command_takes_its_options() -> None:
    args = build_parser().parse_args(
        [
            "serve",
            "--db",
            "postgresql://scorepad@db.example.org/club",
            "--host",
            "0.0.0.0",
            "--port",
            "8550",
            "--workers",
            "4",
            "--trusted-proxy",
            "127.0.0.1",
            "--public-url",
            "https://scorepad.example.org",
            "--lang",
            "en",
        ]
    )
    options = hosted_options(args)
    assert options == HostedOptions(
        db="postgresql://scorepad@db.example.org/club",
        lang="en",
        host="0.0.0.0",
        port=8550,
        workers=4,
        admin_secret=None,
        trusted_proxy=("127.0.0.1",),
        public_url=("https://scorepad.example.org",),
    )


@pytest.mark.parametrize("workers", ["0", "-1", "x", "65"])
def test_a_wrong_number_of_workers_is_refused(
    workers: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--workers", workers])
    assert stopped.value.code == 2
    assert "--workers: a whole number from 1 to 64" in capsys.readouterr().err


def test_an_admin_secret_is_read_and_a_short_or_missing_one_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SCOREPAD_ADMIN_SECRET", raising=False)
    db = str(tmp_path / "s.db")
    assert (
        main(["serve", "--db", db, "--admin-secret-file", str(tmp_path / "none"), "--lang", "en"])
        == 2
    )
    assert capsys.readouterr().err.strip().endswith("none: no such file")
    short = tmp_path / "short"
    short.write_text("tooshort\n")
    assert main(["serve", "--db", db, "--admin-secret-file", str(short), "--lang", "ru"]) == 2
    err = capsys.readouterr().err
    assert "16" in err and "admin secret" not in err  # said in Russian
    good = tmp_path / "good"
    good.write_text("x" * 40 + "\nsecond line\n")
    args = build_parser().parse_args(["serve", "--admin-secret-file", str(good)])
    args.lang, args.db = "en", None
    assert hosted_options(args).admin_secret == "x" * 40
    monkeypatch.setenv("SCOREPAD_ADMIN_SECRET", "y" * 20)
    args = build_parser().parse_args(["serve"])
    args.lang, args.db = "en", None
    assert hosted_options(args).admin_secret == "y" * 20
    assert not (tmp_path / "s.db").exists()  # a refused start creates no database


def test_a_public_url_with_a_path_is_refused_before_anything_opens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.db"
    code = main(
        ["serve", "--db", str(db), "--public-url", "https://x.example.org/app", "--lang", "en"]
    )
    assert code == 2 and "https://x.example.org/app" in capsys.readouterr().err
    assert not db.exists()


# --- owners --------------------------------------------------------------------------------------


def test_the_owner_secret_is_kept_hashed_and_only_it_opens_its_table(served: Any) -> None:
    store, hosted, gate = served
    sid, other = game(store), game(store)
    owner = page(gate, hosted, "d" * 24)
    owner.current = lambda: sid
    owner.made(sid)
    secret = owner.owned[sid]
    assert len(secret) >= 22  # 128 bits, URL-safe
    rows = store.backend.query("SELECT session, secret, pin FROM table_owners")
    assert rows == [
        {
            "session": sid,
            "secret": hashlib.sha256(secret.encode()).hexdigest(),
            "pin": rows[0]["pin"],
        }
    ]
    assert secret not in str(rows) and len(rows[0]["pin"]) == 6
    assert owner.may_write and owner.owns(sid)
    owner.require_owner(sid)
    # A forged, missing or other table's secret opens nothing.
    for held in ({sid: "A" * 22}, {}, {other: secret}):
        stranger = page(gate, hosted, "s" * 24)
        stranger.owned = dict(held)
        stranger.current = lambda: sid
        assert not stranger.owns(sid) and not stranger.may_write
        for check in (stranger.require_owner, stranger.require_next):
            with pytest.raises(NotAllowed, match="Only the phone that owns this table"):
                check(sid)
        with pytest.raises(NotAllowed):
            stranger.require_write(sid)
        assert hosted.owners.handover_code(sid, held.get(sid, "")) is None
    # The browser's list is believed only where the database agrees.
    fresh = page(gate, hosted, "f" * 24)
    fresh.held(f'{{"own": {{"{sid}": "{secret}", "{other}": "{secret}"}}, "join": {{}}}}')
    assert fresh.owned == {sid: secret}


def test_a_hand_over_gives_a_new_secret_and_the_old_stops(served: Any) -> None:
    store, hosted, gate = served
    sid = game(store)
    old = page(gate, hosted, "o" * 24)
    old.made(sid)
    code = hosted.owners.handover_code(sid, old.owned[sid])
    assert code is not None
    assert hosted.owners.take(sid + 1, code) is None  # another table's number: nothing
    new = page(gate, hosted, "n" * 24)
    secret = hosted.owners.take(sid, code)
    assert secret is not None and secret != old.owned[sid]
    new.took(sid, secret)
    assert new.owns(sid) and not old.owns(sid)
    with pytest.raises(NotAllowed):
        old.require_owner(sid)
    assert hosted.owners.take(sid, code) is None  # the code is used once
    assert hosted.owners.handover_code(sid, old.owned[sid]) is None


def test_a_phone_writes_with_the_tables_own_pin_and_the_owner_forgets_only_its_phones(
    served: Any,
) -> None:
    store, hosted, gate = served
    mine, theirs = game(store), game(store)
    owner, other_owner = page(gate, hosted, "o" * 24), page(gate, hosted, "p" * 24)
    owner.made(mine)
    other_owner.made(theirs)
    token = hosted.grants.link(mine)
    phone = page(gate, hosted, "q" * 24, address="203.0.113.9")
    phone.scope, phone.link = mine, token
    assert not phone.may_write
    assert phone.enter(hosted.owners.pin(theirs)) is not None or hosted.owners.pin(
        theirs
    ) == hosted.owners.pin(mine)
    assert phone.enter(hosted.owners.pin(mine)) is None
    phone.answers = None
    assert phone.may_write
    phone.require_write(mine)
    with pytest.raises(NotAllowed):
        phone.require_write(theirs)  # a phone of one table writes nothing of another
    with pytest.raises(NotAllowed):
        phone.require_owner(mine)
    elsewhere = page(gate, hosted, "r" * 24)
    elsewhere.scope, elsewhere.link = theirs, hosted.grants.link(theirs)
    assert elsewhere.enter(hosted.owners.pin(theirs)) is None
    assert gate.forget_table(mine) == 1
    assert not phone.may_write and elsewhere.may_write


def test_a_table_nobody_owns_opens_to_no_pin(served: Any) -> None:
    store, hosted, gate = served
    sid = game(store)  # made by the operator's CLI, say: no owner, no PIN
    phone = page(gate, hosted, "q" * 24)
    phone.scope, phone.link = sid, hosted.grants.link(sid)
    assert phone.enter("") is not None and phone.enter("123456") is not None
    assert not phone.may_write


def test_creations_are_bounded_per_address_within_the_hour(served: Any) -> None:
    store, hosted, gate = served
    phone = page(gate, hosted, "c" * 24, address="198.51.100.20")
    for _ in range(CREATIONS_PER_HOUR):
        phone.require_create()
    with pytest.raises(NotAllowed) as refused:
        phone.require_create()
    assert refused.value.render("en") == (
        "10 games were started from this network within the hour: wait a while, then start the next."
    )
    assert "10" in refused.value.render("ru") and "games" not in refused.value.render("ru")
    # Another address is not bound; the same /64 of IPv6 is one address; an hour later it may.
    page(gate, hosted, "e" * 24, address="198.51.100.21").require_create()
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff")
    assert address_key("::ffff:198.51.100.20") == address_key("198.51.100.20")
    later = hosted.owners.take_creation("198.51.100.20", now=__import__("time").time() + 3601)
    assert later is True
    # The database keeps no address.
    assert "198.51.100" not in str(store.backend.query("SELECT * FROM table_creations"))


def test_what_a_browser_says_it_holds_is_parsed_defensively() -> None:
    assert _parse_held(None) == ({}, {})
    assert _parse_held("[1]") == ({}, {})
    assert _parse_held("{") == ({}, {})
    assert _parse_held('{"own": {"1": 5, "x": "' + "a" * 22 + '", "2": "' + "b" * 22 + '"}}') == (
        {2: "b" * 22},
        {},
    )


# --- the operator's CLI --------------------------------------------------------------------------


def test_the_operator_lists_exports_and_deletes_a_phones_table(
    served: Any, target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store, hosted, gate = served
    sid = game(store)
    owner = page(gate, hosted, "o" * 24)
    owner.made(sid)
    token = hosted.grants.link(sid)
    store.close()
    assert main(["sessions", "--db", target, "--lang", "en"]) == 0
    assert "Anna, Boris, Vera, Gleb" in capsys.readouterr().out
    out = tmp_path / "game.json"
    assert main(["export", str(sid), str(out), "--db", target, "--lang", "en"]) == 0
    assert '"Anna"' in out.read_text()
    assert main(["delete", str(sid), "--db", target, "--lang", "en"]) == 0
    assert capsys.readouterr().out == f"Deleted game {sid}; its record is kept.\n"
    assert main(["delete", "999", "--db", target, "--lang", "en"]) == 2
    assert "there is no session 999" in capsys.readouterr().err
    with Store(target) as again:
        assert sid not in {s.id for s in again.sessions()}
        lock = threading.RLock()
        assert not Owners(again, lock).owns(sid, owner.owned[sid])
        assert not Grants(again, lock).opens(sid, token)
        assert grant_key("x", "1", sid)  # (the module's key is still what grants are)


def test_a_page_on_the_servers_own_computer_gets_no_administration(served: Any) -> None:
    store, hosted, gate = served
    sid = game(store)
    here = HostedAccess(gate, "h" * 24, loopback=True, address="127.0.0.1", hosted=hosted)
    here.current = lambda: sid
    assert not here.host and not here.may_write
    for refused in (
        here.require_host,
        lambda: here.require_write(sid),
        lambda: here.require_owner(sid),
    ):
        with pytest.raises(NotAllowed):
            refused()
    here.require_create()  # a new game is anybody's (within the limit), and then its own only
    here.made(game(store))
    assert not here.owns(sid) and not here.host
