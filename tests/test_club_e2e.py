"""A whole small club night in a real browser (issue #25's acceptance).

A real server (``python -m scorepad.cli --web``, 127.0.0.1) and headless Debian chromium: the
host creates the night, checks nine players in and draws tour 1 (three tables of three).  Tables
1 and 2 are played on four phone contexts (360×740), each joined by its table's link and PIN: a
deal confirmed by another player (the writer's own confirmation refused), a deal rejected, its
card check opened, written again and confirmed; a void made with the CLI at table 1 shows on a
phone and on the director's view without a tap, and is rejected there; table 3 is played with
the real CLI.  The
director announces to all tables, ends the tour, corrects a deal from his screen with a reason,
draws tour 2 (played with the CLI) and ends it.  The standings on the host's screen are checked
against each table's ``scorepad settle --json`` (computed here from the exported tables).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from e2e.harness import browser, has_text, open_app, shot, tap, type_text, visible
from playwright.sync_api import expect
from support.club_nights import drawn_night
from support.table_server import serving
from test_table_e2e import enter_pin, message_of, sel

from conftest import run_cli
from scorepad.app.server.grants import Grants
from scorepad.club.store import ClubStore, table_pin
from scorepad.core.numbers import whist_figure
from scorepad.store import Store

__all__ = ["browser"]  # the module-scoped chromium fixture
pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dima", "Zoya", "Lev", "Olga", "Petr"]
NAME_LABEL = "Name"  # the registry's field
LIVE = 15000  # ms a page may take to show another page's change (it waits for the state)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    db = tmp_path / "club.db"
    with serving(db) as (url, _port):
        yield url, db


def cli(db: Path, *args: str) -> str:
    done = run_cli("--db", str(db), *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def seating(db: Path, tour: int) -> list[tuple[int, int, tuple[int, ...], str, str]]:
    """Each table of ``tour``: number, session, players, join token and PIN (as the seating
    sheet shows them: the database is where the host's screen reads them)."""
    with Store(db) as store:
        club = ClubStore(store)
        grants = Grants(store.db, threading.RLock())
        out = []
        for tab in club.load(1).tour(tour).tables:
            sid = club.session_of(1, tour, tab.number)
            out.append((tab.number, sid, tab.players, grants.link(sid), table_pin(store, sid)))
    return out  # type: ignore[return-value]


def marks(db: Path, sid: int) -> list[tuple[str, int | None, int | None]]:
    with Store(db) as store:
        return [(m.state, m.written_by, m.decided_by) for m in ClubStore(store).marks(sid)]


def phone(
    browser: Any, url: str, sid: int, token: str, pin: str, me: int, label: str = "Table PIN"
) -> Any:
    """A player's phone: the table's link, its PIN (``label``: its field's, in the server's
    language), and who he is."""
    page = open_app(browser, f"{url}join/{sid}/{token}", 360, 740)
    visible(page, "viewer-note")
    tap(page, "pin-open")
    enter_pin(page, pin, label)
    visible(page, "nav-entry")
    tap(page, f"club-me-{me}")
    visible(page, "club-me")
    return page


def write_all_pass(page: Any) -> None:
    """Deal 1, an all-pass: 3 tricks for the two players the entry asks, 4 for the dealer.
    The night plays one deal a tour: once written, the entry offers no deal (issue #37)."""
    tap(page, "nav-entry")
    tap(page, "kind-raspasy")
    tap(page, "tricks-1-3")
    has_text(page, "tricks-1", "3")
    tap(page, "tricks-2-3")
    has_text(page, "tricks-0", "4")
    tap(page, "confirm-deal")
    expect(page.locator(sel("club-entry-done")).first).to_be_visible(timeout=LIVE)
    expect(page.locator(sel("deal-header"))).to_have_count(0)


def settled(db: Path, sid: int, folder: Path) -> list[Fraction]:
    """A table's balances as ``scorepad settle --json`` gives them for its exported session."""
    path = folder / f"table-{sid}.json"
    cli(db, "export", str(sid), str(path))
    return [Fraction(b) for b in json.loads(cli(db, "settle", str(path), "--json"))["balance"]]


def test_a_night_of_nine_players_two_tours_on_phones_and_the_host(
    browser: Any, server: tuple[str, Path], tmp_path: Path
) -> None:
    url, db = server
    host = open_app(browser, url, 1280, 800)
    tap(host, "session-club")
    type_text(host, host.get_by_label("Name of the night", exact=True), "Friday")
    type_text(host, host.get_by_label("Tours", exact=True), "2")
    type_text(host, host.get_by_label("Deals a tour", exact=True), "1")
    type_text(host, host.get_by_label("Scoring", exact=True), "whists")
    tap(host, "create-night")
    tap(host, "club-registry")
    for name in NAMES:
        type_text(host, host.get_by_label(NAME_LABEL, exact=True), name)
        tap(host, "club-check-in")
        visible(host, f"club-player-{NAMES.index(name) + 1}")
    tap(host, "club-back")
    tap(host, "club-draw")
    visible(host, "club-table-3")
    tables = seating(db, 1)
    assert [len(t[2]) for t in tables] == [3, 3, 3]
    tap(host, "club-seating")
    for k, _, _, _, pin in tables:  # its QR code is read in test_app_club.py
        has_text(host, f"club-pin-{k}", f"Table PIN (needed to write): {pin}")
    shot(host, "club-host-1280-seating")
    tap(host, "club-back")

    # Table 1 on two phones: A writes, his own confirmation is refused, B confirms.
    (_, sid1, p1, token1, pin1), (_, sid2, p2, token2, pin2), (_, _, p3, _, _) = tables
    a = phone(browser, url, sid1, token1, pin1, p1[0])
    b = phone(browser, url, sid1, token1, pin1, p1[1])
    write_all_pass(a)
    tap(a, "nav-sheet")
    # The writer is offered no Confirm for his own deal (issue #37), and his phone, chosen
    # once, cannot become another player (the other numbers are not offered to it).
    has_text(a, "club-waiting-1", "Waiting for another player to confirm it.")
    expect(a.locator(sel("club-confirm-1"))).to_have_count(0)
    expect(a.locator(sel(f"club-me-{p1[2]}"))).to_have_count(0)
    expect(b.locator(sel("club-phones")).first).to_contain_text(
        f"#{min(p1[0], p1[1])} ", timeout=LIVE
    )
    shot(a, "club-phone-360-own-deal")
    expect(b.locator(sel("club-confirm-1")).first).to_be_visible(timeout=LIVE)
    shot(b, "club-phone-360-to-confirm")
    tap(b, "club-confirm-1")
    expect(a.locator(sel("club-deal-1"))).to_have_count(0, timeout=LIVE)
    assert marks(db, sid1) == [("confirmed", p1[0], p1[1])]

    # Table 2 on two more phones: C writes, D rejects; the card check; C writes it again.
    c = phone(browser, url, sid2, token2, pin2, p2[0])
    d = phone(browser, url, sid2, token2, pin2, p2[1])
    write_all_pass(c)
    expect(d.locator(sel("club-reject-1")).first).to_be_visible(timeout=LIVE)
    tap(d, "club-reject-1")
    # Reject asks why, in the player's words (issue #37): required, then it is said everywhere.
    type_text(d, d.get_by_label("What is wrong? (required)"), "Olga took 3 tricks, not 4")
    shot(d, "club-phone-360-reject-why")
    tap(d, "club-reject-1-confirm")
    expect(d.locator(sel("club-deal-1")).first).to_contain_text(
        f"Deal 1 (All pass) was rejected by #{p2[1]} ", timeout=LIVE
    )
    expect(d.locator(sel("club-deal-1")).first).to_contain_text(
        ": Olga took 3 tricks, not 4. Check it card by card, then write it again."
    )
    tap(c, "nav-sheet")  # the writer's phone: his Sheet says who rejected it and why
    expect(c.locator(sel("club-deal-1")).first).to_contain_text(
        "Olga took 3 tricks, not 4", timeout=LIVE
    )
    shot(c, "club-phone-360-rejected-why")
    expect(host.locator(sel("club-table-2")).first).to_contain_text("a deal disputed", timeout=LIVE)
    visible(host, "club-dispute-2")
    expect(host.locator(sel("club-dispute-2-1")).first).to_contain_text(
        f"rejected by #{p2[1]} ", timeout=LIVE
    )
    expect(host.locator(sel("club-dispute-2-1")).first).to_contain_text(
        ": Olga took 3 tricks, not 4"
    )
    shot(host, "club-director-1280-dispute-why")
    tap(d, "club-audit-1")
    visible(d, "dispute-hint")
    shot(d, "club-phone-360-audit")
    tap(d, "dispute-back")
    tap(c, "nav-history")
    tap(c, "edit-1")
    tap(c, "tricks-1-2")
    type_text(c, c.get_by_label("Reason for the change"), "the cards: 4, 2, 4")
    tap(c, "confirm-deal")
    visible(c, "deal-1")
    tap(d, "nav-sheet")
    expect(d.locator(sel("club-confirm-1")).first).to_be_visible(timeout=LIVE)
    tap(d, "club-confirm-1")
    expect(d.locator(sel("club-deal-1"))).to_have_count(0, timeout=LIVE)
    assert marks(db, sid2) == [("confirmed", p2[0], p2[1])]

    # A void from the CLI (another process) at table 1: B's phone shows it to confirm without
    # a tap; B rejects it, the deal stands again and the director hears of it.
    said = cli(db, "club", "void", "1", "1", "1", "1", "--reason", "misdeal", "--by", str(p1[2]))
    assert said == "change 2, the void of deal 1 (misdeal): provisional\n"
    expect(b.locator(sel("club-change-confirm-2")).first).to_be_visible(timeout=LIVE)
    expect(host.locator(sel("club-table-1")).first).to_contain_text(
        "0 deals, no deal yet; 1 to confirm", timeout=LIVE
    )
    tap(b, "club-change-reject-2")
    type_text(b, b.get_by_label("What is wrong? (required)"), "no misdeal: we played it")
    tap(b, "club-change-reject-2-confirm")
    expect(b.locator(sel("club-change-2"))).to_have_count(0, timeout=LIVE)
    expect(host.locator(sel("club-rejected-1-2")).first).to_contain_text(
        "rejected by #" + str(p1[1]) + " (no misdeal: we played it): taken back", timeout=LIVE
    )
    expect(host.locator(sel("club-table-1")).first).to_contain_text(
        "1 deal, done; 0 to confirm", timeout=LIVE
    )

    # Table 3 with the CLI; the director announces, ends the tour and corrects a deal.
    raspasy = '{"type": "raspasy", "tricks": {"0": 2, "1": 3, "2": 5}}'
    cli(db, "club", "deal", "1", "1", "3", raspasy, "--by", str(p3[0]))
    cli(db, "club", "confirm", "1", "1", "3", "1", "--by", str(p3[2]))
    # Another process's writes: the director's view shows them by itself (no tap).
    expect(host.locator(sel("club-table-3")).first).to_contain_text(
        "1 deal, done; 0 to confirm", timeout=LIVE
    )
    type_text(host, host.get_by_label("Announcement to every table"), "Tour 2 at ten")
    tap(host, "club-announce")
    for page in (a, c):
        expect(page.locator(sel("club-announcement")).first).to_have_text(
            "From the director: Tour 2 at ten", timeout=LIVE
        )
    expect(host.locator(sel("club-table-3")).first).to_contain_text("1 deal, done", timeout=LIVE)
    tap(host, "club-end-tour")
    visible(host, "end-tour-note")
    shot(host, "club-host-1280-end-tour")
    tap(host, "confirm-end-tour")
    visible(host, "club-draw")
    visible(host, "club-reopen-tour")
    shot(host, "club-host-1280-tour-ended")
    tap(host, "club-open-1")
    tap(host, "edit-1")
    tap(host, "tricks-1-4")
    type_text(host, host.get_by_label("Reason for the change"), "the protocol")
    tap(host, "confirm-deal")
    visible(host, "deal-1")
    tap(host, "club-director")
    expect(host.get_by_text("Tour 1, table 1, deal 1: the protocol")).to_be_visible(timeout=LIVE)
    # After the tour, a player's change is refused with the sentence; nothing is written.
    tap(a, "nav-history")
    tap(a, "edit-1")
    tap(a, "tricks-1-2")
    type_text(a, a.get_by_label("Reason for the change"), "mine")
    tap(a, "confirm-deal")
    assert message_of(a) == (
        "tour 1 has ended: a deal at table 1 changes only by the director, with a reason"
    )

    # Tour 2 (the CLI at every table), then the standings on the host's screen.
    tap(host, "club-draw")
    expect(host.get_by_text("Friday, tour 2 of 2", exact=True)).to_be_visible(timeout=LIVE)
    tour2 = seating(db, 2)
    for k, _, players, _, _ in tour2:
        cli(db, "club", "deal", "1", "2", str(k), raspasy, "--by", str(players[0]))
        cli(db, "club", "confirm", "1", "2", str(k), "1", "--by", str(players[1]))
    # The CLI is another process: the director's view shows its writes by itself (no tap).
    for k in (1, 2, 3):
        expect(host.locator(sel(f"club-table-{k}")).first).to_contain_text(
            "1 deal, done; 0 to confirm", timeout=LIVE
        )
    tap(host, "club-end-tour")
    tap(host, "confirm-end-tour")
    expect(host.locator(sel("club-end-tour"))).to_have_count(0, timeout=LIVE)
    tap(host, "club-standings")
    visible(host, "club-rank-9")
    shot(host, "club-host-1280-standings")
    shown: dict[int, str] = {}
    for k in range(1, 10):
        line = host.locator(sel(f"club-rank-{k}")).first.inner_text()
        found = re.match(r"\d+\. #(\d+) .+ — (.+?) points", line)
        assert found, line
        shown[int(found[1])] = found[2]

    # Each player's points: his balances at his two tables, as `scorepad settle --json` says.
    expected: dict[int, Fraction] = dict.fromkeys(range(1, 10), Fraction(0))
    for _, sid, players, _, _ in [*tables, *tour2]:
        for number, balance in zip(players, settled(db, sid, tmp_path), strict=True):
            expected[number] += balance
    assert shown == {n: whist_figure(v) for n, v in expected.items()}
    assert len(set(expected.values())) > 1  # the tables' results differ: the check can fail
    for page in (host, a, b, c, d):
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_new_club_screens_in_a_browser(browser: Any, tmp_path: Path, lang: str) -> None:
    """Issue #37's screens at 360×740 and 1280×800, in English and Russian (looked at): the
    director's view with each table's phones, End tour's question naming a table short of its
    deals, the registry's question before a withdrawal, the Seating's warning of a server this
    computer alone reaches, and a phone's panel (who it is, the table's phones, its own deal
    waiting for another player)."""
    db = tmp_path / "club.db"
    with Store(db) as store:
        club = ClubStore(store)
        nid = drawn_night(club, NAMES[:6])
        a = club.load(nid).tour(1).table(1).players[0]
        raspasy = {"type": "raspasy", "tricks": {"0": 3, "1": 4, "2": 3}}
        club.write_deal(nid, 1, 1, raspasy, by=a, seen=0)
        # Table 2: a deal rejected with the player's reason (the director's Disputes).
        x, y, _ = club.load(nid).tour(1).table(2).players
        club.write_deal(nid, 1, 2, raspasy, by=x, seen=0)
        why = {"en": "I had 4 tricks, not 3", "ru": "у меня было 4 взятки, а не 3"}[lang]
        deal = store.load(club.session_of(nid, 1, 2)).journal.live[0].deal_id
        club.reject(nid, 1, 2, deal, by=y, reason=why)
    with serving(db, lang=lang) as (url, _port):
        (_, sid1, _, token1, pin1), *_ = seating(db, 1)
        label = {"en": "Table PIN", "ru": "PIN стола"}[lang]
        phone_a = phone(browser, url, sid1, token1, pin1, a, label)
        tap(phone_a, "nav-sheet")
        visible(phone_a, "club-waiting-1")
        visible(phone_a, "club-phones")
        shot(phone_a, f"club37-phone-360-{lang}-panel")
        tap(phone_a, "nav-entry")
        visible(phone_a, "club-entry-count")
        shot(phone_a, f"club37-phone-360-{lang}-entry")
        # Another player's Reject asks why first (the reason is required).
        (_, _, seats1, _, _), *_ = seating(db, 1)
        phone_b = phone(browser, url, sid1, token1, pin1, seats1[1], label)
        tap(phone_b, "nav-sheet")
        tap(phone_b, "club-reject-1")
        visible(phone_b, "club-reject-1-reason")
        shot(phone_b, f"club37-phone-360-{lang}-reject-why")
        tap(phone_b, "club-reject-1-confirm")  # no reason: refused, the deal still to confirm
        visible(phone_b, "club-confirm-1")
        shot(phone_b, f"club37-phone-360-{lang}-reject-refused")
        phone_b.context.close()
        for width, height in ((1280, 800), (360, 740)):
            host = open_app(browser, url, width, height)
            tap(host, "session-club")
            visible(host, "night-preset")
            shot(host, f"club37-host-{width}-{lang}-new-night")
            tap(host, "night-1")
            visible(host, "club-phones-1")
            expect(host.locator(sel("club-dispute-2-1")).first).to_contain_text(why)
            shot(host, f"club37-host-{width}-{lang}-director")
            tap(host, "club-end-tour")
            visible(host, "end-tour-short-0")
            shot(host, f"club37-host-{width}-{lang}-end-tour")
            tap(host, "cancel-end-tour")
            tap(host, "club-registry")
            tap(host, "club-withdraw-2")
            visible(host, "withdraw-note")
            shot(host, f"club37-host-{width}-{lang}-withdraw")
            tap(host, "cancel-withdraw")
            tap(host, "club-back")
            tap(host, "club-seating")
            visible(host, "club-seating-local")
            shot(host, f"club37-host-{width}-{lang}-seating")
            host.context.close()
